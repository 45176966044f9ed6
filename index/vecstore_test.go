package index

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
)

// sparseVec returns a vector with n components that are not zero, as the
// offline embedder gives a short text.
func sparseVec(r *rand.Rand, dim, n int) []float32 {
	v := make([]float32, dim)
	for range n {
		v[r.IntN(dim)] += float32(r.NormFloat64())
	}
	return v
}

// TestSparseCodesScoreAsDense stores sparse and dense vectors and wants
// every cosine equal, bit for bit, to the dense integer sum of the same
// codes: a sparse slot scores as its dense codes would.
func TestSparseCodesScoreAsDense(t *testing.T) {
	for _, dim := range []int{256, 768} {
		r := rand.New(rand.NewPCG(3, uint64(dim)))
		v := newVectors(dim)
		sparse := 0
		for i := range 600 {
			vec := randVec(r, dim)
			if i%3 != 0 {
				vec = sparseVec(r, dim, 1+r.IntN(40))
			}
			v.put("v"+strconv.Itoa(i), vecMeta{level: date.LevelEntry, parent: "2026-02-13"}, vec)
			if len(v.stored(v.testSlot("v"+strconv.Itoa(i)))) < dim {
				sparse++
			}
		}
		if sparse < 300 {
			t.Fatalf("dim %d: %d of 600 slots sparse, want the sparse vectors (400) at least mostly", dim, sparse)
		}
		for range 20 {
			q := Normalize(sparseVec(r, dim, 60))
			hits := v.nearest(q, date.LevelEntry, nil, date.Range{}, 600)
			if len(hits) != 600 {
				t.Fatalf("dim %d: %d hits, want 600", dim, len(hits))
			}
			qc := quantizeQuery(q)
			for _, h := range hits {
				s := v.testSlot(h.ID)
				want := float32(dotGo(qc.codes, v.code(s))) * qc.inv * v.scale[s]
				if float32(h.Cosine) != want {
					t.Fatalf("dim %d: %s scores %v, its dense codes %v", dim, h.ID, h.Cosine, want)
				}
			}
		}
	}
}

// TestOfflineVectorsAreSmall wants an entry's offline vector kept in far
// fewer bytes than its 256 dense codes.
func TestOfflineVectorsAreSmall(t *testing.T) {
	v := newVectors(offline.EmbedDim)
	v.put("e", vecMeta{level: date.LevelEntry, parent: "2026-02-13"},
		offline.EmbedText("Chose Argon2 over bcrypt for the password hashes of the new login service"))
	if n := len(v.stored(v.testSlot("e"))); n == 0 || n > 64 {
		t.Fatalf("an entry's vector takes %d bytes, want 1 to 64", n)
	}
}

// TestArenaCompacts replaces and deletes vectors until most of the arena
// is garbage, and wants it copied down with every vector intact.
func TestArenaCompacts(t *testing.T) {
	const dim, n = 256, 3000
	r := rand.New(rand.NewPCG(5, 6))
	v := newVectors(dim)
	want := map[string][]float32{}
	for round := range 12 {
		for i := range n {
			id := "v" + strconv.Itoa(i)
			if round%4 == 3 && i%2 == 0 {
				v.del(id)
				delete(want, id)
				continue
			}
			vec := randVec(r, dim)
			v.put(id, vecMeta{level: date.LevelEntry, parent: "2026-02-13"}, vec)
			want[id] = vec
		}
	}
	used := (len(v.arena)-1)*chunkSize + v.tail
	if v.live*2 < used-4*chunkSize {
		t.Fatalf("arena holds %d bytes for %d live: never compacted", used, v.live)
	}
	if live := len(want) * dim; v.live != live {
		t.Fatalf("live bytes %d, want %d", v.live, live)
	}
	for id, vec := range want {
		q := Normalize(vec)
		got := v.vector(v.testSlot(id), make([]float32, dim))
		var c float64
		for i := range q {
			c += float64(q[i]) * float64(got[i])
		}
		if c < 0.999 {
			t.Fatalf("%s: cosine with what was put %.4f after compaction", id, c)
		}
	}
}

// TestVecLogFailedAppendIsCutBack makes an append to vectors.log fail half
// written (a full disk) and wants the log as it was before, then the
// records written whole by the next flush.
func TestVecLogFailedAppendIsCutBack(t *testing.T) {
	dir := t.TempDir()
	v := newVectors(8)
	r := rand.New(rand.NewPCG(7, 8))
	m := vecMeta{level: date.LevelEntry, parent: "2026-02-13"}
	if err := writeVectors(dir, "e", v); err != nil {
		t.Fatal(err)
	}
	var l vecLog
	v.put("first", m, randVec(r, 8))
	l.put(v, "first")
	before, err := l.flush(dir)
	if err != nil {
		t.Fatal(err)
	}
	v.put("second", m, randVec(r, 8))
	l.put(v, "second")
	l.write = func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	if _, err := l.flush(dir); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("flush on a full disk: %v, want ENOSPC", err)
	}
	fi, err := os.Stat(filepath.Join(dir, vecLogName))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != before {
		t.Fatalf("vectors.log is %d bytes after a failed append, was %d", fi.Size(), before)
	}
	l.write = nil
	if _, err := l.flush(dir); err != nil {
		t.Fatal(err)
	}
	got, err := readVectors(dir, "e", 8)
	if err != nil {
		t.Fatal(err)
	}
	if got.len() != 2 || !slices.Equal(got.code(got.testSlot("second")), v.code(v.testSlot("second"))) {
		t.Fatalf("after the retry the log loads %d vectors", got.len())
	}
}

// writeFormat1 writes v as the vector image of format 1: float32
// components, as daybook wrote it before the compact format.
func writeFormat1(t *testing.T, dir, embedder string, v *vectors) {
	t.Helper()
	var b bytes.Buffer
	h := crc32.New(crcTable)
	w := bufio.NewWriter(io.MultiWriter(&b, h))
	head := []byte(vecMagic1)
	head = appendString(head, embedder)
	head = binary.AppendUvarint(head, uint64(v.dim))
	head = binary.AppendUvarint(head, uint64(v.len()))
	w.Write(head)
	vec := make([]float32, v.dim)
	for s, id := range v.ids {
		if id == "" {
			continue
		}
		m := v.metaOf(int32(s))
		rec := appendString(nil, id)
		rec = appendString(rec, string(m.level))
		rec = appendString(rec, m.parent)
		rec = binary.LittleEndian.AppendUint32(rec, uint32(m.start))
		rec = binary.LittleEndian.AppendUint32(rec, uint32(m.end))
		for _, x := range v.vector(int32(s), vec) {
			rec = binary.LittleEndian.AppendUint32(rec, math.Float32bits(x))
		}
		w.Write(rec)
	}
	w.Flush()
	b.Write(binary.LittleEndian.AppendUint32(nil, h.Sum32()))
	if err := os.WriteFile(filepath.Join(dir, vecBinName), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFormat1VectorsAreMigrated opens an index whose vectors.bin an
// earlier daybook wrote (float32, format 1): it opens without an error or
// a rebuild, logs the migration, rewrites the image in the compact format,
// and holds the same codes.
func TestFormat1VectorsAreMigrated(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, editDay, dayBefore)
	x := openTest(t, root, &countingEmbedder{})
	syncPath(t, x, root, "days/2026/03/14.md")
	x.VectorStore.mu.RLock()
	want := map[string][]int8{}
	for id, s := range x.vec.slotMap() {
		want[id] = slices.Clone(x.vec.code(s))
	}
	old := x.vec
	x.VectorStore.mu.RUnlock()
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(root, "index")
	writeFormat1(t, idx, "offline/hash-v1", old)
	fi, _ := os.Stat(filepath.Join(idx, vecBinName))
	oldSize := fi.Size()

	var logs strings.Builder
	y, err := Open(t.Context(), idx, Options{Embedder: &countingEmbedder{}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatalf("opening an index of format 1 vectors: %v", err)
	}
	defer y.Close()
	if !strings.Contains(logs.String(), "compact format") {
		t.Errorf("no log line says the vectors were migrated:\n%s", logs.String())
	}
	if aside, _ := filepath.Glob(idx + ".broken-*"); len(aside) > 0 {
		t.Fatalf("the index was moved aside: %v", aside)
	}
	data, err := os.ReadFile(filepath.Join(idx, vecBinName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(vecMagic)) || int64(len(data)) >= oldSize/3 {
		t.Fatalf("vectors.bin after the migration: %d bytes (format 1: %d), starts %q", len(data), oldSize, data[:12])
	}
	if len(want) == 0 || y.vec.len() != len(want) {
		t.Fatalf("%d vectors after the migration, want %d", y.vec.len(), len(want))
	}
	for id, codes := range want {
		if got := y.vec.code(y.vec.testSlot(id)); !slices.Equal(got, codes) {
			t.Fatalf("%s: codes changed in the migration", id)
		}
	}
}

// TestFlatScanSplitsAlike wants a flat scan split among goroutines to keep
// the same best k, in the same order, as one pass does, duplicates (equal
// scores) included.
func TestFlatScanSplitsAlike(t *testing.T) {
	const dim, n = 16, parallelScan + 5000
	r := rand.New(rand.NewPCG(9, 10))
	v := newVectors(dim)
	d := date.MustParse("2026-02-13")
	m := vecMeta{level: date.LevelEntry, parent: "2026-02-13", start: dayNum(d), end: dayNum(d)}
	dup := randVec(r, dim)
	for i := range n {
		vec := randVec(r, dim)
		if i%1000 == 0 {
			vec = dup // the same text in many entries
		}
		v.put("v"+strconv.Itoa(i), m, vec)
	}
	for _, q := range [][]float32{Normalize(dup), Normalize(randVec(r, dim))} {
		for _, k := range []int{1, 10, 150} {
			var want []slotScore
			for _, parts := range []int{1, 2, 3, 8} {
				sc := scan{v: v, qc: quantizeQuery(q), level: date.LevelEntry, lo: math.MinInt32, hi: math.MaxInt32, k: k, parts: parts}
				h := sc.all()
				var got []slotScore
				for h.Len() > 0 {
					got = append(got, heap.Pop(h).(slotScore))
				}
				if len(got) != k {
					t.Fatalf("k %d, %d parts: %d hits", k, parts, len(got))
				}
				if parts == 1 {
					want = got
				} else if !slices.Equal(got, want) {
					t.Fatalf("k %d: %d parts keep %v, one pass %v", k, parts, got[:min(5, k)], want[:min(5, k)])
				}
			}
		}
	}
}

// BenchmarkNearestFlat768 is a flat vector search (no parent, no range) over
// DAYBOOK_BENCH_VECTORS random unit vectors of 768 dimensions (default
// 925,000: 20 years of documents with an Ollama embedder, all embedded). It
// reports the p50 of a query and the bytes a vector takes in vectors.bin.
func BenchmarkNearestFlat768(b *testing.B) {
	n := 925_000
	if s := os.Getenv("DAYBOOK_BENCH_VECTORS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	const dim = 768
	r := rand.New(rand.NewPCG(11, 12))
	v := newVectors(dim)
	d := date.MustParse("2026-02-13")
	vec := make([]float32, dim)
	for i := range n {
		for j := range vec {
			vec[j] = float32(r.NormFloat64())
		}
		day := d.AddDays(-i / 130)
		v.put(fmt.Sprintf("%sT09:%02d-%06x", day, i%60, i), vecMeta{level: date.LevelEntry, parent: day.String(), start: dayNum(day), end: dayNum(day)}, vec)
	}
	// Bytes a vector takes on disk: an image of the first 10,000.
	some := newVectors(dim)
	for s := range min(n, 10_000) {
		some.putCodes(v.ids[s], v.metaOf(int32(s)), v.stored(int32(s)), v.scale[s])
	}
	dir := b.TempDir()
	if err := writeVectors(dir, "ollama/test-768", some); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, vecBinName))
	if err != nil {
		b.Fatal(err)
	}
	q := Normalize(randVec(r, dim))
	var ds []time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if hits := v.nearest(q, date.LevelEntry, nil, date.Range{}, 10); len(hits) != 10 {
			b.Fatalf("%d hits", len(hits))
		}
		ds = append(ds, time.Since(t0))
	}
	slices.Sort(ds)
	p50 := float64(ds[len(ds)/2].Microseconds()) / 1000
	b.StopTimer()
	// The same search reading every vector's codes, timed in the same run:
	// what the sign-bit pass saves, as a ratio that holds across machines.
	var exact []time.Duration
	qc := quantizeQuery(q)
	for range 5 {
		t0 := time.Now()
		sc := scan{v: v, qc: qc, level: date.LevelEntry, lo: math.MinInt32, hi: math.MaxInt32, k: 10, exact: true}
		sc.all()
		exact = append(exact, time.Since(t0))
	}
	slices.Sort(exact)
	ep50 := float64(exact[len(exact)/2].Microseconds()) / 1000
	b.ReportMetric(p50, "p50-ms")
	b.ReportMetric(ep50, "exact-p50-ms")
	b.ReportMetric(ep50/p50, "speedup")
	b.ReportMetric(float64(fi.Size())/float64(some.len()), "disk-B/vec")
}

// TestSignScanFindsTheNearest fills a store of a big model past
// parallelScan, plants vectors near a query, and wants the flat search
// (sign bits, then codes) to return exactly the exact scan's best k.
func TestSignScanFindsTheNearest(t *testing.T) {
	const dim, n = 320, parallelScan + 2000
	r := rand.New(rand.NewPCG(13, 14))
	v := newVectors(dim)
	if v.signWords == 0 {
		t.Fatal("no sign bits for a 320-dimension store")
	}
	d := date.MustParse("2026-02-13")
	m := vecMeta{level: date.LevelEntry, parent: "2026-02-13", start: dayNum(d), end: dayNum(d)}
	q := randVec(r, dim)
	for i := range n {
		vec := randVec(r, dim)
		if i%(n/25) == 0 { // 25 planted neighbours, nearer the more noise is left out
			for j := range vec {
				vec[j] = q[j] + vec[j]*float32(i)/float32(n)*2
			}
		}
		v.put("v"+strconv.Itoa(i), m, vec)
	}
	v.del("v7") // a free slot on the way
	qn := Normalize(q)
	for _, k := range []int{1, 10, 20} {
		exact := scan{v: v, qc: quantizeQuery(qn), level: date.LevelEntry, lo: math.MinInt32, hi: math.MaxInt32, k: k}
		h := &hitHeap{}
		for s := range v.ids {
			if v.ids[s] != "" {
				exact.consider(h, int32(s))
			}
		}
		want := make([]VecHit, h.Len())
		for i := len(want) - 1; i >= 0; i-- {
			ss := heap.Pop(h).(slotScore)
			want[i] = VecHit{ID: v.ids[ss.slot], Cosine: float64(ss.score)}
		}
		got := v.nearest(qn, date.LevelEntry, nil, date.Range{}, k)
		if !slices.Equal(got, want) {
			t.Fatalf("k %d: flat search %v, exact %v", k, got, want)
		}
	}
}
