package assemble_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/assemble"
	"github.com/daybook/daybook/recall"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// The golden memory (testdata/golden/memory): six day files of real text,
// written by hand and consolidated by daybook (a conversation past
// midnight, a free-text note, a fact changed months later, a captured
// agent session whose answer cites the old fact, today's notes), with the
// recall results of three queries pinned beside it (hits-*.json, from
// "daybook recall --json" on it, plus two summary hits and one of a day
// file that is not there). The golden tests gather and build each
// context at several budgets and compare every candidate and the block,
// byte for byte, with testdata/golden/*.golden: any change to what the
// block holds, or to its order, shows there. go test -run Golden -update
// rewrites them after a change meant to move the block.
const goldenDir = "testdata/golden"

// goldenQuery is the query of hits-evidence.json: it names a speaker of
// one of its hits (Dana) and asks after a fact that changed.
const goldenQuery = "What did Dana ask about the ferry to Lisbon, and what is the garage door code?"

var goldenBudgets = []int{150, 400, 1000, 3000}

func TestGoldenEvidence(t *testing.T) {
	hits := readHits(t, "hits-evidence.json")
	checkGolden(t, "evidence.golden", func(dir string, budget int) string {
		return gatherAndBuild(t, dir, budget, assemble.GatherInput{Hits: hits, Evidence: true,
			Words: recall.NewQueryWords(goldenQuery)}, "")
	})
}

// A query of only a date: its hits are framed as summaries, no evidence.
func TestGoldenDated(t *testing.T) {
	hits := readHits(t, "hits-dated.json")
	checkGolden(t, "dated.golden", func(dir string, budget int) string {
		return gatherAndBuild(t, dir, budget, assemble.GatherInput{Hits: hits}, "")
	})
}

// No query: summaries and the latest entries, beside a foundation.
func TestGoldenNoQuery(t *testing.T) {
	checkGolden(t, "noquery.golden", func(dir string, budget int) string {
		return gatherAndBuild(t, dir, budget, assemble.GatherInput{}, "I am the agent of Dana.\nAnswer in English.")
	})
}

// Build alone, on the candidates of assemble_test.go, with use counts,
// shares of either kind and a foundation over the smallest budgets.
func TestGoldenBuild(t *testing.T) {
	checkGolden(t, "build.golden", func(_ string, budget int) string {
		var out strings.Builder
		for _, shares := range [][2]float64{{0.6, 0.4}, {0, 0}} {
			in := input(t, budget, strings.Repeat("Standing instruction. ", 30))
			in.SummaryShare, in.RecentShare = shares[0], shares[1]
			for i := range in.Candidates {
				in.Candidates[i].Uses = i * 7 % 5
			}
			fmt.Fprintf(&out, "-- shares %v\n", shares)
			writeResult(&out, in.Candidates, assemble.Build(in))
		}
		return out.String()
	})
}

// checkGolden runs build on a copy of the golden memory at each budget
// and compares what it returns, joined, with the golden file name.
func checkGolden(t *testing.T, name string, build func(dir string, budget int) string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(goldenDir, "memory"))); err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, b := range goldenBudgets {
		fmt.Fprintf(&got, "=== budget %d\n", b)
		got.WriteString(build(dir, b))
	}
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.WriteFile(path, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run Golden -update writes it)", err)
	}
	if got.String() != string(want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from line %d:\ngot:  %q\nwant: %q\n(go test -run Golden -update rewrites it when the change is meant)", path, i+1, g, w)
			}
		}
	}
}

// gatherAndBuild gathers the candidates in dir as of 2026-03-10 and builds
// the block, as App.Context does, with use counts of its own; it returns
// the candidates, what was placed and the block.
func gatherAndBuild(t *testing.T, dir string, budget int, in assemble.GatherInput, foundation string) string {
	t.Helper()
	in.Dir, in.Today, in.Ahead, in.Budget = dir, date.MustParse("2026-03-10"), 1, budget
	g, err := assemble.Gather(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i := range g.Candidates {
		g.Candidates[i].Uses = i * 3 % 4
	}
	var out strings.Builder
	for _, w := range g.Warnings {
		fmt.Fprintf(&out, "gather warning: %s\n", w)
	}
	for i, c := range g.Candidates {
		fmt.Fprintf(&out, "cand %d %s/%s tier %d rank %d rel %.6f hit %v group %q line %d cut %v by %q covers %v..%v %s head %q body %q\n",
			i, c.Part, c.Level, c.Tier, c.Rank, c.Relevance, c.Hit, c.Group, c.Line, c.Cut, c.SupersededBy,
			g.Covers[i].From, g.Covers[i].To, c.ID, c.Head, c.Body)
	}
	res := assemble.Build(assemble.Input{Title: "# daybook context · 2026-03-10", Foundation: foundation,
		Budget: budget, SummaryShare: 0.6, RecentShare: 0.4, Today: in.Today, Candidates: g.Candidates})
	writeResult(&out, g.Candidates, res)
	fmt.Fprintf(&out, "raw tokens %d\n", g.RawTokens(res.Placed))
	return out.String()
}

// writeResult writes what Build placed, its counts and warnings, and the
// block.
func writeResult(out *strings.Builder, cs []assemble.Candidate, res assemble.Result) {
	for _, p := range res.Placed {
		id := "foundation"
		if p.Index >= 0 {
			id = cs[p.Index].ID
		}
		fmt.Fprintf(out, "placed %s tokens %d utility %.6f truncated %v\n", id, p.Tokens, p.Utility, p.Truncated)
	}
	fmt.Fprintf(out, "tokens %d omitted %d warnings %q\n", res.Tokens, res.Omitted, res.Warnings)
	out.WriteString(res.Markdown)
	out.WriteString("---\n")
}

func readHits(t *testing.T, name string) []daybook.RecallResult {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(goldenDir, name))
	if err != nil {
		t.Fatal(err)
	}
	var hits []daybook.RecallResult
	if err := json.Unmarshal(data, &hits); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return hits
}
