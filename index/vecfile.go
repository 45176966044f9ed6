package index

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"unsafe"

	"github.com/daybook/daybook/dayfiles/date"
)

// The vector files. vectors.bin is a full image written to a temp file,
// synced and renamed into place; it ends in a CRC-32 of everything before.
// Format 3 of the image writes the store's groups (level, parent) once and
// each record as an id sharing a prefix with the one before, its group,
// its start and end as varints, its scale and codes: 60 bytes a vector of
// 5 generated years instead of 95 (format 2's records are the log's).
// vectors.log holds records appended since, each
//
//	uint32 length | uint32 CRC-32 of payload | payload
//
// where payload is op (3 put, 2 delete) and the record. A torn record at the
// end (a crash during an append) is dropped at load; one in the middle is
// corruption. A record is the id, level and parent, start and end days, the
// scale and the codes as the store keeps them (dense or sparse, see
// vectors). Format 1 (DAYBOOK-VEC1, op 1) kept float32 components, four
// times the bytes; it is still read, and the image rewritten at open.
const (
	vecMagic   = "DAYBOOK-VEC3\n"
	vecMagic2  = "DAYBOOK-VEC2\n"
	vecMagic1  = "DAYBOOK-VEC1\n"
	opPut1     = 1 // format 1: float32 components
	opDel      = 2
	opPut      = 3
	vecBinName = "vectors.bin"
	vecLogName = "vectors.log"
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendRecord(b []byte, id string, m vecMeta, codes []int8, sc float32) []byte {
	b = appendString(b, id)
	b = appendString(b, string(m.level))
	b = appendString(b, m.parent)
	b = binary.LittleEndian.AppendUint32(b, uint32(m.start))
	b = binary.LittleEndian.AppendUint32(b, uint32(m.end))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(sc))
	b = binary.AppendUvarint(b, uint64(len(codes)))
	for _, c := range codes {
		b = append(b, byte(c))
	}
	return b
}

// appendCompact appends a record of the image (format 3): id as the length
// of the prefix it shares with prev and the rest, then group, start, end,
// scale and the length of its codes (which are in the codes section).
func appendCompact(b []byte, prev, id string, m slotMeta, size int, sc float32) []byte {
	n := 0
	for n < len(prev) && n < len(id) && prev[n] == id[n] {
		n++
	}
	b = binary.AppendUvarint(b, uint64(n))
	b = appendString(b, id[n:])
	b = binary.AppendUvarint(b, uint64(m.group))
	b = binary.AppendVarint(b, int64(m.start))
	b = binary.AppendVarint(b, int64(m.end)-int64(m.start))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(sc))
	return binary.AppendUvarint(b, uint64(size))
}

// reader decodes records and remembers the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) string() string {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || uint64(len(r.b)-k) < n {
		r.fail()
		return ""
	}
	s := string(r.b[k : k+int(n)])
	r.b = r.b[k+int(n):]
	return s
}

func (r *reader) uint32() uint32 {
	if len(r.b) < 4 {
		r.fail()
		return 0
	}
	x := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return x
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errors.New("record cut short")
	}
	r.b = nil
}

func (r *reader) meta() (string, vecMeta) {
	id := r.string()
	m := vecMeta{level: date.Level(r.string()), parent: r.string()}
	m.start, m.end = int32(r.uint32()), int32(r.uint32())
	return id, m
}

// record reads a put record of format 2 for v: its codes are valid for v's
// dimension.
func (r *reader) record(v *vectors) (string, vecMeta, []int8, float32) {
	id, m := r.meta()
	sc := math.Float32frombits(r.uint32())
	n, k := binary.Uvarint(r.b)
	if k <= 0 || uint64(len(r.b)-k) < n {
		r.fail()
		return "", m, nil, 0
	}
	codes := make([]int8, n)
	for i, c := range r.b[k : k+int(n)] {
		codes[i] = int8(c)
	}
	r.b = r.b[k+int(n):]
	if !v.valid(codes) && r.err == nil {
		r.err = fmt.Errorf("codes of %d bytes do not fit dimension %d", n, v.dim)
	}
	return id, m, codes, sc
}

// recordFloat reads a put record of format 1 into vec.
func (r *reader) recordFloat(dim int, vec []float32) (string, vecMeta) {
	id, m := r.meta()
	if len(r.b) < 4*dim {
		r.fail()
		return "", m
	}
	for i := range vec {
		vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(r.b[4*i:]))
	}
	r.b = r.b[4*dim:]
	return id, m
}

// writeVectors writes v as a full image to dir/vectors.bin, atomically, and
// removes the log it supersedes.
func writeVectors(dir, embedder string, v *vectors) error {
	path := filepath.Join(dir, vecBinName)
	tmp, err := os.CreateTemp(dir, vecBinName+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing vectors: %w", err)
	}
	defer os.Remove(tmp.Name())
	h := crc32.New(crcTable)
	w := bufio.NewWriterSize(io.MultiWriter(tmp, h), 1<<20)
	// The codes first, as the arena keeps them (chunks of chunkSize, none
	// straddling two): a reader maps them rather than reading them.
	var pack chunkPacker
	for s, id := range v.ids {
		if id != "" {
			pack.place(int(v.size[s]))
		}
	}
	head := []byte(vecMagic)
	head = appendString(head, embedder)
	head = binary.AppendUvarint(head, uint64(v.dim))
	head = binary.AppendUvarint(head, uint64(v.len()))
	head = binary.AppendUvarint(head, uint64(pack.len()))
	w.Write(head)
	pack = chunkPacker{}
	zeros := make([]byte, chunkSize)
	for s, id := range v.ids {
		if id == "" || v.size[s] == 0 {
			continue
		}
		codes := v.stored(int32(s))
		if pad := pack.pad(len(codes)); pad > 0 {
			w.Write(zeros[:pad])
		}
		pack.place(len(codes))
		w.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(codes))), len(codes)))
	}
	head = binary.AppendUvarint(head[:0], uint64(len(v.groupKeys)))
	for _, k := range v.groupKeys {
		head = appendString(appendString(head, string(k.level)), k.parent)
	}
	w.Write(head)
	buf := make([]byte, 0, 64)
	prev := ""
	for s, id := range v.ids {
		if id == "" {
			continue
		}
		buf = appendCompact(buf[:0], prev, id, v.meta[s], int(v.size[s]), v.scale[s])
		w.Write(buf)
		prev = id
	}
	runtime.KeepAlive(v) // its codes may be mapped: see vecmap.go
	if err := w.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := binary.Write(tmp, binary.LittleEndian, h.Sum32()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("syncing %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("renaming vectors into place: %w", err)
	}
	syncDir(dir)
	if err := os.Remove(filepath.Join(dir, vecLogName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing vector log: %w", err)
	}
	return nil
}

// readVectors loads dir/vectors.bin and replays dir/vectors.log. The image
// is streamed, never held whole in memory. A store read from files of
// format 1 is marked legacy: the caller writes it again in the current
// format. An image of format 2 reads as it is.
func readVectors(dir, embedder string, dim int) (*vectors, error) {
	path := filepath.Join(dir, vecBinName)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading vectors: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading vectors: %w", err)
	}
	if fi.Size() < int64(len(vecMagic)+4) {
		return nil, fmt.Errorf("%s: not a daybook vector file", path)
	}
	h := crc32.New(crcTable)
	img := &vecImage{path: path, dim: dim, size: fi.Size(),
		r: &streamReader{r: bufio.NewReaderSize(io.TeeReader(io.LimitReader(f, fi.Size()-4), h), 1<<20)}}
	if err := img.header(embedder); err != nil {
		return nil, err
	}
	v := newVectors(dim)
	v.legacy = img.magic == vecMagic1
	if err := img.records(v); err != nil {
		return nil, err
	}
	if _, err := img.r.r.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%s: bytes after the last of %d records", path, img.n)
	}
	var sum [4]byte
	if _, err := io.ReadFull(f, sum[:]); err != nil {
		return nil, fmt.Errorf("%s: reading checksum: %w", path, err)
	}
	if h.Sum32() != binary.LittleEndian.Uint32(sum[:]) {
		return nil, fmt.Errorf("%s: checksum mismatch", path)
	}
	if img.groups != nil && img.codesLen > 0 {
		if err := v.mapCodes(f, int(img.codesAt), int(img.codesLen)); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return v, replayLog(dir, v)
}

// vecImage is a vector image being read: its header, then its records.
type vecImage struct {
	path string
	r    *streamReader
	size int64 // of the file
	dim  int

	magic             string
	n                 uint64    // records
	groups            []vecMeta // format 3's group table
	codesAt, codesLen uint64    // format 3's codes section

	// What the records share as they are read.
	vec   []float32
	codes []int8
	ids   idArena
	idBuf []byte
	pack  chunkPacker
}

// header reads the magic, the embedder and dimension (which must be
// embedder's and the store's), the count and, in format 3, the codes
// section's place (the codes are skipped, for the checksum) and the group
// table.
func (img *vecImage) header(embedder string) error {
	r, path := img.r, img.path
	img.magic = string(r.bytes(len(vecMagic)))
	if img.magic != vecMagic && img.magic != vecMagic2 && img.magic != vecMagic1 {
		return fmt.Errorf("%s: not a daybook vector file", path)
	}
	name := r.string()
	d := r.uvarint()
	img.n = r.uvarint()
	if r.err != nil {
		return fmt.Errorf("%s: bad header: %w", path, r.err)
	}
	if name != embedder || int(d) != img.dim {
		return fmt.Errorf("%s: made by %s with dimension %d, not %s with %d", path, name, d, embedder, img.dim)
	}
	if img.dim > maxDim {
		return fmt.Errorf("%s: dimension %d, more than the %d the store keeps", path, img.dim, maxDim)
	}
	if img.magic != vecMagic {
		return nil
	}
	img.codesLen = r.uvarint()
	img.codesAt = uint64(len(vecMagic) + uvarintLen(uint64(len(name))) + len(name) + uvarintLen(d) + uvarintLen(img.n) + uvarintLen(img.codesLen))
	if r.err != nil || img.codesAt+img.codesLen > uint64(img.size) {
		return fmt.Errorf("%s: bad header", path)
	}
	if _, err := io.CopyN(io.Discard, r.r, int64(img.codesLen)); err != nil { // for the checksum
		return fmt.Errorf("%s: reading codes: %w", path, err)
	}
	ng := r.uvarint()
	if ng > img.n {
		return fmt.Errorf("%s: %d groups for %d vectors", path, ng, img.n)
	}
	for range ng {
		img.groups = append(img.groups, vecMeta{level: date.Level(r.string()), parent: r.string()})
	}
	if r.err != nil {
		return fmt.Errorf("%s: bad group table: %w", path, r.err)
	}
	return nil
}

// records reads the image's records into v.
func (img *vecImage) records(v *vectors) error {
	c := int(min(img.n, uint64(img.size)/16))
	v.ids, v.meta, v.scale = make([]string, 0, c), make([]slotMeta, 0, c), make([]float32, 0, c)
	v.ref, v.size = make([]uint32, 0, c), make([]uint16, 0, c)
	img.vec = make([]float32, img.dim)
	for i := uint64(0); i < img.n; i++ {
		if err := img.record(v, i); err != nil {
			return err
		}
	}
	return nil
}

// record reads record i into v: float32 components in format 1, else a
// scale and int8 codes, which format 3 keeps in its codes section (mapped
// later) and format 2 inline.
func (img *vecImage) record(v *vectors, i uint64) error {
	r, path, dim := img.r, img.path, img.dim
	id, m, err := img.key(i)
	if err != nil {
		return err
	}
	if v.legacy {
		raw := r.bytes(4 * dim)
		if r.err != nil {
			return fmt.Errorf("%s: record %d: %w", path, i+1, r.err)
		}
		for j := range img.vec {
			img.vec[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
		}
		v.put(id, m, img.vec)
		return nil
	}
	sc := math.Float32frombits(r.uint32())
	k := r.uvarint()
	if k > uint64(dim) {
		return fmt.Errorf("%s: record %d: %d bytes of codes for dimension %d", path, i+1, k, dim)
	}
	if img.groups != nil {
		if r.err != nil {
			return fmt.Errorf("%s: record %d: %w", path, i+1, r.err)
		}
		ref := img.pack.place(int(k))
		if uint64(img.pack.len()) > img.codesLen {
			return fmt.Errorf("%s: record %d: codes past the codes section", path, i+1)
		}
		if !v.putMapped(id, m, ref, int(k), sc) {
			return fmt.Errorf("%s: record %d: id %s twice", path, i+1, id)
		}
		return nil
	}
	raw := r.bytes(int(k))
	if r.err != nil {
		return fmt.Errorf("%s: record %d: %w", path, i+1, r.err)
	}
	img.codes = img.codes[:0]
	for _, b := range raw {
		img.codes = append(img.codes, int8(b))
	}
	if !v.valid(img.codes) {
		return fmt.Errorf("%s: record %d: codes do not fit dimension %d", path, i+1, dim)
	}
	v.putCodes(id, m, img.codes, sc)
	return nil
}

// key reads record i's id and metadata: format 3 shares a prefix with the
// id before and names its group in the table; earlier formats spell both
// out.
func (img *vecImage) key(i uint64) (string, vecMeta, error) {
	r := img.r
	if img.groups == nil {
		id := r.id(&img.ids)
		m := vecMeta{level: date.Level(r.string()), parent: r.string()}
		m.start, m.end = int32(r.uint32()), int32(r.uint32())
		return id, m, nil
	}
	shared := r.uvarint()
	rest := r.uvarint()
	if shared > uint64(len(img.idBuf)) || rest > maxField {
		return "", vecMeta{}, fmt.Errorf("%s: record %d: a bad id", img.path, i+1)
	}
	img.idBuf = append(img.idBuf[:shared], r.bytes(int(rest))...)
	id := img.ids.string(img.idBuf)
	g := r.uvarint()
	if g >= uint64(len(img.groups)) {
		return "", vecMeta{}, fmt.Errorf("%s: record %d: group %d of %d", img.path, i+1, g, len(img.groups))
	}
	m := img.groups[g]
	start, span := r.varint(), r.varint()
	m.start, m.end = int32(start), int32(start+span)
	return id, m, nil
}

func uvarintLen(x uint64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], x)
}

// streamReader decodes the vector image from a stream and remembers the
// first error.
type streamReader struct {
	r   *bufio.Reader
	buf []byte
	err error
}

// maxField is the longest string a record may hold: ids and periods are short.
const maxField = 64 << 10

func (r *streamReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, err := binary.ReadUvarint(r.r)
	if err != nil {
		r.err = fmt.Errorf("record cut short: %w", err)
	}
	return x
}

// bytes returns the next n bytes, valid until the next call.
func (r *streamReader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if cap(r.buf) < n {
		r.buf = make([]byte, n)
	}
	r.buf = r.buf[:n]
	if _, err := io.ReadFull(r.r, r.buf); err != nil {
		r.err = fmt.Errorf("record cut short: %w", err)
		return nil
	}
	return r.buf
}

func (r *streamReader) string() string {
	n := r.uvarint()
	if n > maxField {
		if r.err == nil {
			r.err = fmt.Errorf("a field of %d bytes", n)
		}
		return ""
	}
	return string(r.bytes(int(n)))
}

// id reads a string as string does, into a.
func (r *streamReader) id(a *idArena) string {
	n := r.uvarint()
	if n > maxField {
		if r.err == nil {
			r.err = fmt.Errorf("a field of %d bytes", n)
		}
		return ""
	}
	return a.string(r.bytes(int(n)))
}

func (r *streamReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	x, err := binary.ReadVarint(r.r)
	if err != nil {
		r.err = fmt.Errorf("record cut short: %w", err)
	}
	return x
}

func (r *streamReader) uint32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func replayLog(dir string, v *vectors) error {
	path := filepath.Join(dir, vecLogName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading vector log: %w", err)
	}
	vec := make([]float32, v.dim)
	off := 0
	for off+8 <= len(data) {
		n := int(binary.LittleEndian.Uint32(data[off:]))
		sum := binary.LittleEndian.Uint32(data[off+4:])
		if off+8+n > len(data) {
			break // torn tail
		}
		payload := data[off+8 : off+8+n]
		if crc32.Checksum(payload, crcTable) != sum {
			if off+8+n == len(data) {
				break // torn tail
			}
			return fmt.Errorf("%s: record at byte %d: checksum mismatch", path, off)
		}
		r := &reader{b: payload[1:]}
		switch payload[0] {
		case opPut:
			id, m, codes, sc := r.record(v)
			if r.err != nil {
				return fmt.Errorf("%s: record at byte %d: %w", path, off, r.err)
			}
			v.putCodes(id, m, codes, sc)
		case opPut1:
			id, m := r.recordFloat(v.dim, vec)
			if r.err != nil {
				return fmt.Errorf("%s: record at byte %d: %w", path, off, r.err)
			}
			v.put(id, m, vec)
			v.legacy = true
		case opDel:
			v.del(r.string())
		default:
			return fmt.Errorf("%s: record at byte %d: unknown op %d", path, off, payload[0])
		}
		off += 8 + n
	}
	if off < len(data) {
		// Cut the torn tail so that later appends follow a whole record.
		if err := os.Truncate(path, int64(off)); err != nil {
			return fmt.Errorf("truncating torn vector log: %w", err)
		}
	}
	return nil
}

// vecLog appends records to vectors.log.
type vecLog struct {
	buf bytes.Buffer
	rec []byte
	// write appends to the open log; nil is f.Write. Tests make it fail.
	write func(f *os.File, b []byte) (int, error)
}

func (l *vecLog) put(v *vectors, id string) {
	s, _ := v.slotOf(id)
	l.rec = appendRecord(append(l.rec[:0], opPut), id, v.metaOf(s), v.stored(s), v.scale[s])
	l.frame()
}

func (l *vecLog) del(id string) {
	l.rec = appendString(append(l.rec[:0], opDel), id)
	l.frame()
}

func (l *vecLog) frame() {
	var h [8]byte
	binary.LittleEndian.PutUint32(h[:], uint32(len(l.rec)))
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(l.rec, crcTable))
	l.buf.Write(h[:])
	l.buf.Write(l.rec)
}

// flush appends the buffered records to dir/vectors.log with one write and
// a sync, and returns the log's size. A failed append is cut back off the
// log, as a failed day-file append is: on a full disk the space it took goes
// back to entries, and the records stay buffered for the next flush.
func (l *vecLog) flush(dir string) (int64, error) {
	path := filepath.Join(dir, vecLogName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return 0, fmt.Errorf("opening vector log: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("opening vector log: %w", err)
	}
	size := fi.Size()
	if l.buf.Len() > 0 {
		write := l.write
		if write == nil {
			write = (*os.File).Write
		}
		_, err := write(f, l.buf.Bytes())
		if err != nil {
			err = fmt.Errorf("appending to vector log: %w", err)
		} else if err = f.Sync(); err != nil {
			err = fmt.Errorf("syncing vector log: %w", err)
		}
		if err != nil {
			if terr := f.Truncate(size); terr != nil {
				return 0, errors.Join(err, fmt.Errorf("cutting the failed append off the vector log: %w", terr))
			}
			return 0, err
		}
		size += int64(l.buf.Len())
		l.buf.Reset()
	}
	return size, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
