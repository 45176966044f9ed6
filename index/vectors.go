package index

import (
	"math"
	"strings"
	"unsafe"

	"github.com/daybook/daybook/dayfiles/date"
)

// vecMeta is what the vector store keeps beside a vector for filtering.
type vecMeta struct {
	level  date.Level
	parent string // the parent period, "" for a year
	start  int32  // days since 1970-01-01
	end    int32
}

type groupKey struct {
	level  date.Level
	parent string
}

// slotMeta is what a slot keeps of its vecMeta: the level and parent are
// its group's (groupKeys), so that 231,000 vectors do not hold 231,000
// copies of a parent string. 12 bytes instead of 40 and a string each.
type slotMeta struct {
	group      int32 // index into groupKeys; -1 for a free slot
	start, end int32
}

// vectors is a flat in-memory vector store: brute-force cosine over
// normalised vectors, grouped by level and parent period so that a drill
// step scans only the children of one period. Each vector is kept as int8
// codes with one float32 scale (component = code × scale): a quarter of the
// memory of float32; at 256 dimensions a cosine moves by about 0.001.
//
// The codes of all slots live in one arena of fixed-size chunks, dense (dim
// bytes) or, when that is smaller, sparse: (index, code) pairs of the codes
// that are not zero. The offline embedder hashes a short entry's few dozen
// words and word pairs into 256 buckets, so most of its vectors are sparse:
// about 45 bytes instead of 256, and a dot product of as many steps. Both
// forms give the same integer sums, so a cosine is the same either way.
type vectors struct {
	dim    int
	ids    []string // by slot; "" is a free slot
	meta   []slotMeta
	ref    []uint32  // by slot: where its codes start in the arena
	size   []uint16  // by slot: how many bytes; dim is dense, less is sparse
	scale  []float32 // by slot
	arena  [][]int8  // chunkSize bytes each: growing never copies what is there
	tail   int       // bytes used of the last chunk
	live   int       // bytes of the arena that slots point at
	slot   slotIndex // id → slot, over ids
	groups map[groupKey][]int32
	free   []int32
	tmp    []float32 // put's scratch; put runs under the index's write lock
	enc    []int8    // put's scratch

	// Sign bits of each slot's codes, signWords words a slot in slabs of
	// slabSize slots, for models of more than 256 dimensions: a flat scan
	// of a large store ranks by them first (see signScan).
	signWords int
	signs     [][]uint64
	legacy    bool   // read from files of format 1: write them again
	mapped    []byte // the image whose codes the arena maps (vecmap.go); nil when none

	groupKeys []groupKey         // by group index, as slotMeta holds it
	groupIdx  map[groupKey]int32 // the inverse

	// idChunk holds the bytes of the ids put since the store was read, the
	// ids' strings pointing into it: appended to, never rewritten, so that
	// a chat's new vectors add no small object each to the heap (keepID).
	idChunk []byte

	// shape counts the changes that can change the orphans (orphans.go): a
	// group made or emptied, a summary's vector put new or deleted. An
	// entry put into a group that has entries already (a remembered turn
	// on today's day) changes none.
	shape uint64
}

// chunkBits sizes the arena's chunks: 1 MiB.
const (
	chunkBits = 20
	chunkSize = 1 << chunkBits
)

// maxDim is the largest dimension the store keeps (a slot's size is a uint16).
const maxDim = 1<<16 - 1

func newVectors(dim int) *vectors {
	v := &vectors{dim: dim, groups: map[groupKey][]int32{}, groupIdx: map[groupKey]int32{}}
	if dim > 256 {
		v.signWords = (dim + 63) / 64
	}
	return v
}

// slabSize is how many slots a slab of sign bits holds.
const slabSize = 1024

// signOf returns slot s's sign bits.
func (v *vectors) signOf(s int32) []uint64 {
	off := int(s) % slabSize * v.signWords
	return v.signs[int(s)/slabSize][off : off+v.signWords]
}

// setSigns writes the sign bits of codes (the arena's form) into slot s.
func (v *vectors) setSigns(s int32, codes []int8) {
	if v.signWords == 0 {
		return
	}
	for int(s)/slabSize >= len(v.signs) {
		v.signs = append(v.signs, make([]uint64, slabSize*v.signWords))
	}
	w := v.signOf(s)
	clear(w)
	if len(codes) == v.dim {
		for i, c := range codes {
			if c > 0 {
				w[i/64] |= 1 << (i % 64)
			}
		}
		return
	}
	ps := v.pairSize()
	for i := 0; i+ps <= len(codes); i += ps {
		if codes[i+ps-1] > 0 {
			j := pairIndex(codes[i:], ps)
			w[j/64] |= 1 << (j % 64)
		}
	}
}

// slotMetaOf returns m as a slot keeps it, adding its group to the table.
func (v *vectors) slotMetaOf(m vecMeta) slotMeta {
	k := groupKey{m.level, m.parent}
	g, ok := v.groupIdx[k]
	if !ok {
		g = int32(len(v.groupKeys))
		v.groupKeys = append(v.groupKeys, k)
		v.groupIdx[k] = g
	}
	return slotMeta{group: g, start: m.start, end: m.end}
}

// metaOf returns the vecMeta of slot s.
func (v *vectors) metaOf(s int32) vecMeta {
	m := v.meta[s]
	k := v.groupKeys[m.group]
	return vecMeta{level: k.level, parent: k.parent, start: m.start, end: m.end}
}

func (v *vectors) len() int { return v.slot.n }

// slotOf returns the slot of id.
func (v *vectors) slotOf(id string) (int32, bool) { return v.slot.get(v.ids, id) }

// has reports whether id has a vector.
func (v *vectors) has(id string) bool {
	_, ok := v.slot.get(v.ids, id)
	return ok
}

// pairSize is the bytes of one sparse (index, code) pair: a one-byte index
// up to 256 dimensions, two bytes above.
func (v *vectors) pairSize() int {
	if v.dim <= 256 {
		return 2
	}
	return 3
}

// stored returns the codes of slot s as the arena keeps them.
func (v *vectors) stored(s int32) []int8 {
	n := int(v.size[s])
	if n == 0 {
		return nil
	}
	r := v.ref[s]
	off := int(r & (chunkSize - 1))
	return v.arena[r>>chunkBits][off : off+n]
}

// code returns the dense int8 codes of the vector in slot s.
func (v *vectors) code(s int32) []int8 {
	b := v.stored(s)
	if len(b) == v.dim {
		return b
	}
	out := make([]int8, v.dim)
	ps := v.pairSize()
	for i := 0; i+ps <= len(b); i += ps {
		out[pairIndex(b[i:], ps)] = b[i+ps-1]
	}
	return out
}

func pairIndex(b []int8, ps int) int {
	if ps == 2 {
		return int(uint8(b[0]))
	}
	return int(uint8(b[0])) | int(uint8(b[1]))<<8
}

// dot returns the integer dot product of the query codes and slot s's.
func (v *vectors) dot(q []int16, s int32) int32 {
	b := v.stored(s)
	if len(b) == v.dim {
		return dotCodes(q, b)
	}
	var sum int32
	if v.pairSize() == 2 {
		for i := 0; i+1 < len(b); i += 2 {
			sum += int32(q[uint8(b[i])]) * int32(b[i+1])
		}
		return sum
	}
	for i := 0; i+2 < len(b); i += 3 {
		sum += int32(q[int(uint8(b[i]))|int(uint8(b[i+1]))<<8]) * int32(b[i+2])
	}
	return sum
}

// vector writes the vector in slot s into dst and returns it.
func (v *vectors) vector(s int32, dst []float32) []float32 {
	dst = dst[:v.dim]
	sc := v.scale[s]
	for i, c := range v.code(s) {
		dst[i] = float32(c) * sc
	}
	return dst
}

// encode normalises vec and returns it as the arena keeps it (dense or
// sparse codes, in v.enc) and its scale.
func (v *vectors) encode(vec []float32) ([]int8, float32) {
	if len(v.tmp) != v.dim {
		v.tmp = make([]float32, v.dim)
	}
	normalizeInto(v.tmp, vec)
	dense := make([]int8, v.dim)
	sc := quantize(dense, v.tmp)
	v.enc = sparsify(v.enc[:0], dense, v.pairSize())
	return v.enc, sc
}

// sparsify appends codes to dst in the arena's form: (index, code) pairs
// of the codes that are not zero when they take fewer bytes than dense.
func sparsify(dst, codes []int8, ps int) []int8 {
	nz := 0
	for _, c := range codes {
		if c != 0 {
			nz++
		}
	}
	if nz*ps >= len(codes) {
		return append(dst, codes...)
	}
	for i, c := range codes {
		if c == 0 {
			continue
		}
		if ps == 3 {
			dst = append(dst, int8(uint8(i)), int8(uint8(i>>8)), c)
		} else {
			dst = append(dst, int8(uint8(i)), c)
		}
	}
	return dst
}

// valid reports whether b is codes in the arena's form for dim.
func (v *vectors) valid(b []int8) bool {
	if len(b) == v.dim {
		return true
	}
	ps := v.pairSize()
	if len(b) > v.dim || len(b)%ps != 0 {
		return false
	}
	for i := 0; i < len(b); i += ps {
		if pairIndex(b[i:], ps) >= v.dim {
			return false
		}
	}
	return true
}

// setCodes writes codes (the arena's form) and scale into slot s.
func (v *vectors) setCodes(s int32, codes []int8, sc float32) {
	v.setSigns(s, codes)
	v.live -= int(v.size[s])
	v.scale[s] = sc
	v.size[s] = uint16(len(codes))
	v.live += len(codes)
	if len(codes) == 0 {
		v.ref[s] = 0
		return
	}
	if len(v.arena) == 0 || v.tail+len(codes) > chunkSize {
		v.arena = append(v.arena, make([]int8, chunkSize))
		v.tail = 0
	}
	c := len(v.arena) - 1
	copy(v.arena[c][v.tail:], codes)
	v.ref[s] = uint32(c)<<chunkBits | uint32(v.tail)
	v.tail += len(codes)
	v.compactArena()
}

// compactArena copies the live codes into a new arena when more than half
// of the old one is garbage (codes of replaced and deleted vectors).
func (v *vectors) compactArena() {
	used := (len(v.arena)-1)*chunkSize + v.tail
	if used < 4*chunkSize || v.live*2 > used {
		return
	}
	var arena [][]int8
	tail := chunkSize
	for s := range v.ids {
		b := v.stored(int32(s))
		if len(b) == 0 {
			continue
		}
		if tail+len(b) > chunkSize {
			arena = append(arena, make([]int8, chunkSize))
			tail = 0
		}
		c := len(arena) - 1
		copy(arena[c][tail:], b)
		v.ref[s] = uint32(c)<<chunkBits | uint32(tail)
		tail += len(b)
	}
	v.arena, v.tail = arena, tail
	if len(arena) == 0 {
		v.tail = 0
	}
}

// quantize writes src as int8 codes into dst and returns the scale.
func quantize(dst []int8, src []float32) float32 {
	var m float32
	for _, x := range src {
		m = max(m, x, -x)
	}
	if m == 0 {
		clear(dst)
		return 0
	}
	inv := 127 / m
	var n float64
	for i, x := range src {
		c := int8(math.Round(float64(x * inv)))
		dst[i] = c
		n += float64(c) * float64(c)
	}
	// The scale makes the decoded vector unit length again, so that a dot
	// product with a normalised query is a cosine: only the direction is off,
	// by the rounding.
	return float32(1 / math.Sqrt(n))
}

// put stores vec (normalised here) for id, replacing what id had.
func (v *vectors) put(id string, m vecMeta, vec []float32) {
	codes, sc := v.encode(vec)
	v.putCodes(id, m, codes, sc)
}

// putCodes stores codes (the arena's form, as encode gives them) and scale
// for id, replacing what id had.
func (v *vectors) putCodes(id string, m vecMeta, codes []int8, sc float32) {
	sm := v.slotMetaOf(m)
	if s, ok := v.slotOf(id); ok {
		if v.meta[s].group != sm.group {
			v.ungroup(s)
			v.meta[s] = sm
			k := v.groupKeys[sm.group]
			v.groups[k] = append(v.groups[k], s)
			v.shape++
		}
		v.meta[s] = sm
		v.setCodes(s, codes, sc)
		return
	}
	// The store keeps id as long as its vector: its own copy, not a piece
	// of a parse's string of a day's ids (dayfiles.assignIDs) or texts.
	id = v.keepID(id)
	var s int32
	if n := len(v.free); n > 0 {
		s, v.free = v.free[n-1], v.free[:n-1]
		v.ids[s], v.meta[s] = id, sm
	} else {
		s = int32(len(v.ids))
		v.ids = append(v.ids, id) // a copy, below
		v.meta = append(v.meta, sm)
		v.scale = append(v.scale, 0)
		v.ref = append(v.ref, 0)
		v.size = append(v.size, 0)
	}
	v.setCodes(s, codes, sc)
	v.slot.put(v.ids, id, s)
	k := v.groupKeys[sm.group]
	if len(v.groups[k]) == 0 || m.level != date.LevelEntry {
		v.shape++
	}
	v.groups[k] = append(v.groups[k], s)
}

// idChunkSize is the size of the chunks keepID copies ids into.
const idChunkSize = 32 << 10

// keepID returns a copy of id in the store's id chunks. The bytes of a
// chunk are written once, before the string that shows them is made, and
// never again: the chunk is only appended to within its capacity, and a
// full one is left to the strings in it.
func (v *vectors) keepID(id string) string {
	if len(id) == 0 || len(id) > idChunkSize/4 {
		return strings.Clone(id)
	}
	if cap(v.idChunk)-len(v.idChunk) < len(id) {
		v.idChunk = make([]byte, 0, idChunkSize)
	}
	start := len(v.idChunk)
	v.idChunk = append(v.idChunk, id...)
	return unsafe.String(&v.idChunk[start], len(id))
}

// del removes id; it reports whether id was there.
func (v *vectors) del(id string) bool {
	s, ok := v.slotOf(id)
	if !ok {
		return false
	}
	if v.groupKeys[v.meta[s].group].level != date.LevelEntry {
		v.shape++
	}
	v.ungroup(s)
	v.slot.del(v.ids, id)
	v.ids[s] = ""
	v.meta[s] = slotMeta{group: -1}
	v.setCodes(s, nil, 0)
	v.free = append(v.free, s)
	return true
}

func (v *vectors) ungroup(s int32) {
	k := v.groupKeys[v.meta[s].group]
	g := v.groups[k]
	for i, x := range g {
		if x == s {
			g[i] = g[len(g)-1]
			g = g[:len(g)-1]
			break
		}
	}
	if len(g) == 0 {
		delete(v.groups, k)
		v.shape++
	} else {
		v.groups[k] = g
	}
}
