package dayfiles_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// BenchmarkParse parses the biggest day file of the 5-year corpus from
// memory: the cost of reading one day, without the disk.
func BenchmarkParse(b *testing.B) {
	root := benchCorpus(b)
	files, err := dayfiles.List(root, date.Range{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	big := files[0]
	for _, f := range files {
		if f.Size > big.Size {
			big = f
		}
	}
	data, err := os.ReadFile(big.Path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var entries int
	for b.Loop() {
		day, err := dayfiles.Parse(big.Path, big.Date, data)
		if err != nil {
			b.Fatal(err)
		}
		entries = len(day.Entries)
	}
	b.ReportMetric(float64(entries), "entries")
}

// BenchmarkAppend appends one entry at a time to a day file, each under the
// file lock and synced, as "daybook remember" does; the file grows through
// the run, so later appends also read a bigger file.
func BenchmarkAppend(b *testing.B) {
	root := b.TempDir()
	at := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	for b.Loop() {
		_, err := dayfiles.Append(root, time.UTC, dayfiles.NewEntry{At: at, Kind: dayfiles.KindFact,
			Text: "The staging database moved to the rack by the window", Tags: []string{"infra"}})
		if err != nil {
			b.Fatal(err)
		}
	}
	fi, err := os.Stat(filepath.Join(root, dayfiles.RelPath(date.Of(at))))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/1024, "KiB-file")
}

// BenchmarkParseChatDay parses a day of a long chat through the memory
// proxy: 300 turns, every other one a 3 KB answer, one entry each.
func BenchmarkParseChatDay(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# 2026-03-11\n\n")
	answer := strings.TrimSpace(strings.Repeat("a word or three ", 200))
	for i := range 300 {
		text := fmt.Sprintf("user: question %d about the garden plan", i)
		if i%2 == 1 {
			text = "llama3.2: " + answer
		}
		fmt.Fprintf(&sb, "- %02d:%02d [chat] %s #chat/c1 #model/llama3-2\n", 9+i/60, i%60, text)
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := dayfiles.Parse("days/2026/03/11.md", date.MustParse("2026-03-11"), data); err != nil {
			b.Fatal(err)
		}
	}
}
