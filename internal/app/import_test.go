package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
)

// Imports dedupe by instant: the same moment written with another offset
// (an export made under another zone) is the entry already there.
func TestImportDedupesByInstant(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newApp(t, dir)
	first := `{"at": "2017-06-28T15:38:37Z", "text": "Soaked in the hot spring."}` + "\n"
	resp, err := a.Import(ctx, strings.NewReader(first), daybook.ImportOptions{})
	if err != nil || resp.Added != 1 {
		t.Fatalf("first import: %+v %v", resp, err)
	}
	for _, at := range []string{"2017-06-29T00:38:37+09:00", "2017-06-28T11:38:00-04:00"} {
		again := `{"at": "` + at + `", "text": "Soaked in the hot spring."}` + "\n"
		resp, err = a.Import(ctx, strings.NewReader(again), daybook.ImportOptions{})
		if err != nil || resp.Added != 0 || resp.Skipped != 1 {
			t.Errorf("the same instant as %s: %+v %v, want it there already", at, resp, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "days/2017/06/28.md"))
	if n := strings.Count(string(b), "hot spring"); n != 1 {
		t.Errorf("the day file holds the entry %d times:\n%s", n, b)
	}
}

// PlanImport counts what Import would add and what is there already, and
// writes nothing.
func TestPlanImportWritesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newApp(t, dir)
	lines := `{"at": "2024-03-01T09:00", "text": "one"}
{"at": "2024-03-03T09:00", "text": "two"}
{"at": "2024-03-03T09:00", "text": "two"}
{"text": "no time"}
`
	plan, err := a.PlanImport(ctx, strings.NewReader(lines), daybook.ImportOptions{})
	if err != nil || plan.Added != 3 || plan.Skipped != 0 || plan.Days != 2 || plan.First.String() != "2024-03-01" || plan.Last.String() != "2024-03-03" {
		t.Fatalf("plan %+v %v", plan, err)
	}
	if len(plan.Rejected) != 1 || plan.Rejected[0].Line != 4 {
		t.Errorf("rejected %+v, want line 4", plan.Rejected)
	}
	if _, err := os.Stat(filepath.Join(dir, "days")); !os.IsNotExist(err) {
		t.Fatalf("PlanImport wrote days/: %v", err)
	}
	if _, err := a.Import(ctx, strings.NewReader(lines), daybook.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	plan, err = a.PlanImport(ctx, strings.NewReader(lines), daybook.ImportOptions{})
	if err != nil || plan.Added != 0 || plan.Skipped != 3 || plan.Days != 0 || !plan.First.IsZero() {
		t.Errorf("plan after the import %+v %v, want all 3 there already", plan, err)
	}
}

// An import larger than a batch, over many days written at once: two equal
// lines are both written, whichever batch each falls in, and a second
// import adds nothing.
func TestImportManyDaysTwice(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newApp(t, dir)
	var b strings.Builder
	const days, perDay = 60, 100 // 6,000 lines: more than one batch of 5,000
	for i := 0; i < perDay; i++ {
		for d := 1; d <= days; d++ {
			day := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d-1)
			text := fmt.Sprintf("line %d", i/2) // each text twice on its day
			fmt.Fprintf(&b, `{"at": "%sT09:%02d", "text": %q}`+"\n", day.Format("2006-01-02"), (i/2)%60, text)
		}
	}
	resp, err := a.Import(ctx, strings.NewReader(b.String()), daybook.ImportOptions{})
	if err != nil || resp.Added != days*perDay || resp.Days != days {
		t.Fatalf("first import: added %d into %d days, %v; want %d into %d", resp.Added, resp.Days, err, days*perDay, days)
	}
	resp, err = a.Import(ctx, strings.NewReader(b.String()), daybook.ImportOptions{})
	if err != nil || resp.Added != 0 || resp.Skipped != days*perDay {
		t.Fatalf("second import: %+v %v, want all there already", resp, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "days/2020/01/15.md"))
	if n := strings.Count(string(got), "line 7\n"); n != 2 {
		t.Errorf("2020-01-15 holds \"line 7\" %d times, want 2", n)
	}
}
