package index_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
)

// word returns a made-up word unique to i, so that a query for it finds one
// entry only; no letters a stemmer strips (s, e, y...).
func word(i int) string {
	const letters = "bcdfghjkmnpqrtvwxz"
	b := []byte("zq")
	for {
		b = append(b, letters[i%len(letters)])
		i /= len(letters)
		if i == 0 {
			return string(append(b, 'k'))
		}
	}
}

func entryText(i int) string { return "Looked into " + word(i) + " for the garden shed" }

// logFrames reads the frames of vectors.log in dir: how many puts and
// deletes, and the size of each frame.
func logFrames(t testing.TB, dir string) (puts, dels int, sizes []int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "vectors.log"))
	if os.IsNotExist(err) {
		return 0, 0, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < len(data); {
		if off+9 > len(data) {
			t.Fatalf("vectors.log: a frame cut short at byte %d of %d", off, len(data))
		}
		n := int(binary.LittleEndian.Uint32(data[off:]))
		switch data[off+8] {
		case 3:
			puts++
		case 2:
			dels++
		default:
			t.Fatalf("vectors.log: op %d at byte %d", data[off+8], off)
		}
		sizes = append(sizes, 8+n)
		off += 8 + n
	}
	return puts, dels, sizes
}

// TestRememberManyOnOneDay remembers 500 entries (100 with -short) on one
// day through the App: the vector log grows by one record per entry, and
// every entry is recallable, before and after a restart.
func TestRememberManyOnOneDay(t *testing.T) {
	n := 500
	if testing.Short() {
		n = 100 // a fifth of the time; the full suite remembers 500
	}
	ctx := context.Background()
	dir := t.TempDir()
	a := apptest.New(t, dir)
	if _, err := a.Index(ctx); err != nil { // open, as the daemon does, so the write hook indexes
		t.Fatal(err)
	}
	idxDir := filepath.Join(dir, app.IndexDir)
	ids := make([]string, n)
	start := time.Now()
	for i := range n {
		at := fmt.Sprintf("2026-03-14 %02d:%02d", 6+i/60, i%60)
		w, err := a.Remember(ctx, daybook.RememberRequest{Text: entryText(i), At: at})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = w.ID
	}
	took := time.Since(start)
	t.Logf("%d remembers on one day: %s, %.0f/s", n, took.Round(time.Millisecond), float64(n)/took.Seconds())

	puts, dels, sizes := logFrames(t, idxDir)
	// The first remember on an empty index writes the vector image, not the log.
	if puts < n-1 || puts > n || dels != 0 {
		t.Fatalf("vectors.log holds %d puts and %d deletes after %d remembers on one day; want %d puts", puts, dels, n, n)
	}
	var bytes int
	for _, s := range sizes {
		bytes += s
		// A record is one vector: its frame, id, level, parent, days and
		// scale, and at most one byte a dimension of codes.
		if s > 8+128+offline.EmbedDim {
			t.Fatalf("a vectors.log record of %d bytes; one vector takes at most %d", s, 8+128+offline.EmbedDim)
		}
	}
	t.Logf("vectors.log: %d records, %d bytes (%d per record)", puts, bytes, bytes/max(puts, 1))

	x, err := a.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := x.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Docs != uint64(n) || st.Vectors != n || st.Pending != 0 {
		t.Fatalf("index holds %d documents, %d vectors, %d pending; want %d, %d, 0", st.Docs, st.Vectors, st.Pending, n, n)
	}
	checkRecallable(t, a, ids)

	// Restart: the log is folded into the image; the same state comes back.
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	a = apptest.New(t, dir)
	x, err = a.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st2, err := x.Stats(); err != nil || st2.Docs != uint64(n) || st2.Vectors != n {
		t.Fatalf("after a restart the index holds %d documents and %d vectors (%v); want %d", st2.Docs, st2.Vectors, err, n)
	}
	checkRecallable(t, a, ids)
	// One more remember after the restart costs one record too.
	if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "One more about " + word(n), At: "2026-03-14 22:00"}); err != nil {
		t.Fatal(err)
	}
	if puts, dels, _ := logFrames(t, idxDir); puts != 1 || dels != 0 {
		t.Fatalf("one remember after a restart logged %d puts and %d deletes; want 1 and 0", puts, dels)
	}
}

// checkRecallable recalls each entry by its unique word (BM25) and by its
// text (vectors, a sample), and wants it first.
func checkRecallable(t *testing.T, a *app.App, ids []string) {
	t.Helper()
	ctx := context.Background()
	for i, id := range ids {
		for _, mode := range []string{"bm25", "vector"} {
			if mode == "vector" && i%10 != 0 {
				continue // vectors of the offline embedder: a sample is enough
			}
			q := word(i) + " garden shed"
			if mode == "vector" {
				q = entryText(i) // the offline embedder hashes words: the whole text is nearest to itself
			}
			resp, err := a.Recall(ctx, daybook.RecallRequest{Query: q, Mode: mode, Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Results) == 0 || resp.Results[0].ID != id {
				t.Fatalf("entry %d (%s) is not recalled first by %s: %+v", i, id, mode, resp.Results)
			}
		}
	}
}

// BenchmarkRememberOnBusyDay remembers one entry on a day that already
// holds 10 or 1,000 entries, with the index open (the daemon's case): the
// cost should not depend on the day's size.
func BenchmarkRememberOnBusyDay(b *testing.B) {
	for _, size := range []int{10, 1000} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			ctx := context.Background()
			dir := b.TempDir()
			day := date.MustParse("2026-03-14")
			es := make([]dayfiles.NewEntry, size)
			for i := range es {
				es[i] = dayfiles.NewEntry{At: day.At(6+i/120, i/2%60, time.UTC), Text: "Earlier note on " + word(i)}
			}
			if _, err := daybooktest.AppendMany(dir, time.UTC, es); err != nil {
				b.Fatal(err)
			}
			a := apptest.New(b, dir)
			if _, err := a.Index(ctx); err != nil {
				b.Fatal(err)
			}
			idxDir := filepath.Join(dir, app.IndexDir)
			logBefore, _ := os.Stat(filepath.Join(idxDir, "vectors.log"))
			i := 0
			for b.Loop() {
				if _, err := a.Remember(ctx, daybook.RememberRequest{Text: "Busy day item " + word(size+i), At: "2026-03-14 23:00"}); err != nil {
					b.Fatal(err)
				}
				i++
			}
			var grew int64
			if fi, err := os.Stat(filepath.Join(idxDir, "vectors.log")); err == nil {
				grew = fi.Size()
				if logBefore != nil {
					grew -= logBefore.Size()
				}
			}
			b.ReportMetric(float64(grew)/float64(i), "log-B/op")
		})
	}
}
