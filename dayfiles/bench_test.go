package dayfiles_test

import (
	"os"
	"sync"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
)

var (
	corpusOnce sync.Once
	corpusDir  string
	corpusErr  error
)

// benchCorpus returns the data dir of a 5-year generated corpus (about 1,700
// day files, 340,000 lines, 21 MB), written once per test binary run, or the
// one named by $DAYBOOK_BENCH_CORPUS.
func benchCorpus(b *testing.B) string {
	corpusOnce.Do(func() {
		if dir := os.Getenv("DAYBOOK_BENCH_CORPUS"); dir != "" {
			corpusDir = dir
			return
		}
		corpusDir, corpusErr = os.MkdirTemp("", "daybook-bench-")
		if corpusErr == nil {
			_, corpusErr = gen.Write(corpusDir, gen.Options{Years: 5, Seed: 1, End: date.MustParse("2026-11-21")})
		}
	})
	if corpusErr != nil {
		b.Fatal(corpusErr)
	}
	return corpusDir
}

// BenchmarkScan runs find's scan over the 5-year corpus: a rare word (two
// matching lines), a common word (13,000 lines), both case-insensitive, a
// case-sensitive word, a regex, and a common word with a limit of 20.
func BenchmarkScan(b *testing.B) {
	root := benchCorpus(b)
	files, err := dayfiles.List(root, date.Range{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, f := range files {
		size += f.Size
	}
	for _, bc := range []struct {
		name, pattern string
		regex         bool
		limit         int
	}{
		{"rare", "leopoldine", false, 0},
		{"common", "deploy", false, 0},
		{"case-sensitive", "Granite", false, 0},
		{"regex", `rack [A-Z]\d\d`, true, 0},
		{"common-limit-20", "deploy", false, 20},
	} {
		b.Run(bc.name, func(b *testing.B) {
			m, err := dayfiles.NewMatcher(bc.pattern, bc.regex)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(size)
			var n int
			for b.Loop() {
				got, _, err := dayfiles.Scan(files, m, bc.limit)
				if err != nil {
					b.Fatal(err)
				}
				n = len(got)
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}
