package assemble_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/assemble"
)

var today = date.MustParse("2026-03-10")

// candidates returns summaries of two years and twelve days, and forty
// recent entries from real day-file text.
func candidates(t *testing.T) []assemble.Candidate {
	t.Helper()
	var out []assemble.Candidate
	prose := strings.Repeat("The team shipped the launch and fixed the login bug. ", 40)
	for i, y := range []string{"2024", "2025"} {
		out = append(out, assemble.Candidate{ID: "year:" + y, Part: assemble.PartSummaries, Level: "year",
			Head: "### [year:" + y + "] " + y, Body: prose, Date: date.MustParse(y + "-12-31"), Rank: i})
	}
	for d := 1; d <= 12; d++ {
		day := fmt.Sprintf("2026-03-%02d", d-3+3)
		out = append(out, assemble.Candidate{ID: "day:" + day, Part: assemble.PartSummaries, Level: "day",
			Head: "### [day:" + day + "] " + day, Body: prose[:400], Date: date.MustParse(day), Rank: 10 + d})
	}
	var src strings.Builder
	src.WriteString("# 2026-03-09\n\n")
	for i := range 40 {
		fmt.Fprintf(&src, "- %02d:%02d [fact] Entry number %d about the #auth rollout.\n  A second line for %d.\n", 8+i/6, i%6*10, i, i)
	}
	day, err := dayfiles.Parse("09.md", date.MustParse("2026-03-09"), []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range day.Entries {
		c := assemble.EntryCandidate(e, assemble.PartRecent)
		c.Rank = i
		out = append(out, c)
	}
	return out
}

func input(t *testing.T, budget int, foundation string) assemble.Input {
	return assemble.Input{Title: "# Context 2026-03-10", Foundation: foundation, Budget: budget,
		SummaryShare: 0.6, RecentShare: 0.4, Today: today, Candidates: candidates(t)}
}

func TestBudgetIsNeverExceeded(t *testing.T) {
	for budget := 1; budget <= 3000; budget += 37 {
		res := assemble.Build(input(t, budget, "I am the agent of Dana.\nNever delete day files."))
		if len(res.Warnings) > 0 { // the title and foundation alone are over the budget
			if !strings.Contains(res.Markdown, "I am the agent of Dana.\nNever delete day files.") || budget > 60 {
				t.Fatalf("budget %d: %v", budget, res.Warnings)
			}
			continue
		}
		if res.Tokens > budget || assemble.Tokens(res.Markdown) != res.Tokens {
			t.Fatalf("budget %d: block of %d tokens (estimate %d)", budget, res.Tokens, assemble.Tokens(res.Markdown))
		}
		if len(res.Placed)-1+res.Omitted != len(input(t, 1, "").Candidates) && res.Markdown != "" {
			t.Fatalf("budget %d: %d placed and %d omitted of %d", budget, len(res.Placed), res.Omitted, len(input(t, 1, "").Candidates))
		}
		if budget >= 200 && budget-res.Tokens > budget/10+60 {
			t.Errorf("budget %d: only %d tokens used", budget, res.Tokens)
		}
	}
}

func TestTinyBudgetPlacesNothing(t *testing.T) {
	res := assemble.Build(input(t, 3, ""))
	if res.Markdown != "" || res.Tokens != 0 || len(res.Warnings) != 1 {
		t.Fatalf("budget 3: %+v", res)
	}
	// A foundation is given even when the title alone is over the budget.
	res = assemble.Build(input(t, 3, "Foundation."))
	if !strings.Contains(res.Markdown, "\nFoundation.\n") || len(res.Warnings) != 1 {
		t.Fatalf("budget 3 with a foundation: %+v", res)
	}
}

func TestFoundationOverBudgetIsWholeAndSaid(t *testing.T) {
	f := strings.Repeat("Standing instruction: answer in English. ", 100)
	res := assemble.Build(input(t, 200, f))
	if !strings.Contains(res.Markdown, strings.TrimSpace(f)) {
		t.Fatal("the foundation was cut")
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Markdown, "> Warning: foundation.md alone is") {
		t.Fatalf("no warning: %v\n%s", res.Warnings, res.Markdown[:200])
	}
	if strings.Contains(res.Markdown, "## Recent") || res.Omitted != len(input(t, 1, "").Candidates) {
		t.Fatalf("items placed beside an over-budget foundation: omitted %d", res.Omitted)
	}
}

func TestNoCandidates(t *testing.T) {
	in := input(t, 1000, "")
	in.Candidates = nil
	res := assemble.Build(in)
	if res.Markdown != "# Context 2026-03-10\n" || res.Omitted != 0 || len(res.Warnings) != 0 {
		t.Fatalf("empty: %+v", res)
	}
}

func TestRecentIsTheNewestInOrder(t *testing.T) {
	res := assemble.Build(input(t, 600, ""))
	_, recent, ok := strings.Cut(res.Markdown, "## Recent\n")
	if !ok {
		t.Fatalf("no recent part:\n%s", res.Markdown)
	}
	got := assemble.ParseEntries(recent)
	if len(got) == 0 {
		t.Fatal("no recent entries")
	}
	// The newest entries, oldest first, newest last, each with its exact text.
	last := -1
	for _, l := range strings.Split(recent, "\n") {
		var n int
		if _, err := fmt.Sscanf(l[strings.Index(l, "]")+1:], " [fact] Entry number %d", &n); err == nil && strings.HasPrefix(l, "- [") {
			if n <= last {
				t.Fatalf("entry %d after %d", n, last)
			}
			last = n
		}
	}
	if last != 39 {
		t.Fatalf("the newest entry (39) is not last: %d", last)
	}
	for id, text := range got {
		if !strings.HasSuffix(text, "\n  A second line for "+text[len("Entry number "):strings.Index(text, " about")]+".") && !strings.Contains(text, "\nA second line") {
			t.Fatalf("%s: text %q", id, text)
		}
	}
}

func TestUsedItemsWinWhenSpaceIsShort(t *testing.T) {
	in := input(t, 500, "")
	for i := range in.Candidates {
		if in.Candidates[i].ID == "year:2024" {
			in.Candidates[i].Uses = 30
		}
	}
	res := assemble.Build(in)
	if !strings.Contains(res.Markdown, "[year:2024]") {
		t.Fatalf("the much-used year is left out:\n%s", res.Markdown)
	}
	in.Candidates[0].Uses = 0
	if res := assemble.Build(in); strings.Contains(res.Markdown, "[year:2024]") {
		t.Fatalf("the old unused year beats recent days:\n%s", res.Markdown)
	}
}

func TestHitsComeFirst(t *testing.T) {
	in := input(t, 1500, "")
	in.Candidates[5].Hit, in.Candidates[5].Relevance, in.Candidates[5].Rank = true, 1, 0
	res := assemble.Build(in)
	_, after, _ := strings.Cut(res.Markdown, "## Memory summaries\n\n")
	if !strings.HasPrefix(after, in.Candidates[5].Head) {
		t.Fatalf("the hit is not first:\n%s", after[:200])
	}
}

func TestUtility(t *testing.T) {
	if u := assemble.Utility(1, 1, 1); u != 1 {
		t.Errorf("all ones: %v", u)
	}
	if u := assemble.Utility(0, 0, assemble.Recency(assemble.HalfLifeDays)); u != 0.1 {
		t.Errorf("half-life recency only: %v", u)
	}
	if f := assemble.Frequency(3, 3); f != 1 {
		t.Errorf("the most used: %v", f)
	}
	if f := assemble.Frequency(1, 100); f <= 0 || f >= 0.5 {
		t.Errorf("1 of 100: %v", f)
	}
}

func TestCut(t *testing.T) {
	s := "First sentence here. Second sentence is longer than that. Third."
	for max := 1; max <= assemble.Tokens(s)+1; max++ {
		got, truncated, ok := assemble.Cut(s, max)
		if ok && assemble.Tokens(got) > max {
			t.Fatalf("max %d: %q is %d tokens", max, got, assemble.Tokens(got))
		}
		if ok && truncated && !strings.HasSuffix(got, " …") {
			t.Fatalf("max %d: cut without a mark: %q", max, got)
		}
		if ok && truncated && !strings.HasPrefix(s, strings.TrimSuffix(got, " …")) {
			t.Fatalf("max %d: %q is not a prefix", max, got)
		}
	}
	if got, _, _ := assemble.Cut(s, 7); got != "First sentence here. …" {
		t.Errorf("cut at 7 tokens: %q", got)
	}
}

func TestParseEntriesRoundTrip(t *testing.T) {
	src := "# 2026-03-09\n\n- 09:00 [decision] Chose Argon2. #auth\n  Because it is memory-hard.\n- 09:05 [note] [draft] not a kind\n- 09:10 plain\n"
	day, err := dayfiles.Parse("x.md", date.MustParse("2026-03-09"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range day.Entries {
		b.WriteString(assemble.EntryLine(e) + "\n")
	}
	got := assemble.ParseEntries(b.String())
	for _, e := range day.Entries {
		if got[e.ID] != e.Text {
			t.Errorf("%s: %q, want %q", e.ID, got[e.ID], e.Text)
		}
	}
	// Evidence lines, under their day's heading, by their line ids.
	b.Reset()
	b.WriteString("### " + assemble.EvidenceGroup(day.Date) + "\n")
	for _, e := range day.Entries {
		b.WriteString(assemble.EvidenceLine(e) + "\n")
	}
	if !strings.Contains(b.String(), "\n- :3 09:00 [decision] Chose Argon2. #auth\n  Because it is memory-hard.\n- :5 09:05 [note] [draft]") {
		t.Errorf("evidence lines:\n%s", b.String())
	}
	got = assemble.ParseEntries(b.String())
	if len(got) != len(day.Entries) {
		t.Errorf("%d evidence lines read back, want %d", len(got), len(day.Entries))
	}
	for _, e := range day.Entries {
		if id := dayfiles.LineID(day.Date, e.Line); got[id] != e.Text {
			t.Errorf("evidence %s: %q, want %q", id, got[id], e.Text)
		}
	}
}

// A block with evidence keeps the budget at every size, places the
// evidence before anything else, and gives each day's heading once.
func TestEvidenceKeepsTheBudget(t *testing.T) {
	base := input(t, 1, "")
	src := "# 2025-05-02\n\n"
	for i := range 30 {
		src += fmt.Sprintf("- 10:%02d Message %d of the old exchange about the ferry.\n", i, i)
	}
	day, err := dayfiles.Parse("02.md", date.MustParse("2025-05-02"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range day.Entries {
		c := assemble.EntryCandidate(e, assemble.PartEvidence)
		c.Head, c.Group, c.Line, c.Rank = assemble.EvidenceLine(e), assemble.EvidenceGroup(e.Day), e.Line, i
		c.Relevance = 1 / float64(1+i%7)
		base.Candidates = append(base.Candidates, c)
	}
	for budget := 1; budget <= 3000; budget += 37 {
		in := base
		in.Budget = budget
		res := assemble.Build(in)
		if len(res.Warnings) > 0 {
			continue
		}
		if res.Tokens > budget || assemble.Tokens(res.Markdown) != res.Tokens {
			t.Fatalf("budget %d: block of %d tokens (estimate %d)", budget, res.Tokens, assemble.Tokens(res.Markdown))
		}
		if n := strings.Count(res.Markdown, "### 2025-05-02 · days/2025/05/02.md\n"); budget >= 100 && n != 1 {
			t.Fatalf("budget %d: the day's heading %d times:\n%s", budget, n, res.Markdown)
		}
		if budget >= 100 && (!strings.HasPrefix(res.Markdown, "# Context 2026-03-10\n\n## Evidence\n\n") || !strings.Contains(res.Markdown, "\n\n### 2025-05-02")) {
			t.Fatalf("budget %d: the evidence is not first:\n%s", budget, res.Markdown)
		}
		// The evidence is from a year ago: recent entries are no filler.
		if strings.Contains(res.Markdown, "## Recent") {
			t.Fatalf("budget %d: recent entries beside old evidence:\n%s", budget, res.Markdown)
		}
	}
}

// A long neighbour is cut at a word to a preview marked " …", which
// ParseEntries does not take for the entry's text.
func TestEvidenceLineCut(t *testing.T) {
	long := strings.Repeat("We walked along the river and talked about the trip. ", 12)
	src := "# 2025-05-02\n\n- 10:00 Sam: " + long + "\n- 10:01 Dana: Short reply.\n"
	day, err := dayfiles.Parse("02.md", date.MustParse("2025-05-02"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	line, cut := assemble.EvidenceLineCut(day.Entries[0], 30)
	if !cut || !strings.HasPrefix(line, "- :3 10:00 Sam: We walked along the river") || !strings.HasSuffix(line, " …") {
		t.Fatalf("cut %v: %q", cut, line)
	}
	if n := assemble.Tokens(strings.TrimPrefix(line, "- :3 10:00 ")); n > 30 {
		t.Errorf("the cut text is %d tokens, over 30", n)
	}
	if short, cut := assemble.EvidenceLineCut(day.Entries[1], 30); cut || short != "- :4 10:01 Dana: Short reply." {
		t.Errorf("a short entry was changed: %v %q", cut, short)
	}
	got := assemble.ParseEntries("### " + assemble.EvidenceGroup(day.Date) + "\n" + line + "\n" + assemble.EvidenceLine(day.Entries[1]) + "\n")
	if len(got) != 1 || got["2025-05-02:L4"] != "Dana: Short reply." {
		t.Errorf("read back %q: want only the whole entry", got)
	}
}

// TestRawTokensCountsEachCoveredFileOnce checks the estimate of the day
// files the placed items stand for: a file inside any placed item's range
// counts once, however many ranges hold it; files outside every range, and
// items not placed, count nothing.
func TestRawTokensCountsEachCoveredFileOnce(t *testing.T) {
	d := date.MustParse
	var files []dayfiles.File
	for day := d("2026-01-01"); !day.After(d("2026-01-10")); day = day.AddDays(1) {
		files = append(files, dayfiles.File{Date: day, Size: 40}) // 10 tokens each
	}
	g := assemble.Gathered{
		Files: files,
		Covers: []date.Range{
			{From: d("2026-01-02"), To: d("2026-01-04")}, // 3 files
			{From: d("2026-01-03"), To: d("2026-01-03")}, // inside the first
			{From: d("2026-01-09"), To: d("2026-01-20")}, // 2 files, and days without one
			{From: d("2026-01-06"), To: d("2026-01-07")}, // not placed
			{From: d("2025-12-01"), To: d("2026-01-01")}, // 1 file
		},
	}
	placed := []assemble.Placed{{Index: -1}, {Index: 2}, {Index: 0}, {Index: 1}, {Index: 4}}
	if got, want := g.RawTokens(placed), 6*10; got != want {
		t.Fatalf("RawTokens = %d, want %d", got, want)
	}
}
