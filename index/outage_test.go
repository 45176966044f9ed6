package index_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	ollamaapi "github.com/ollama/ollama/api"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/ollama"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// clock is a settable clock for the guard and the index.
type clock = daybooktest.Clock

var newClock = daybooktest.NewClock

// ollamaEmbedder is the real Ollama embedder behind its guard, as the App
// builds it, against the fake server at url.
func ollamaEmbedder(t testing.TB, url, model string, c *clock) *ollama.EmbedGuard {
	t.Helper()
	cfg := config.Default().Ollama
	cfg.Enabled, cfg.URL, cfg.EmbedModel = true, url, model
	cfg.Timeout, cfg.EmbedTimeout = 2*time.Second, 2*time.Second
	e, err := ollama.NewEmbedder(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := ollama.GuardEmbedder(e, nil)
	g.SetClock(c.Now, 2*time.Minute)
	return g
}

func openAt(t *testing.T, root string, emb index.Embedder, c *clock) *index.Index {
	t.Helper()
	x, err := index.Open(context.Background(), filepath.Join(root, "index"), index.Options{Embedder: emb, Now: c.Now})
	if err != nil {
		t.Fatalf("opening the index: %v", err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func readMeta(t *testing.T, root string) (name string, dim int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "index", "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Embedder string `json:"embedder"`
		Dim      int    `json:"dim"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m.Embedder, m.Dim
}

func search(t *testing.T, x *index.Index, text string) []index.Hit {
	t.Helper()
	hits, err := x.Search(context.Background(), index.Query{Text: text, Level: date.LevelEntry, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// TestOllamaDownFromTheStart: a new index opens with Ollama down, text
// search works at once, the documents wait for their vectors, and they are
// filled in once Ollama answers and the guard's cooldown is over.
func TestOllamaDownFromTheStart(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt for password hashing", "Lunch with Maria")
	daybooktest.Entries(t, root, "2026-03-02", "Kayak trip on the lake")
	srv := ollamatest.NewDown(t, "nomic-embed-text")
	c := newClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	emb := ollamaEmbedder(t, srv.URL, "nomic-embed-text", c)

	start := time.Now()
	x := openAt(t, root, emb, c)
	st, err := x.Sync(ctx, false, index.DayFiles{Root: root})
	if err != nil {
		t.Fatalf("sync with ollama down: %v", err)
	}
	t.Logf("open + sync of %d docs with ollama down: %s", st.Docs, time.Since(start).Round(time.Millisecond))
	if hits := search(t, x, "kayak"); len(hits) != 1 {
		t.Fatalf("text search during the outage: %+v", hits)
	}
	s, _ := x.Stats()
	if s.Vectors != 0 || s.Pending != 3 || s.Dim != 0 || s.Embedder != "ollama/nomic-embed-text" {
		t.Fatalf("stats during the outage: %+v", s)
	}
	if vec, err := x.EmbedQuery(ctx, "kayak"); vec != nil || err != nil {
		t.Fatalf("EmbedQuery during the outage: %v, %v; want no vector and no error", vec, err)
	}
	if vs := x.VectorStatus(); !vs.Off || !errors.Is(vs.Err, ollama.ErrUnavailable) || !vs.RetryAt.Equal(c.Now().Add(2*time.Minute)) {
		t.Fatalf("vector status: %+v", vs)
	}
	// Unsummarised days are found by the drill through the waiting documents.
	if got := x.Orphans(date.LevelEntry, date.Range{}); len(got) != 2 || got[0] != "2026-03-02" {
		t.Fatalf("orphans during the outage: %v", got)
	}

	srv.Up(t)
	fs, err := x.FillVectors(ctx)
	if !errors.Is(err, index.ErrUnavailable) || fs.Filled != 0 || fs.Left != 3 {
		t.Fatalf("fill inside the cooldown: %+v, %v", fs, err)
	}
	if n := srv.Calls("/api/embed"); n != 0 {
		t.Fatalf("%d embed requests inside the cooldown, want none", n)
	}
	c.Add(3 * time.Minute)
	fs, err = x.FillVectors(ctx)
	if err != nil || fs.Filled != 3 || fs.Left != 0 {
		t.Fatalf("fill once ollama is back: %+v, %v", fs, err)
	}
	s, _ = x.Stats()
	if s.Vectors != 3 || s.Pending != 0 || s.Dim != 8 {
		t.Fatalf("stats after the fill: %+v", s)
	}
	if name, dim := readMeta(t, root); name != "ollama/nomic-embed-text" || dim != 8 {
		t.Fatalf("meta.json: %s %d", name, dim)
	}
	vec, err := x.EmbedQuery(ctx, "Kayak trip on the lake")
	if err != nil || len(vec) != 8 {
		t.Fatalf("EmbedQuery after the outage: %v, %v", vec, err)
	}
	if hits := x.Nearest(index.Query{Level: date.LevelEntry, K: 1}, vec); len(hits) != 1 || hits[0].Cosine < 0.999 {
		t.Fatalf("nearest after the fill: %+v", hits)
	}
	if vs := x.VectorStatus(); vs.Off {
		t.Fatalf("still off after the fill: %+v", vs)
	}
}

// TestOllamaDownAtRestart: the dimension comes from meta.json, the vectors
// made before stay, new entries wait, and a later run (Ollama back) finds
// and fills them.
func TestOllamaDownAtRestart(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt for password hashing", "Lunch with Maria")
	srv := ollamatest.New(t, "nomic-embed-text")
	c := newClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	x := openAt(t, root, ollamaEmbedder(t, srv.URL, "nomic-embed-text", c), c)
	sync(t, x, root)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	srv.Down()
	start := time.Now()
	x = openAt(t, root, ollamaEmbedder(t, srv.URL, "nomic-embed-text", c), c)
	t.Logf("reopen with ollama down: %s", time.Since(start).Round(time.Millisecond))
	s, _ := x.Stats()
	if s.Dim != 8 || s.Vectors != 2 || s.Docs != 2 {
		t.Fatalf("reopened during the outage: %+v", s)
	}
	daybooktest.Entries(t, root, "2026-02-14", "Kayak trip on the lake")
	if _, err := x.SyncPaths(ctx, []string{"days/2026/02/14.md"}, index.DayFiles{Root: root}); err != nil {
		t.Fatalf("indexing a new day during the outage: %v", err)
	}
	if hits := search(t, x, "kayak"); len(hits) != 1 {
		t.Fatalf("the new entry is not searchable: %+v", hits)
	}
	if s, _ = x.Stats(); s.Pending != 1 || s.Vectors != 2 {
		t.Fatalf("after the new day: %+v", s)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}

	srv.Up(t)
	x = openAt(t, root, ollamaEmbedder(t, srv.URL, "nomic-embed-text", c), c)
	if s, _ = x.Stats(); !s.Unscanned || s.Vectors != 2 {
		t.Fatalf("reopened with ollama back: %+v", s)
	}
	fs, err := x.FillVectors(ctx)
	if err != nil || fs.Filled != 1 || fs.Left != 0 {
		t.Fatalf("fill after the restart: %+v, %v", fs, err)
	}
	if s, _ = x.Stats(); s.Vectors != 3 || s.Pending != 0 || s.Unscanned {
		t.Fatalf("after the fill: %+v", s)
	}
	inputs := srv.EmbedInputs()
	if last := inputs[len(inputs)-1]; len(last) != 1 || last[0] != "Kayak trip on the lake" {
		t.Fatalf("the fill embedded %q", last)
	}
}

// TestModelChangeDuringOutage: another embedding model named while Ollama
// is down cannot keep the old vectors (they are of another space): the
// index starts over on the text side, and the new model's dimension is
// learnt from its first answer.
func TestModelChangeDuringOutage(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt for password hashing")
	srv := ollamatest.New(t, "nomic-embed-text", "mxbai-embed-large")
	c := newClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	x := openAt(t, root, ollamaEmbedder(t, srv.URL, "nomic-embed-text", c), c)
	sync(t, x, root)
	x.Close()

	srv.Down()
	x = openAt(t, root, ollamaEmbedder(t, srv.URL, "mxbai-embed-large", c), c)
	sync(t, x, root)
	s, _ := x.Stats()
	if s.Embedder != "ollama/mxbai-embed-large" || s.Vectors != 0 || s.Dim != 0 || s.Pending != 1 {
		t.Fatalf("new model during the outage: %+v", s)
	}
	if hits := search(t, x, "argon2"); len(hits) != 1 {
		t.Fatalf("text search after the model change: %+v", hits)
	}
	srv.SetDim(16)
	srv.Up(t)
	c.Add(3 * time.Minute)
	if fs, err := x.FillVectors(ctx); err != nil || fs.Filled != 1 {
		t.Fatalf("fill with the new model: %+v, %v", fs, err)
	}
	if name, dim := readMeta(t, root); name != "ollama/mxbai-embed-large" || dim != 16 {
		t.Fatalf("meta.json: %s %d", name, dim)
	}
}

// TestOllamaGoesAwayMidSync: a batch whose embedding fails goes to bleve
// and waits; the next one is not sent to Ollama until the retry time.
func TestOllamaGoesAwayMidSync(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt for password hashing")
	srv := ollamatest.New(t, "nomic-embed-text")
	c := newClock(time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
	x := openAt(t, root, ollamaEmbedder(t, srv.URL, "nomic-embed-text", c), c)
	sync(t, x, root)
	srv.OnEmbed(func(n int, _ *ollamaapi.EmbedRequest) ollamatest.EmbedReply {
		return ollamatest.EmbedReply{Status: 500, Error: "runner crashed"}
	})
	before := srv.Calls("/api/embed")
	daybooktest.Entries(t, root, "2026-02-14", "Kayak trip on the lake")
	if _, err := x.SyncPaths(ctx, []string{"days/2026/02/14.md"}, index.DayFiles{Root: root}); err != nil {
		t.Fatal(err)
	}
	daybooktest.Entries(t, root, "2026-02-15", "Swam across the bay")
	if _, err := x.SyncPaths(ctx, []string{"days/2026/02/15.md"}, index.DayFiles{Root: root}); err != nil {
		t.Fatal(err)
	}
	if n := srv.Calls("/api/embed") - before; n != 1 {
		t.Fatalf("%d embed requests for two writes in an outage, want 1", n)
	}
	if hits := search(t, x, "swam"); len(hits) != 1 {
		t.Fatalf("text search: %+v", hits)
	}
	if s, _ := x.Stats(); s.Pending != 2 || s.Vectors != 1 {
		t.Fatalf("stats: %+v", s)
	}
}
