package index_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
)

func open(t *testing.T, root string, emb index.Embedder) *index.Index {
	t.Helper()
	x, err := index.Open(context.Background(), filepath.Join(root, "index"), index.Options{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func sync(t *testing.T, x *index.Index, root string) index.SyncStats {
	t.Helper()
	st, err := x.Sync(context.Background(), false, index.DayFiles{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSyncSearchAndUpdate(t *testing.T) {
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt for password hashing #auth", "Lunch with Maria")
	daybooktest.Entries(t, root, "2026-03-02", "Deployed the billing service", "Password reset emails are broken")
	x := open(t, root, offline.NewEmbedder())
	st := sync(t, x, root)
	if st.Changed != 2 || st.Docs != 4 {
		t.Fatalf("first sync: %+v, want 2 files and 4 docs", st)
	}
	ctx := context.Background()
	hits, err := x.Search(ctx, index.Query{Text: "passwords", Level: date.LevelEntry, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 {
		t.Fatalf("got %d hits for passwords, want 2: %+v", len(hits), hits)
	}
	for _, h := range hits {
		if len(h.Spans) == 0 || !strings.EqualFold(h.Text[h.Spans[0].Start:h.Spans[0].End], "password") {
			t.Errorf("hit %s: spans %v do not mark 'password' in %q", h.ID, h.Spans, h.Text)
		}
		if h.Path == "" || h.Line < 3 {
			t.Errorf("hit %s: path %q line %d", h.ID, h.Path, h.Line)
		}
	}
	// Restricted to a parent day.
	hits, err = x.Search(ctx, index.Query{Text: "password", Level: date.LevelEntry, Parents: []string{"2026-03-02"}, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Period != "2026-03-02" {
		t.Fatalf("inside 2026-03-02: %+v", hits)
	}
	// Restricted to a range.
	hits, err = x.Search(ctx, index.Query{Text: "password", Level: date.LevelEntry,
		Range: date.Range{From: date.MustParse("2026-02-01"), To: date.MustParse("2026-02-28")}, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Period != "2026-02-13" {
		t.Fatalf("inside February: %+v", hits)
	}
	q, _ := x.EmbedQuery(ctx, "argon2 hashing")
	vh := x.Nearest(index.Query{Level: date.LevelEntry, K: 1}, q)
	if len(vh) != 1 || !strings.HasPrefix(vh[0].ID, "2026-02-13T09:00") {
		t.Fatalf("nearest to argon2 hashing: %+v", vh)
	}

	// Unchanged files are not read again.
	if st := sync(t, x, root); st.Changed != 0 {
		t.Fatalf("second sync changed %d files", st.Changed)
	}
	// A hand edit removes an entry: its id leaves bleve and the vectors.
	p := dayfiles.Path(root, date.MustParse("2026-03-02"))
	data, _ := os.ReadFile(p)
	edited := strings.Replace(string(data), "- 09:01 Password reset emails are broken\n", "", 1)
	if edited == string(data) {
		t.Fatal("edit did not apply")
	}
	os.WriteFile(p, []byte(edited), 0o644)
	future := time.Now().Add(time.Second)
	os.Chtimes(p, future, future)
	if st := sync(t, x, root); st.Changed != 1 {
		t.Fatalf("sync after edit: %+v", st)
	}
	hits, _ = x.Search(ctx, index.Query{Text: "password", Level: date.LevelEntry, K: 10})
	if len(hits) != 1 {
		t.Fatalf("after edit: %d hits, want 1", len(hits))
	}
	stats, _ := x.Stats()
	if stats.Docs != 3 || stats.Vectors != 3 {
		t.Fatalf("after edit: %+v, want 3 docs and 3 vectors", stats)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	// Reopened: vectors come back from the image and log.
	x = open(t, root, offline.NewEmbedder())
	defer x.Close()
	stats, _ = x.Stats()
	if stats.Docs != 3 || stats.Vectors != 3 || stats.Sources != 2 {
		t.Fatalf("reopened: %+v", stats)
	}
}

func TestCorruptIndexIsMovedAsideAndRebuilt(t *testing.T) {
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt")
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root)
	x.Close()
	// Flip bytes in the vector image: its checksum no longer holds.
	p := filepath.Join(root, "index", "vectors.bin")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	os.WriteFile(p, data, 0o644)

	x = open(t, root, offline.NewEmbedder())
	defer x.Close()
	aside, _ := filepath.Glob(filepath.Join(root, "index.broken-*"))
	if len(aside) != 1 {
		t.Fatalf("broken index not moved aside: %v", aside)
	}
	if st, _ := x.Stats(); st.Docs != 0 {
		t.Fatalf("the new index is not empty: %+v", st)
	}
	if st := sync(t, x, root); st.Changed != 1 || st.Docs != 1 {
		t.Fatalf("rebuild: %+v", st)
	}
	hits, err := x.Search(context.Background(), index.Query{Text: "argon2", Level: date.LevelEntry, K: 5})
	if err != nil || len(hits) != 1 {
		t.Fatalf("after rebuild: %v %v", hits, err)
	}
}

func TestOlderFormatIsRebuilt(t *testing.T) {
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt")
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root)
	x.Close()
	os.WriteFile(filepath.Join(root, "index", "meta.json"), []byte(`{"format": 0, "embedder": "offline/hash-v1", "dim": 256}`), 0o644)
	x = open(t, root, offline.NewEmbedder())
	defer x.Close()
	if aside, _ := filepath.Glob(filepath.Join(root, "index.broken-*")); len(aside) != 1 {
		t.Fatalf("old-format index not moved aside: %v", aside)
	}
}

// otherEmbedder is a second, real embedder: letter counts in 26 dimensions.
type otherEmbedder struct{}

func (otherEmbedder) Name() string { return "test/letters-v1" }
func (otherEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, s := range texts {
		v := make([]float32, 26)
		for _, r := range strings.ToLower(s) {
			if r >= 'a' && r <= 'z' {
				v[r-'a']++
			}
		}
		out[i] = v
	}
	return out, nil
}

func TestEmbedderChangeReembeds(t *testing.T) {
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt", "Lunch with Maria")
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root)
	x.Close()

	x = open(t, root, otherEmbedder{})
	defer x.Close()
	st, _ := x.Stats()
	if st.Vectors != 0 || st.Embedder != "test/letters-v1" || st.Dim != 26 {
		t.Fatalf("after the change, before sync: %+v; want no vectors of the old model", st)
	}
	if s := sync(t, x, root); s.Changed != 1 || s.Docs != 2 {
		t.Fatalf("sync after the change: %+v, want every file again", s)
	}
	st, _ = x.Stats()
	if st.Vectors != 2 || st.Docs != 2 {
		t.Fatalf("after re-embedding: %+v", st)
	}
	q, _ := x.EmbedQuery(context.Background(), "lunch with maria")
	if vh := x.Nearest(index.Query{Level: date.LevelEntry, K: 1}, q); len(vh) != 1 || vh[0].Cosine < 0.99 {
		t.Fatalf("nearest with the new embedder: %+v", vh)
	}
}

func TestBusy(t *testing.T) {
	root := t.TempDir()
	x := open(t, root, offline.NewEmbedder())
	defer x.Close()
	start := time.Now()
	_, err := index.Open(context.Background(), filepath.Join(root, "index"), index.Options{Embedder: offline.NewEmbedder(), LockTimeout: 50 * time.Millisecond})
	if !errors.Is(err, index.ErrBusy) {
		t.Fatalf("second open: %v, want ErrBusy", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("second open took %s", d)
	}
	if aside, _ := filepath.Glob(filepath.Join(root, "index.broken-*")); len(aside) != 0 {
		t.Fatalf("a busy index was moved aside: %v", aside)
	}
}

func TestVectorLogTornTail(t *testing.T) {
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt")
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root) // bulk: image only
	daybooktest.Entries(t, root, "2026-02-14", "Kayak trip planned")
	sync(t, x, root) // logged
	// Simulate a crash: no Close, a torn record appended to the log.
	logPath := filepath.Join(root, "index", "vectors.log")
	f, err := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("no vector log after an incremental sync: %v", err)
	}
	f.Write([]byte{200, 0, 0, 0, 1, 2, 3})
	f.Close()
	x.Close()
	// Close folded the log into the image; append the torn tail again.
	os.WriteFile(logPath, []byte{200, 0, 0, 0, 1, 2, 3}, 0o600)
	x = open(t, root, offline.NewEmbedder())
	defer x.Close()
	if st, _ := x.Stats(); st.Vectors != 2 {
		t.Fatalf("after a torn log: %+v", st)
	}
	if aside, _ := filepath.Glob(filepath.Join(root, "index.broken-*")); len(aside) != 0 {
		t.Fatalf("a torn log tail moved the index aside: %v", aside)
	}
}

func TestBulkBuildSurvivesClose(t *testing.T) {
	root := t.TempDir()
	for i := 1; i <= 9; i++ {
		daybooktest.Entries(t, root, "2026-02-0"+string(rune('0'+i)), "Entry about kayaks", "Another about taxes")
	}
	x := open(t, root, offline.NewEmbedder())
	if st := sync(t, x, root); st.Changed != 9 {
		t.Fatalf("bulk build: %+v", st)
	}
	x.Close()
	x = open(t, root, offline.NewEmbedder())
	defer x.Close()
	if st := sync(t, x, root); st.Changed != 0 {
		t.Fatalf("after close and reopen, %d files indexed again: the manifest was lost", st.Changed)
	}
	if st, _ := x.Stats(); st.Docs != 18 || st.Vectors != 18 {
		t.Fatalf("after reopen: %+v", st)
	}
}
