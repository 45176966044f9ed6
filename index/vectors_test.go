package index

import (
	"math/rand/v2"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func TestVectorsPutDeleteRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	v := newVectors(8)
	d := date.MustParse("2026-02-13")
	m := vecMeta{level: date.LevelEntry, parent: "2026-02-13", start: dayNum(d), end: dayNum(d)}
	want := randVec(r, 8)
	for i := range 3000 { // more than two slabs
		v.put(string(rune('a'+i%26))+string(rune(i)), m, randVec(r, 8))
	}
	v.put("target", m, want)
	v.put("target", m, want) // idempotent
	if !v.del(string(rune('a')) + string(rune(0))) {
		t.Fatal("delete of a present id failed")
	}
	hits := v.nearest(Normalize(want), date.LevelEntry, []string{"2026-02-13"}, date.Range{}, 1)
	if len(hits) != 1 || hits[0].ID != "target" || hits[0].Cosine < 0.999 {
		t.Fatalf("nearest: %+v", hits)
	}
	dir := t.TempDir()
	if err := writeVectors(dir, "e", v); err != nil {
		t.Fatal(err)
	}
	var l vecLog
	late := newVectors(8)
	late.put("late", m, want)
	l.put(late, "late")
	l.del("target")
	if _, err := l.flush(dir); err != nil {
		t.Fatal(err)
	}
	got, err := readVectors(dir, "e", 8)
	if err != nil {
		t.Fatal(err)
	}
	if got.len() != v.len() {
		t.Fatalf("read %d vectors, wrote %d (+1 -1)", got.len(), v.len())
	}
	hits = got.nearest(Normalize(want), date.LevelEntry, nil, date.Range{}, 1)
	if len(hits) != 1 || hits[0].ID != "late" {
		t.Fatalf("after the log: %+v", hits)
	}
	if _, err := readVectors(dir, "other", 8); err == nil {
		t.Fatal("vectors of another embedder were read")
	}
}

// BenchmarkNearest is brute force over 2,000 vectors of 768 dimensions.
func BenchmarkNearest(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	v := newVectors(768)
	d := date.MustParse("2026-02-13")
	for i := range 2000 {
		v.put(string(rune(i+1)), vecMeta{level: date.LevelEntry, parent: "2026-02-13", start: dayNum(d), end: dayNum(d)}, randVec(r, 768))
	}
	q := Normalize(randVec(r, 768))
	for b.Loop() {
		v.nearest(q, date.LevelEntry, nil, date.Range{}, 10)
	}
}
