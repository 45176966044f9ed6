package dayfiles_test

import (
	"os"
	"reflect"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// TestFastParseCorpus parses every day file of a generated year both with
// the fast path and with goldmark alone, and requires the same Day.
func TestFastParseCorpus(t *testing.T) {
	root := t.TempDir()
	st, err := gen.Write(root, gen.Options{Years: 1, Seed: 3, End: date.MustParse("2026-11-21")})
	if err != nil {
		t.Fatal(err)
	}
	files, err := dayfiles.List(root, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != st.Days {
		t.Fatalf("listed %d day files, gen wrote %d", len(files), st.Days)
	}
	var whole, part, fastLines, lines, entries int
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := dayfiles.Parse(f.Path, f.Date, data)
		if err != nil {
			t.Fatal(err)
		}
		want, err := dayfiles.ParseGoldmark(f.Path, f.Date, data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the fast path gives a different day", f.Path)
		}
		entries += len(got.Entries)
		n := countLines(data)
		lines += n
		switch rest := dayfiles.FastRest(data); {
		case rest == 0:
			whole++
			fastLines += n
		case rest > 1:
			part++
			fastLines += rest - 1
		}
	}
	if entries != st.Entries {
		t.Errorf("parsed %d entries, gen wrote %d", entries, st.Entries)
	}
	t.Logf("%d day files, %d entries: %d read whole by the fast path, %d in part; %d of %d lines (%.0f%%) without goldmark",
		len(files), entries, whole, part, fastLines, lines, 100*float64(fastLines)/float64(lines))
	if whole < len(files)/2 {
		t.Errorf("the fast path read only %d of %d generated day files whole", whole, len(files))
	}
}

func countLines(data []byte) int {
	n := 0
	for i, c := range data {
		if c == '\n' || i == len(data)-1 {
			n++
		}
	}
	return n
}
