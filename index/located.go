package index

import (
	"encoding/binary"
	"io"
	"os"
	"path/filepath"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// A day file's entries and notes are most of the index (46,000 documents a
// generated year) and their text is already on disk, in the day file: the
// index keeps no copy of it (format 4). Such a document is "located": bleve
// stores only its lines in the file and the hashes of what was indexed
// (docState), and a hit's text is read back from those lines when a search
// returns it. The day file may have changed since (a hand edit the catch-up
// has not seen yet): the text read back must hash as the indexed one did,
// else the whole file is parsed and the document found by its id, as it is
// now; a document no longer in the file is left out, as one deleted
// between two reads of the index is. Summaries keep their text in the
// index: they are a few thousand, and their text is built from the file
// (prose, decisions, keywords), not one run of its lines.
//
// The bytes of a document's lines are recorded to read just them; they are
// not part of its state, so an edit above it that keeps the line count (a
// longer entry) does not rewrite it: its read-back then misses at those
// bytes and reads by lines from the whole file, until it is written again.

// located reports whether d is a document whose text the index reads back
// from its day file: an entry or note of the day file of its period, with
// the lines it spans, and an id that names its day (so that a hit knows
// its level, period and path without reading them).
func (d Doc) located() bool {
	if d.Level != date.LevelEntry || d.Line < 1 || d.EndLine < d.Line {
		return false
	}
	p, ok := PeriodOfID(date.LevelEntry, d.ID)
	if !ok || p != d.Period {
		return false
	}
	day, err := date.Parse(p)
	return err == nil && d.Path == dayfiles.RelPath(day)
}

// locatedMark starts the stored meta field of a located document; the
// meta of another (packMeta) starts with its level.
const locatedMark = '\x1e'

// packLocated returns the stored meta field of a located document: its
// lines, their bytes in the file (size 0: not known) and the hashes of its
// state, in binary (stored, never analyzed).
func packLocated(d Doc, st docState) string {
	b := make([]byte, 0, 1+4*binary.MaxVarintLen32+16)
	b = append(b, locatedMark)
	b = binary.AppendUvarint(b, uint64(d.Line))
	b = binary.AppendUvarint(b, uint64(d.EndLine-d.Line))
	b = binary.AppendUvarint(b, uint64(d.off))
	b = binary.AppendUvarint(b, uint64(d.size))
	b = binary.LittleEndian.AppendUint64(b, st.doc)
	b = binary.LittleEndian.AppendUint64(b, st.vec)
	if dayfiles.Captured(d.Tags) {
		b = append(b, flagCaptured)
	}
	return string(b)
}

// flagCaptured ends the meta of a located document that the loop wrote
// (a captured agent turn or a proxied chat: dayfiles.Captured), so that
// recall knows it without reading the text back.
const flagCaptured = 1

// locator is what the index keeps of a located document.
type locator struct {
	line, endLine int
	off, size     int // bytes of the lines in the file; size 0: not known
	state         docState
	captured      bool // the loop wrote it (flagCaptured)
}

// unpackLocated reads a located document's meta field; ok is false when m
// is not one.
func unpackLocated(m string) (locator, bool) {
	if len(m) == 0 || m[0] != locatedMark {
		return locator{}, false
	}
	b := []byte(m[1:])
	line, n := binary.Uvarint(b)
	if n <= 0 {
		return locator{}, false
	}
	b = b[n:]
	var v [3]uint64 // span, off, size
	for i := range v {
		x, n := binary.Uvarint(b)
		if n <= 0 || x > 1<<31 {
			return locator{}, false
		}
		v[i], b = x, b[n:]
	}
	captured := len(b) == 17 && b[16] == flagCaptured
	if len(b) != 16 && !captured || line < 1 || line > 1<<31 {
		return locator{}, false
	}
	return locator{line: int(line), endLine: int(line + v[0]), off: int(v[1]), size: int(v[2]),
		state: docState{doc: binary.LittleEndian.Uint64(b), vec: binary.LittleEndian.Uint64(b[8:])}, captured: captured}, true
}

// readBack fills in the text, kind, tags and line of located hits from
// their day files: a read of each hit's bytes, else one read and at most
// one parse of its file. A hit whose document is no longer in its file is
// deleted from hits.
func (t *TextIndex) readBack(hits map[string]Hit, locs map[string]locator) {
	byPath := map[string][]string{}
	for id := range locs {
		p := hits[id].Path
		byPath[p] = append(byPath[p], id)
	}
	for rel, ids := range byPath {
		t.readBackFile(hits, locs, rel, ids)
	}
}

// readBackFile is readBack for the hits ids of the day file rel.
func (t *TextIndex) readBackFile(hits map[string]Hit, locs map[string]locator, rel string, ids []string) {
	day, ok := dayfiles.DateOfRel(rel)
	path := filepath.Join(t.root, filepath.FromSlash(rel))
	var f *os.File
	var err error
	if ok {
		f, err = dayfiles.OpenFile(path)
	}
	if !ok || err != nil {
		for _, id := range ids {
			delete(hits, id)
		}
		return
	}
	defer f.Close()
	var data []byte           // the whole file, when a hit needs it
	var parsed map[string]Doc // the file parsed, when a hit needs it
	for _, id := range ids {
		h, loc := hits[id], locs[id]
		d, ok := blockAt(f, day, id, loc)
		if !ok && data == nil {
			data, err = io.ReadAll(io.LimitReader(f, dayfiles.MaxFileSize+1))
			if err != nil {
				data = []byte{}
			}
		}
		if !ok {
			d, ok = blockDoc(data, day, id, loc)
		}
		if !ok {
			if parsed == nil {
				parsed = parseDocs(rel, day, data)
			}
			d, ok = parsed[id]
		}
		if !ok {
			delete(hits, id)
			continue
		}
		h.Kind, h.Tags, h.Text, h.Line = d.Kind, d.Tags, d.Text, d.Line
		h.Captured = dayfiles.Captured(d.Tags)
		hits[id] = h
	}
}

// blockAt returns the document at loc's bytes of f, day's file, when they
// are known and hold the one that was indexed. The bytes are parsed as
// lines 1.. and the document numbered as in the file.
func blockAt(f *os.File, day date.Date, id string, loc locator) (Doc, bool) {
	if loc.size <= 0 || loc.size > dayfiles.MaxFileSize {
		return Doc{}, false
	}
	buf := make([]byte, loc.size)
	if n, _ := f.ReadAt(buf, int64(loc.off)); n != loc.size {
		return Doc{}, false
	}
	rel := loc
	rel.line, rel.endLine = 1, 1+loc.endLine-loc.line
	d, ok := blockDoc(buf, day, id, rel)
	d.Line += loc.line - 1
	return d, ok
}

// blockDoc returns the document at loc's lines of data, day's file, when it
// is the one that was indexed: its text, level, period and dates hash as
// they did.
func blockDoc(data []byte, day date.Date, id string, loc locator) (Doc, bool) {
	b, ok := dayfiles.BlockAt(data, day, loc.line, loc.endLine)
	if !ok {
		return Doc{}, false
	}
	rel := dayfiles.RelPath(day)
	var d Doc
	if b.IsEntry {
		b.Entry.ID = id
		d = entryDoc(b.Entry, day, rel)
	} else {
		d = noteDoc(b.Note, day, rel)
		d.ID = id
	}
	st, _ := stateOf(d, nil)
	return d, st.vec == loc.state.vec
}

// parseDocs returns the documents of a day file's content by id; none when
// it does not parse.
func parseDocs(rel string, day date.Date, data []byte) map[string]Doc {
	out := map[string]Doc{}
	parsed, err := dayfiles.Parse(rel, day, data)
	if err != nil {
		return out
	}
	for _, d := range DayDocs(parsed) {
		out[d.ID] = d
	}
	return out
}

// hitOfFields returns the hit of a document's stored fields, with its locator
// when it is located: its text is then still to be read back (readBack).
func hitOfFields(id string, m, text string) (Hit, *locator) {
	hit := Hit{ID: id}
	if loc, ok := unpackLocated(m); ok {
		p, _ := PeriodOfID(date.LevelEntry, id)
		day, _ := date.Parse(p)
		hit.Level, hit.Period, hit.Path, hit.Line = date.LevelEntry, p, dayfiles.RelPath(day), loc.line
		hit.Captured = loc.captured
		return hit, &loc
	}
	hit.Text = text
	unpackMeta(&hit, m)
	return hit, nil
}
