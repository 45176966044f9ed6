package index

import (
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
)

// countingEmbedder is the offline embedder, recording the texts it embeds.
type countingEmbedder struct {
	mu    sync.Mutex
	texts []string
}

func (*countingEmbedder) Name() string { return "offline/hash-v1" }

func (e *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.texts = append(e.texts, texts...)
	e.mu.Unlock()
	return offline.NewEmbedder().Embed(ctx, texts)
}

// take returns the texts embedded since the last take.
func (e *countingEmbedder) take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.texts
	e.texts = nil
	return t
}

const editDay = "2026-03-14"

const dayBefore = `# 2026-03-14 Saturday

Plans for the weekend: fix the fence.

- 09:00 Called the plumber about the leak
- 10:00 [decision] Chose cedar for the fence #garden
- 11:00 Bought nails
- 12:00 Lunch with Ana

A closing paragraph about the day.
`

// dayAfter is dayBefore edited by hand: a paragraph added at the top (every
// line below moves down two), "Bought nails" removed, the lunch changed.
const dayAfter = `# 2026-03-14 Saturday

Weather: rain all day.

Plans for the weekend: fix the fence.

- 09:00 Called the plumber about the leak
- 10:00 [decision] Chose cedar for the fence #garden
- 12:00 Lunch with Ana and Ben

A closing paragraph about the day.
`

func writeFile(t *testing.T, root, day, text string) string {
	t.Helper()
	path := dayfiles.Path(root, date.MustParse(day))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dayfiles.RelPath(date.MustParse(day))
}

func openTest(t *testing.T, root string, emb Embedder) *Index {
	t.Helper()
	x, err := Open(context.Background(), filepath.Join(root, "index"), Options{Embedder: emb})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func syncPath(t *testing.T, x *Index, root, rel string) {
	t.Helper()
	if _, err := x.SyncPaths(context.Background(), []string{rel}, DayFiles{Root: root}); err != nil {
		t.Fatal(err)
	}
}

// docsOf parses the day file as the index does.
func docsOf(t *testing.T, root, day string) []Doc {
	t.Helper()
	d, err := dayfiles.ParseFile(dayfiles.Path(root, date.MustParse(day)), date.MustParse(day))
	if err != nil {
		t.Fatal(err)
	}
	return DayDocs(d)
}

// checkIndexed wants bleve and the vector store to hold exactly docs for
// rel: the same ids, lines and texts, and for each a vector of its text.
func checkIndexed(t *testing.T, x *Index, rel string, docs []Doc) {
	t.Helper()
	req := bleve.NewSearchRequestOptions(pathQuery(rel), 1000, 0, false)
	res, err := x.bl.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	got, err := x.Get(context.Background(), ids)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Doc{}
	for _, d := range docs {
		want[d.ID] = d
	}
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Fatalf("bleve holds %v for %s; want %v", slices.Sorted(maps.Keys(got)), rel, slices.Sorted(maps.Keys(want)))
	}
	x.VectorStore.mu.RLock()
	defer x.VectorStore.mu.RUnlock()
	day, ok := dayfiles.DateOfRel(rel)
	if !ok {
		t.Fatalf("%s is not a day file", rel)
	}
	var vecIDs []string
	for k, g := range x.vec.groups {
		if k.level == date.LevelEntry && k.parent == day.String() {
			for _, s := range g {
				vecIDs = append(vecIDs, x.vec.ids[s])
			}
		}
	}
	if slices.Sort(vecIDs); !slices.Equal(vecIDs, slices.Sorted(maps.Keys(want))) {
		t.Fatalf("the vector store holds %v for %s; want %v", vecIDs, rel, slices.Sorted(maps.Keys(want)))
	}
	buf := make([]float32, x.vec.dim)
	for id, d := range want {
		h := got[id]
		if h.Line != d.Line || h.Text != d.Text || h.Kind != d.Kind || !slices.Equal(h.Tags, d.Tags) {
			t.Errorf("bleve holds %s as line %d %q %q %v; want line %d %q %q %v", id, h.Line, h.Kind, h.Text, h.Tags, d.Line, d.Kind, d.Text, d.Tags)
		}
		v := x.vec.vector(x.vec.testSlot(id), buf)
		if c := dot(v, Normalize(offline.EmbedText(d.Text))); c < 0.99 {
			t.Errorf("the vector of %s (%q) has cosine %.3f with its text", id, d.Text, c)
		}
	}
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// logEnd returns the size of vectors.log.
func logEnd(x *Index) int {
	fi, err := os.Stat(filepath.Join(x.dir, vecLogName))
	if err != nil {
		return 0
	}
	return int(fi.Size())
}

// logOps returns the ids of the records of vectors.log from byte from on.
func logOps(t *testing.T, x *Index, from int) (puts, dels []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(x.dir, vecLogName))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	for off := from; off < len(data); {
		n := int(binary.LittleEndian.Uint32(data[off:]))
		p := data[off+8 : off+8+n]
		r := &reader{b: p[1:]}
		if p[0] == opPut {
			id, _, _, _ := r.record(x.vec)
			puts = append(puts, id)
		} else {
			dels = append(dels, r.string())
		}
		off += 8 + n
	}
	return puts, dels
}

// checkReplay wants the image and the log on disk to load as the store in memory.
func checkReplay(t *testing.T, x *Index) {
	t.Helper()
	v, err := readVectors(x.dir, x.meta.Embedder, x.meta.Dim)
	if err != nil {
		t.Fatal(err)
	}
	x.VectorStore.mu.RLock()
	defer x.VectorStore.mu.RUnlock()
	if !slices.Equal(slices.Sorted(maps.Keys(v.slotMap())), slices.Sorted(maps.Keys(x.vec.slotMap()))) {
		t.Fatalf("the vector files load %d ids, memory has %d", v.len(), x.vec.len())
	}
	for id, s := range x.vec.slotMap() {
		if !slices.Equal(v.code(v.testSlot(id)), x.vec.code(s)) || v.metaOf(v.testSlot(id)) != x.vec.metaOf(s) {
			t.Fatalf("the vector files load %s unlike memory", id)
		}
	}
}

func TestHandEditedDayIndexesTheDifference(t *testing.T) {
	root := t.TempDir()
	emb := &countingEmbedder{}
	x := openTest(t, root, emb)
	// Another day first, so that the index is not empty and writes go to the log.
	other := writeFile(t, root, "2026-03-13", "# 2026-03-13 Friday\n\n- 08:00 Started the week's review\n")
	syncPath(t, x, root, other)
	rel := writeFile(t, root, editDay, dayBefore)
	syncPath(t, x, root, rel)
	checkIndexed(t, x, rel, docsOf(t, root, editDay))
	if got := emb.take(); len(got) != 1+7 { // the probe and the first day, then the six of this one
		t.Fatalf("embedded %d texts to index two days of 1 and 6 documents: %q", len(got), got)
	}
	before := docsOf(t, root, editDay)

	writeFile(t, root, editDay, dayAfter)
	after := docsOf(t, root, editDay)
	mark := logEnd(x)
	syncPath(t, x, root, rel)
	checkIndexed(t, x, rel, after)

	// Embedded: the new paragraph and the changed entry only. The two
	// paragraphs that moved keep their vectors under their new ids.
	got := emb.take()
	slices.Sort(got)
	if len(got) != 2 || !strings.Contains(got[0], "Lunch with Ana and Ben") || !strings.Contains(got[1], "Weather") {
		t.Fatalf("embedded %q after the edit; want the changed entry and the new paragraph", got)
	}
	// Logged: a put for each new id and changed text, a delete for each id gone.
	ids := func(ds []Doc) map[string]string {
		m := map[string]string{}
		for _, d := range ds {
			m[d.ID] = d.Text
		}
		return m
	}
	was, now := ids(before), ids(after)
	var wantPuts, wantDels []string
	for id, text := range now {
		if old, ok := was[id]; !ok || old != text {
			wantPuts = append(wantPuts, id)
		}
	}
	for id := range was {
		if _, ok := now[id]; !ok {
			wantDels = append(wantDels, id)
		}
	}
	puts, dels := logOps(t, x, mark)
	slices.Sort(puts)
	slices.Sort(dels)
	slices.Sort(wantPuts)
	slices.Sort(wantDels)
	if !slices.Equal(puts, wantPuts) || !slices.Equal(dels, wantDels) {
		t.Fatalf("logged puts %v and deletes %v; want %v and %v", puts, dels, wantPuts, wantDels)
	}
	// 4 puts: the new paragraph (at the first paragraph's old line), the
	// first and last paragraphs at their new lines, the changed entry; 3
	// deletes: the last paragraph's old line, the removed and the old lunch.
	if len(wantPuts) != 4 || len(wantDels) != 3 {
		t.Fatalf("the edit should put 4 ids and drop 3: %v, %v", wantPuts, wantDels)
	}
	checkReplay(t, x)

	// What the write path remembers is what bleve reads back.
	x.writeMu.Lock()
	cached, _ := x.held.get(rel)
	x.held.drop(rel)
	fresh, err := x.heldDocs(context.Background(), rel)
	x.writeMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(cached, fresh) {
		t.Fatalf("the documents read back from bleve hash unlike those written:\n%v\n%v", cached, fresh)
	}

	// The file touched but not changed: nothing is embedded or logged.
	mark = logEnd(x)
	later := time.Now().Add(time.Minute)
	os.Chtimes(dayfiles.Path(root, date.MustParse(editDay)), later, later)
	syncPath(t, x, root, rel)
	if got := emb.take(); len(got) != 0 {
		t.Fatalf("a touched day embedded %q", got)
	}
	if puts, dels := logOps(t, x, mark); len(puts)+len(dels) != 0 {
		t.Fatalf("a touched day logged %v and %v", puts, dels)
	}

	// Restart: the same state; an append then costs one embed and one record.
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	x = openTest(t, root, emb)
	emb.take()
	checkIndexed(t, x, rel, after)
	syncPath(t, x, root, rel)
	if got := emb.take(); len(got) != 0 {
		t.Fatalf("an unchanged day embedded %q after a restart", got)
	}
	w, err := daybooktest.Append(root, time.UTC, dayfiles.NewEntry{At: date.MustParse(editDay).At(18, 0, time.UTC), Text: "Fixed the fence"})
	if err != nil {
		t.Fatal(err)
	}
	syncPath(t, x, root, rel)
	if got := emb.take(); len(got) != 1 || got[0] != "Fixed the fence" {
		t.Fatalf("one entry appended after a restart embedded %q", got)
	}
	if puts, dels := logOps(t, x, 0); !slices.Equal(puts, []string{w.ID}) || len(dels) != 0 {
		t.Fatalf("one entry appended after a restart logged %v and %v", puts, dels)
	}
	checkIndexed(t, x, rel, docsOf(t, root, editDay))
	checkReplay(t, x)

	// The file gone: its documents and vectors go.
	os.Remove(dayfiles.Path(root, date.MustParse(editDay)))
	syncPath(t, x, root, rel)
	checkIndexed(t, x, rel, nil)
	checkIndexed(t, x, other, docsOf(t, root, "2026-03-13"))
	checkReplay(t, x)
}

// TestTornLogHealsOnNextWrite drops the last vector record as a crash in
// the middle of its append would: the next write to that day embeds the
// entry whose vector was lost, beside the new one.
func TestTornLogHealsOnNextWrite(t *testing.T) {
	root := t.TempDir()
	emb := &countingEmbedder{}
	x := openTest(t, root, emb)
	rel := writeFile(t, root, editDay, dayBefore)
	syncPath(t, x, root, rel)
	if _, err := daybooktest.Append(root, time.UTC, dayfiles.NewEntry{At: date.MustParse(editDay).At(18, 0, time.UTC), Text: "Fixed the fence"}); err != nil {
		t.Fatal(err)
	}
	syncPath(t, x, root, rel)
	// Copy the index as a crash would leave it: the log's last record torn.
	// bleve's own goroutines may still merge and remove segment files while
	// the copy reads the folder: a copy that lost a file is made again.
	x.writeMu.Lock()
	x.lockWrite()
	var crashed string
	var copyErr error
	for range 50 {
		crashed = filepath.Join(t.TempDir(), "index")
		if copyErr = os.CopyFS(crashed, os.DirFS(x.dir)); copyErr == nil || !errors.Is(copyErr, fs.ErrNotExist) {
			break
		}
	}
	x.unlockWrite()
	x.writeMu.Unlock()
	if copyErr != nil {
		t.Fatal(copyErr) // with the locks let go of: the cleanup's Close takes them
	}
	x.Close()
	logPath := filepath.Join(crashed, vecLogName)
	fi, err := os.Stat(logPath)
	if err != nil || fi.Size() == 0 {
		t.Fatalf("no vector log to tear: %v", err)
	}
	if err := os.Truncate(logPath, fi.Size()-10); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "index")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(crashed, filepath.Join(root, "index")); err != nil {
		t.Fatal(err)
	}
	x = openTest(t, root, emb)
	emb.take()
	if x.vec.len() != 6 {
		t.Fatalf("after a torn log %d vectors load; want the 6 of before the append", x.vec.len())
	}
	if _, err := daybooktest.Append(root, time.UTC, dayfiles.NewEntry{At: date.MustParse(editDay).At(19, 0, time.UTC), Text: "Painted the fence"}); err != nil {
		t.Fatal(err)
	}
	syncPath(t, x, root, rel)
	got := emb.take()
	slices.Sort(got)
	if !slices.Equal(got, []string{"Fixed the fence", "Painted the fence"}) {
		t.Fatalf("the write after a torn log embedded %q; want the lost one and the new one", got)
	}
	checkIndexed(t, x, rel, docsOf(t, root, editDay))
	checkReplay(t, x)
}

// TestVectorLogFoldsWhenItOutgrowsTheImage lowers the floor under which
// the log is left alone: the log then never grows past the image.
func TestVectorLogFoldsWhenItOutgrowsTheImage(t *testing.T) {
	root := t.TempDir()
	x := openTest(t, root, &countingEmbedder{})
	x.compactFloor = 1
	rel := writeFile(t, root, "2026-03-13", dayBefore)
	syncPath(t, x, root, rel)
	image := func() int64 {
		fi, err := os.Stat(filepath.Join(x.dir, vecBinName))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	folds, last := 0, image()
	for i := range 40 {
		if _, err := daybooktest.Append(root, time.UTC, dayfiles.NewEntry{At: date.MustParse("2026-03-14").At(8, i, time.UTC), Text: "Entry number " + strings.Repeat("x", i+1)}); err != nil {
			t.Fatal(err)
		}
		syncPath(t, x, root, dayfiles.RelPath(date.MustParse("2026-03-14")))
		var logSize int64
		if fi, err := os.Stat(filepath.Join(x.dir, vecLogName)); err == nil {
			logSize = fi.Size()
		}
		if im := image(); logSize > im {
			t.Fatalf("after %d appends the log is %d bytes, the image %d", i+1, logSize, im)
		} else if im != last {
			folds++
			last = im
		}
	}
	// The image grows by half or more at each fold (an image's record is
	// smaller than the log's, which names its level and parent): a few
	// folds in 40 appends, never one per append.
	if folds < 2 || folds > 5 {
		t.Fatalf("the log was folded %d times in 40 appends", folds)
	}
	checkReplay(t, x)
	t.Logf("40 appends: %d folds, image %d bytes", folds, last)
}
