package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// TestExpandReachesEveryEntry generates a year of days and walks it through
// expand alone, year → months → days → entries: every entry of every day
// file is reached, and expanding the entries of the busiest day gives each
// one's lines exactly as the file holds them.
func TestExpandReachesEveryEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and expands a year of days; the full suite runs it")
	}
	dir := filepath.Join(t.TempDir(), "data")
	end := date.Of(now).AddDays(-1)
	if _, err := gen.Write(dir, gen.Options{Years: 1, Seed: 7, End: end}); err != nil {
		t.Fatal(err)
	}
	files, err := dayfiles.List(dir, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]dayfiles.Entry{}
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range day.Entries {
			want[e.ID] = e
		}
	}

	cs := connect(t, apptest.New(t, dir, apptest.At(now)), mcp.Options{})
	reached := map[string]string{} // entry id → the day that listed it
	var days []string
	for y := files[0].Date.Year; y <= end.Year; y++ {
		year := call[mcp.ExpandOutput](t, cs, "expand", map[string]any{"id": fmt.Sprintf("year:%04d", y)})
		for _, m := range year.Related {
			month := call[mcp.ExpandOutput](t, cs, "expand", map[string]any{"id": m})
			days = append(days, month.Related...)
		}
	}
	if len(days) != len(files) {
		t.Fatalf("months list %d days, there are %d day files", len(days), len(files))
	}
	for _, d := range days {
		day := call[mcp.ExpandOutput](t, cs, "expand", map[string]any{"id": d})
		for _, id := range day.Related {
			if _, ok := dayfiles.ParseEntryID(id); ok {
				reached[id] = d
			}
		}
	}
	for id := range want {
		if reached[id] == "" {
			t.Errorf("entry %s is not reachable from its year", id)
		}
	}
	if len(reached) != len(want) {
		t.Fatalf("reached %d entry ids, the day files hold %d", len(reached), len(want))
	}

	// Every entry of the busiest day, expanded, is its file's lines.
	busiest := map[date.Date]int{}
	var top date.Date
	for _, e := range want {
		if busiest[e.Day]++; busiest[e.Day] > busiest[top] {
			top = e.Day
		}
	}
	data, err := os.ReadFile(dayfiles.Path(dir, top))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	n := 0
	for id, e := range want {
		if e.Day != top {
			continue
		}
		n++
		exp, txt := expand(t, cs, map[string]any{"id": id})
		if src := strings.Join(lines[e.Line-1:e.EndLine], "\n"); !strings.Contains(txt, "\n\n"+src+"\n") || exp.Entry.ID != id {
			t.Fatalf("expand %s:\n%q\nwant the file's lines %d-%d:\n%q", id, txt, e.Line, e.EndLine, src)
		}
	}
	t.Logf("reached %d entries of %d days; expanded the %d entries of %s", len(reached), len(days), n, top)
}
