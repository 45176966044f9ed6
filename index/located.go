package index

import (
	"encoding/binary"
	"path/filepath"

	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/dayfiles"
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

// located reports whether d is a document whose text the index reads back
// from its day file: an entry or note of the day file of its period, with
// the lines it spans, and an id that names its day (so that a hit knows
// its level, period and path without reading them).
func (d Doc) located() bool {
	if d.Level != LevelEntry || d.Line < 1 || d.EndLine < d.Line {
		return false
	}
	p, ok := PeriodOfID(LevelEntry, d.ID)
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
// lines and the hashes of its state, in binary (stored, never analyzed).
func packLocated(d Doc, st docState) string {
	b := make([]byte, 0, 1+2*binary.MaxVarintLen32+16)
	b = append(b, locatedMark)
	b = binary.AppendUvarint(b, uint64(d.Line))
	b = binary.AppendUvarint(b, uint64(d.EndLine-d.Line))
	b = binary.LittleEndian.AppendUint64(b, st.doc)
	b = binary.LittleEndian.AppendUint64(b, st.vec)
	return string(b)
}

// locator is what the index keeps of a located document.
type locator struct {
	line, endLine int
	state         docState
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
	span, n := binary.Uvarint(b)
	if n <= 0 || len(b[n:]) != 16 || line < 1 || line > 1<<31 || span > 1<<31 {
		return locator{}, false
	}
	b = b[n:]
	return locator{line: int(line), endLine: int(line + span),
		state: docState{doc: binary.LittleEndian.Uint64(b), vec: binary.LittleEndian.Uint64(b[8:])}}, true
}

// readBack fills in the text, kind, tags and line of located hits from
// their day files, one read and at most one parse a file. A hit whose
// document is no longer in its file is deleted from hits.
func (x *Index) readBack(hits map[string]Hit, locs map[string]locator) {
	byPath := map[string][]string{}
	for id := range locs {
		p := hits[id].Path
		byPath[p] = append(byPath[p], id)
	}
	for rel, ids := range byPath {
		day, ok := dayfiles.DateOfRel(rel)
		if !ok {
			for _, id := range ids {
				delete(hits, id)
			}
			continue
		}
		data, err := dayfiles.ReadFile(filepath.Join(x.root, filepath.FromSlash(rel)))
		var parsed map[string]Doc // the file as it is now, when a hit needs it
		for _, id := range ids {
			h, loc := hits[id], locs[id]
			if err != nil {
				delete(hits, id)
				continue
			}
			d, ok := blockDoc(data, day, id, loc)
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
			hits[id] = h
		}
	}
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
		p, _ := PeriodOfID(LevelEntry, id)
		day, _ := date.Parse(p)
		hit.Level, hit.Period, hit.Path, hit.Line = LevelEntry, p, dayfiles.RelPath(day), loc.line
		return hit, &loc
	}
	hit.Text = text
	unpackMeta(&hit, m)
	return hit, nil
}
