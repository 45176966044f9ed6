package index

import (
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"github.com/blevesearch/mmap-go"
)

// An image's codes (format 3) are laid out as the arena keeps them, so a
// store read from it maps them instead of copying them into the heap: the
// codes are a third of a store's memory (34 MiB of 20 generated years).
// Their pages are the page cache's: a search reads them back in when the
// daemon has let go of them (DropMapped). What is put after the load goes
// into chunks of the heap, as before; the mapping lives as long as the
// store (a cleanup unmaps it when the store is collected), so no slice of
// it outlives it. An image written later (the log folded into it) replaces
// the file; the one mapped stays on disk, unnamed, until the store is
// collected: log folds are rare (the log must outgrow the image). On Windows, where a mapped file cannot be replaced, the
// codes are read into the heap instead.

// chunkPacker places codes in chunks of chunkSize bytes as setCodes does:
// none straddles two chunks.
type chunkPacker struct {
	chunks int // chunks begun
	tail   int // bytes used of the last
}

// pad returns the bytes to skip before n bytes of codes: the rest of the
// chunk when they do not fit in it.
func (p *chunkPacker) pad(n int) int {
	if n == 0 || p.chunks == 0 || p.tail+n <= chunkSize {
		return 0
	}
	return chunkSize - p.tail
}

// place places n bytes of codes and returns their ref (chunk and offset).
func (p *chunkPacker) place(n int) uint32 {
	if n == 0 {
		return 0
	}
	if p.chunks == 0 || p.tail+n > chunkSize {
		p.chunks++
		p.tail = 0
	}
	ref := uint32(p.chunks-1)<<chunkBits | uint32(p.tail)
	p.tail += n
	return ref
}

// len returns the bytes of the codes placed, padding included.
func (p *chunkPacker) len() int {
	if p.chunks == 0 {
		return 0
	}
	return (p.chunks-1)*chunkSize + p.tail
}

// putMapped adds id, new to the store, with size bytes of codes at ref in
// the arena mapCodes is to map; it reports false when id is there.
func (v *vectors) putMapped(id string, m vecMeta, ref uint32, size int, sc float32) bool {
	if v.has(id) {
		return false
	}
	sm := v.slotMetaOf(m)
	s := int32(len(v.ids))
	v.ids = append(v.ids, id)
	v.meta = append(v.meta, sm)
	v.scale = append(v.scale, sc)
	v.ref = append(v.ref, ref)
	v.size = append(v.size, uint16(size))
	v.live += size
	v.slot.put(v.ids, id, s)
	k := v.groupKeys[sm.group]
	v.groups[k] = append(v.groups[k], s)
	return true
}

// mapCodes maps the n bytes of codes at offset off of f as the store's
// arena, which putMapped filled the refs of, and checks them.
func (v *vectors) mapCodes(f *os.File, off, n int) error {
	if len(v.arena) > 0 {
		return fmt.Errorf("mapping codes into a store that has some")
	}
	var codes []int8
	if runtime.GOOS == "windows" {
		// A mapped file cannot be replaced there: the next image's rename
		// would fail. The codes are read into the heap, as before.
		b := make([]byte, n)
		if _, err := f.ReadAt(b, int64(off)); err != nil {
			return fmt.Errorf("reading the codes: %w", err)
		}
		codes = unsafe.Slice((*int8)(unsafe.Pointer(&b[0])), n)
	} else {
		m, err := mmap.Map(f, mmap.RDONLY, 0)
		if err != nil {
			return fmt.Errorf("mapping the codes: %w", err)
		}
		if off+n > len(m) {
			m.Unmap()
			return fmt.Errorf("the codes end past the file")
		}
		runtime.AddCleanup(v, func(m mmap.MMap) { m.Unmap() }, m)
		v.mapped = m
		codes = unsafe.Slice((*int8)(unsafe.Pointer(&m[off])), n)
	}
	for c := 0; c < n; c += chunkSize {
		v.arena = append(v.arena, codes[c:min(c+chunkSize, n):min(c+chunkSize, n)])
	}
	v.tail = chunkSize // what is put next goes into a chunk of the heap
	for s := range v.ids {
		b := v.stored(int32(s))
		if !v.valid(b) {
			return fmt.Errorf("the codes of %s do not fit dimension %d", v.ids[s], v.dim)
		}
		v.setSigns(int32(s), b)
	}
	return nil
}
