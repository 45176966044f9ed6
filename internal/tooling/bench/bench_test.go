package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
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
	if out, err := exec.Command("go", "build", "-o", filepath.Dir(exe)+string(filepath.Separator), // the front and daybook-core beside it
		"github.com/daybook/daybook/cmd/daybook", "github.com/daybook/daybook/cmd/daybook-core").CombinedOutput(); err != nil {
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
	for name, l := range map[string]Latency{"in process": s.RecallInProcess, "socket": s.RecallSocket, "cli": s.RecallCLI, "find": s.Find, "grep": s.Grep, "hello-world": s.Hello, "start, daemon up": s.StartDaemonUp, "front start": s.FrontStart} {
		if l.N == 0 || l.P50 <= 0 || l.P99 < l.P50 || l.Max < l.P99 {
			t.Errorf("recall %s: %+v", name, l)
		}
	}
	if s.Backfill.PeakRSS <= 0 || s.Reindex.PeakRSS <= 0 || s.DaemonIdleRSS <= 0 || s.DaemonRecalledRSS <= 0 {
		t.Errorf("RSS not measured: backfill %d, reindex %d, daemon %d, after recalls %d", s.Backfill.PeakRSS, s.Reindex.PeakRSS, s.DaemonIdleRSS, s.DaemonRecalledRSS)
	}
	if runtime.GOOS == "linux" && (s.StartFaults <= 0 || s.HelloFaults <= 0) {
		t.Errorf("start's page faults not measured: %d, %d", s.StartFaults, s.HelloFaults)
	}
	if s.StartOverHello <= 0 {
		t.Errorf("no ratio of daybook's start to a Go hello-world's: %v (notes %q)", s.StartOverHello, rep.Notes)
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
		if strings.TrimSpace(line) == "not installed" && s.Ripgrep.N == 0 {
			continue // ripgrep's row on a machine without it: the notes say so
		}
		if !number.MatchString(strings.TrimPrefix(line, r.target)) {
			t.Errorf("row %q has no figure: %q", r.name, line)
		}
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Fatal(err)
	}

	if work, _ := filepath.Glob(filepath.Join(cache, "work-y1-*")); len(work) > 0 {
		t.Errorf("the work dir was left behind: %v", work)
	}

	// A second run reuses the cached corpus, and keeps its work dir when
	// asked to, saying where.
	rep2, err := Run(context.Background(), Options{Years: []int{1}, Cache: cache, Exe: exe, Quick: true, Now: now, Keep: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep2.Sizes[0].Reused || rep2.Sizes[0].Lines != s.Lines {
		t.Errorf("second run: reused %v, %d lines; want the cached corpus of %d lines", rep2.Sizes[0].Reused, rep2.Sizes[0].Lines, s.Lines)
	}
	work, _ := filepath.Glob(filepath.Join(cache, "work-y1-*"))
	if len(work) != 1 || !slices.ContainsFunc(rep2.Notes, func(n string) bool { return strings.Contains(n, "the work dir is kept at "+work[0]) }) {
		t.Errorf("Keep: work dirs %v, notes %q", work, rep2.Notes)
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

// TestGrowthRowsCompareWithTheSizeBefore: the targets compare 20 years with
// 5, so each size is divided by the one before it.
func TestGrowthRowsCompareWithTheSizeBefore(t *testing.T) {
	size := func(years, days int, p50, backfill float64) Size {
		return Size{Years: years, Days: days, RecallInProcess: Latency{N: 1, P50: p50}, Backfill: Proc{Seconds: backfill}}
	}
	rep := Report{Sizes: []Size{size(1, 350, 1.0, 1.0), size(5, 1750, 2.0, 5.5), size(20, 7000, 3.0, 24.2)}}
	var buf bytes.Buffer
	if err := WriteTable(&buf, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`recall p50 ÷ size before +< 2× 5y→20y +- +2\.00× +1\.50×\n`),
		regexp.MustCompile(`backfill per day ÷ size before +≈ 1× +- +1\.10× +1\.10×\n`),
	} {
		if !want.MatchString(buf.String()) {
			t.Errorf("no line matching %s in\n%s", want, buf.String())
		}
	}
}
