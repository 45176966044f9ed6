package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

// TestMappedImage writes a store of more than one chunk of codes (dense
// 768-dimension vectors, sparse ones, zero ones, holes of deleted ones),
// reads it back with its codes mapped, changes it (puts go to the heap,
// one replaces a mapped vector, one is deleted) and round-trips it again:
// every vector, its sign bits and a flat search are as in the store
// written.
func TestMappedImage(t *testing.T) {
	const dim = 768
	r := rand.New(rand.NewPCG(7, 7))
	v := newVectors(dim)
	day := date.MustParse("2026-03-14")
	m := vecMeta{level: date.LevelEntry, parent: day.String(), start: dayNum(day), end: dayNum(day)}
	vec := make([]float32, dim)
	for i := range 2400 {
		clear(vec)
		switch {
		case i%7 == 3: // sparse
			for range 20 {
				vec[r.IntN(dim)] = float32(r.NormFloat64())
			}
		case i%11 == 5: // zero
		default:
			for j := range vec {
				vec[j] = float32(r.NormFloat64())
			}
		}
		v.put(fmt.Sprintf("v%04d", i), m, vec)
	}
	for i := 0; i < 2400; i += 13 {
		v.del(fmt.Sprintf("v%04d", i))
	}
	dir := t.TempDir()
	same := func(what string, a, b *vectors) {
		t.Helper()
		if a.len() != b.len() {
			t.Fatalf("%s: %d vectors; want %d", what, b.len(), a.len())
		}
		for s, id := range a.ids {
			if id == "" {
				continue
			}
			bs, ok := b.slotOf(id)
			if !ok {
				t.Fatalf("%s: %s is missing", what, id)
			}
			if !slices.Equal(a.code(int32(s)), b.code(bs)) || a.scale[s] != b.scale[bs] || a.metaOf(int32(s)) != b.metaOf(bs) ||
				!slices.Equal(a.signOf(int32(s)), b.signOf(bs)) {
				t.Fatalf("%s: %s reads back otherwise", what, id)
			}
		}
		q := Normalize(randVec(r, dim))
		if ha, hb := a.nearest(q, date.LevelEntry, nil, date.Range{}, 10), b.nearest(q, date.LevelEntry, nil, date.Range{}, 10); !slices.Equal(ha, hb) {
			t.Fatalf("%s: nearest %v; want %v", what, hb, ha)
		}
	}
	if err := writeVectors(dir, "e", v); err != nil {
		t.Fatal(err)
	}
	got, err := readVectors(dir, "e", dim)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.arena) < 2 {
		t.Fatalf("the codes fill %d chunks; the test wants more than one", len(got.arena))
	}
	same("read back", v, got)

	for _, w := range []*vectors{v, got} {
		for j := range vec {
			vec[j] = float32(j%5) - 2
		}
		w.put("new", m, vec)
		w.put("v0001", m, vec) // was mapped
		w.del("v0002")
	}
	same("changed", v, got)
	if err := writeVectors(dir, "e", got); err != nil {
		t.Fatal(err)
	}
	again, err := readVectors(dir, "e", dim)
	if err != nil {
		t.Fatal(err)
	}
	same("read back again", v, again)
}
