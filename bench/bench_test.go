package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestQuickRun builds daybook, runs the benchmarks in --quick form on one
// year, and checks the table's shape: every row there, every figure a
// number. It asserts no timing. It takes about a minute on two cores.
func TestQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds daybook and runs a 1-year corpus through it")
	}
	exe := filepath.Join(t.TempDir(), "daybook")
	if out, err := exec.Command("go", "build", "-o", exe, "github.com/daybook/daybook/cmd/daybook").CombinedOutput(); err != nil {
		t.Fatalf("building daybook: %v\n%s", err, out)
	}
	cache := t.TempDir()
	now := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	rep, err := Run(context.Background(), Options{Years: []int{1}, Cache: cache, Exe: exe, Quick: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sizes) != 1 {
		t.Fatalf("%d sizes measured, want 1", len(rep.Sizes))
	}
	s := rep.Sizes[0]
	if s.Days < 300 || s.Entries == 0 || s.IndexDocs < s.Entries || s.ScanMatches == 0 {
		t.Errorf("the corpus or index looks wrong: %+v", s)
	}
	for name, l := range map[string]Latency{"in process": s.RecallInProcess, "socket": s.RecallSocket, "cli": s.RecallCLI, "find": s.Find, "grep": s.Grep} {
		if l.N == 0 || l.P50 <= 0 || l.P99 < l.P50 || l.Max < l.P99 {
			t.Errorf("recall %s: %+v", name, l)
		}
	}
	if s.Backfill.PeakRSS <= 0 || s.Reindex.PeakRSS <= 0 || s.DaemonIdleRSS <= 0 {
		t.Errorf("RSS not measured: backfill %d, reindex %d, daemon %d", s.Backfill.PeakRSS, s.Reindex.PeakRSS, s.DaemonIdleRSS)
	}

	var buf bytes.Buffer
	if err := WriteTable(&buf, rep); err != nil {
		t.Fatal(err)
	}
	table := buf.String()
	number := regexp.MustCompile(`\d+(\.\d+)?`)
	for _, r := range rows {
		i := strings.Index(table, r.name)
		if i < 0 {
			t.Errorf("row %q missing from\n%s", r.name, table)
			continue
		}
		line, _, _ := strings.Cut(table[i+len(r.name):], "\n")
		if !number.MatchString(strings.TrimPrefix(line, r.target)) {
			t.Errorf("row %q has no figure: %q", r.name, line)
		}
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Fatal(err)
	}

	// A second run reuses the cached corpus.
	rep2, err := Run(context.Background(), Options{Years: []int{1}, Cache: cache, Exe: exe, Quick: true, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !rep2.Sizes[0].Reused || rep2.Sizes[0].Lines != s.Lines {
		t.Errorf("second run: reused %v, %d lines; want the cached corpus of %d lines", rep2.Sizes[0].Reused, rep2.Sizes[0].Lines, s.Lines)
	}
}

func TestSummarise(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := summarise(ds)
	want := Latency{N: 100, P50: 50, P99: 99, Max: 100}
	if got != want {
		t.Errorf("summarise(1..100 ms) = %+v, want %+v", got, want)
	}
	if got := summarise(nil); got != (Latency{}) {
		t.Errorf("summarise(nil) = %+v, want zero", got)
	}
}

func TestRunRefusesBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Years: nil, Exe: "daybook"},
		{Years: []int{0}, Exe: "daybook"},
		{Years: []int{51}, Exe: "daybook"},
		{Years: []int{1}},
	} {
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("Run(%+v) = nil error", o)
		}
	}
}
