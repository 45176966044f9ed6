package consolidate_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
)

// named is a summarizer with another name than the offline one.
type named struct{ name string }

func (n named) Name() string { return n.name }
func (n named) Summarize(_ context.Context, in consolidate.Input) (string, error) {
	return "Redone by " + n.name + " for " + in.Period + ".", nil
}

// TestUpgradeRewritesOnlyDaybooksSummaries: RunOptions.Upgrade rewrites a
// summary whose inputs did not change, but, unlike Force, never one a
// person edited, and it reads Edited from the file.
func TestUpgradeRewritesOnlyDaybooksSummaries(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	daybooktest.WriteDay(t, root, "2025-03-10", "- 09:00 Fixed the parser. #db")
	daybooktest.WriteDay(t, root, "2025-03-11", "- 09:00 Use Postgres for the ledger. #db")
	c, _ := newConsolidator(root, time.Date(2025, 4, 2, 12, 0, 0, 0, time.UTC))
	if _, err := c.Run(ctx, consolidate.RunOptions{}); err != nil {
		t.Fatal(err)
	}
	path := consolidate.DayPeriod(date.MustParse("2025-03-11")).Path(root)
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), "\n## ", "\nMy own words.\n\n## ", 1)
	if edited == string(data) {
		t.Fatal("no section to edit before")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := readSummary(t, root, date.LevelDay, "2025-03-11"); !s.Edited() {
		t.Fatal("the edited summary does not read as edited")
	}
	if s := readSummary(t, root, date.LevelDay, "2025-03-10"); s.Edited() {
		t.Fatal("daybook's own summary reads as edited")
	}

	c.Summarizer = named{"ollama/llama3.2"}
	all := date.Range{From: date.MustParse("2025-03-10"), To: date.MustParse("2025-03-11")}
	st, err := c.Run(ctx, consolidate.RunOptions{Range: all, Level: date.LevelDay, Upgrade: true})
	if err != nil {
		t.Fatal(err)
	}
	if st.Days != 1 || !slices.Equal(st.Kept, []string{"summaries/2025/03/11.md"}) {
		t.Fatalf("upgrade: %+v, want one day rewritten and the edited one kept", st)
	}
	if s := readSummary(t, root, date.LevelDay, "2025-03-10"); s.Summarizer != "ollama/llama3.2" || !strings.HasPrefix(s.Prose, "Redone by") {
		t.Errorf("upgraded summary: %q by %q", s.Prose, s.Summarizer)
	}
	if got, _ := os.ReadFile(path); string(got) != edited {
		t.Error("the hand-edited summary was rewritten by an upgrade")
	}
}
