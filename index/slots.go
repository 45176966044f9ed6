package index

import (
	"hash/maphash"
	"unsafe"
)

// slotIndex finds a vector's slot by its id: an open-addressing table of
// slot numbers over the store's ids, 4 to 8 bytes a vector where a
// map[string]int32 took ~40 (a string header for the key beside the one
// in ids, and the map's own overhead): 9 MiB of a 5-year daemon's heap.
type slotIndex struct {
	t    []int32 // slot+1; 0 is empty, tomb a deleted entry
	n    int     // ids in the table
	used int     // entries that are not empty: ids and tombs
}

const tomb = -1

var slotSeed = maphash.MakeSeed()

// get returns the slot of id.
func (x *slotIndex) get(ids []string, id string) (int32, bool) {
	if len(x.t) == 0 {
		return 0, false
	}
	mask := uint64(len(x.t) - 1)
	for i := maphash.String(slotSeed, id) & mask; ; i = (i + 1) & mask {
		switch e := x.t[i]; {
		case e == 0:
			return 0, false
		case e > 0 && ids[e-1] == id:
			return e - 1, true
		}
	}
}

// put adds id, which is not in the table, at slot s; ids[s] is id.
func (x *slotIndex) put(ids []string, id string, s int32) {
	if (x.used+1)*4 > len(x.t)*3 {
		x.grow(ids)
	}
	mask := uint64(len(x.t) - 1)
	i := maphash.String(slotSeed, id) & mask
	for x.t[i] > 0 {
		i = (i + 1) & mask
	}
	if x.t[i] == 0 {
		x.used++
	}
	x.t[i] = s + 1
	x.n++
}

// del removes id; it reports whether it was there.
func (x *slotIndex) del(ids []string, id string) bool {
	if len(x.t) == 0 {
		return false
	}
	mask := uint64(len(x.t) - 1)
	for i := maphash.String(slotSeed, id) & mask; ; i = (i + 1) & mask {
		switch e := x.t[i]; {
		case e == 0:
			return false
		case e > 0 && ids[e-1] == id:
			x.t[i] = tomb
			x.n--
			return true
		}
	}
}

// grow makes room: a table twice the size of what it holds, without tombs.
func (x *slotIndex) grow(ids []string) {
	size := 16
	for size < (x.n+1)*2 {
		size *= 2
	}
	old := x.t
	x.t, x.n, x.used = make([]int32, size), 0, 0
	for _, e := range old {
		if e > 0 {
			x.put(ids, ids[e-1], e-1)
		}
	}
}

// idArena holds the ids read from a vector image in shared chunks: one
// allocation of 64 KiB for some two thousand ids instead of one each.
type idArena struct{ chunk []byte }

const idChunk = 64 << 10

// string returns b as a string in the arena. The bytes are never written
// again once a string holds them (chunks only grow at their end), which is
// what unsafe.String asks.
func (a *idArena) string(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > idChunk/16 {
		return string(b)
	}
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = make([]byte, 0, idChunk)
	}
	off := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return unsafe.String(&a.chunk[off], len(b))
}
