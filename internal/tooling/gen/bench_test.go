package gen

import (
	"io"
	"testing"
)

// BenchmarkGen writes five years of day files, facts and import lines.
func BenchmarkGen(b *testing.B) {
	var st Stats
	for b.Loop() {
		dir := b.TempDir()
		var err error
		if st, err = Write(dir, Options{Years: 5, Seed: 1, End: testEnd, JSONL: io.Discard}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Days), "days")
	b.ReportMetric(float64(st.Lines), "lines")
	b.ReportMetric(float64(st.Bytes)/1e6, "MB")
}
