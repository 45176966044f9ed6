package importer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// tenYearsOfNotes writes 3,650 Obsidian daily notes of about 8 KiB each
// (30 MB) under dir, and returns their total size.
func tenYearsOfNotes(tb testing.TB, dir string) int64 {
	tb.Helper()
	words := strings.Fields("kayak meeting Lisbon deploy invoice garden tomato Priya octopus report dentist budget " +
		"river run book chapter release Argon2 cache latency coffee review train museum piano recipe")
	var total int64
	day := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 3650; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nmood: %d\n---\n# %s\n\n", i%5, day.Format("Monday 2 January 2006"))
		for s := 0; b.Len() < 8200; s++ {
			fmt.Fprintf(&b, "## Part %d\n", s)
			for l := 0; l < 6; l++ {
				w := words[(i*7+s*3+l)%len(words)]
				fmt.Fprintf(&b, "- [ ] %s with [[%s]] about the %s #%s\n", w, words[(i+l)%len(words)], words[(s+l)%len(words)], w)
			}
			fmt.Fprintf(&b, "\nA paragraph on day %d, part %d: the %s went better than the %s, and the notes say why at some length.\n\n",
				i, s, words[(i+s)%len(words)], words[(i*3+s)%len(words)])
		}
		p := filepath.Join(dir, day.Format("2006-01-02")+".md")
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += int64(b.Len())
		day = day.AddDate(0, 0, 1)
	}
	return total
}

// BenchmarkImportTenYearsOfNotes imports 10 years of daily notes (3,650
// files, 30 MB) into an empty data dir, reading, encoding and writing them
// as "daybook import --from obsidian" does without a daemon. The
// baseline, copy-ms, is copying the same files one by one with an fsync
// each (what a careful cp costs, and the floor under an import that makes
// each day durable) in the same run; x-copy is the import's time over it.
func BenchmarkImportTenYearsOfNotes(b *testing.B) {
	src := b.TempDir()
	size := tenYearsOfNotes(b, src)
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		b.Fatal(err)
	}
	obsidian, _ := importer.Lookup("obsidian")
	b.SetBytes(size)
	var read time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		read += copyWithFsync(b, src, b.TempDir())
		a := app.New(b.TempDir(), cfg, nil)
		b.StartTimer()

		res, err := obsidian.Read(src, importer.Options{})
		if err != nil || len(res.Entries) < 3650 || len(res.Skipped) > 0 {
			b.Fatalf("read %d entries from 3,650 notes: %v %v", len(res.Entries), err, res.Skipped)
		}
		var lines bytes.Buffer
		enc := json.NewEncoder(&lines)
		for _, e := range res.Entries {
			enc.Encode(daybook.ImportLine{At: e.AtString(), Text: e.Text})
		}
		resp, err := a.Import(context.Background(), &lines, daybook.ImportOptions{})
		if err != nil || resp.Added != len(res.Entries) {
			b.Fatalf("imported %d: %v %v", resp.Added, err, resp.Rejected)
		}

		b.StopTimer()
		a.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(read.Milliseconds())/float64(b.N), "copy-ms")
	b.ReportMetric(float64(b.Elapsed())/float64(read), "x-copy")
}

// copyWithFsync copies every file of src into dst, syncing each, and
// returns how long that took.
func copyWithFsync(tb testing.TB, src, dst string) time.Duration {
	start := time.Now()
	names, _ := filepath.Glob(filepath.Join(src, "*.md"))
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			tb.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dst, filepath.Base(n)))
		if err == nil {
			_, err = f.Write(data)
		}
		if err == nil {
			err = f.Sync()
		}
		if err == nil {
			err = f.Close()
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	return time.Since(start)
}
