package index

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// DayFiles is the corpus of day files under a data dir.
type DayFiles struct {
	Root string
	Log  *slog.Logger
	// Parser, when set, parses what Load read instead of dayfiles.Parse:
	// the App's, which parses a day that grew since it last read it (today's,
	// after a remembered turn) from its last entry on.
	Parser DayParser
}

// DayParser parses the content of the day file of d at path, as
// dayfiles.Parse does.
type DayParser interface {
	ParseDay(path string, d date.Date, data []byte) (*dayfiles.Day, error)
}

// Stamp returns what tells a file changed: its size and modification time.
func Stamp(size int64, modNanos int64) string { return fmt.Sprintf("%d:%d", size, modNanos) }

// List lists every day file.
func (c DayFiles) List(ctx context.Context) ([]Source, error) {
	files, err := dayfiles.List(c.Root, date.Range{}, c.Log)
	if err != nil {
		return nil, err
	}
	out := make([]Source, len(files))
	for i, f := range files {
		out[i] = Source{Path: dayfiles.RelPath(f.Date), Stamp: Stamp(f.Size, f.ModTime.UnixNano())}
	}
	return out, nil
}

// Stat returns the day file at path.
func (c DayFiles) Stat(path string) (Source, bool) {
	d, ok := dayfiles.DateOfRel(path)
	if !ok {
		return Source{}, false
	}
	fi, err := os.Stat(dayfiles.Path(c.Root, d))
	if err != nil || !fi.Mode().IsRegular() {
		return Source{}, false
	}
	return Source{Path: path, Stamp: Stamp(fi.Size(), fi.ModTime().UnixNano())}, true
}

// Load parses a day file into documents.
func (c DayFiles) Load(ctx context.Context, s Source) (Source, error) {
	d, ok := dayfiles.DateOfRel(s.Path)
	if !ok {
		return s, fmt.Errorf("%s is not a day file path", s.Path)
	}
	path := dayfiles.Path(c.Root, d)
	data, err := dayfiles.ReadFile(path)
	if err != nil {
		return s, err
	}
	parse := dayfiles.Parse
	if c.Parser != nil {
		parse = c.Parser.ParseDay
	}
	day, err := parse(path, d, data)
	if err != nil {
		return s, err
	}
	s.Docs = DayDocs(day)
	setBytes(s.Docs, data)
	return s, nil
}

// setBytes records where each document's lines are in data, its file's
// content: a hit's text is then read back with one read of those bytes.
func setBytes(docs []Doc, data []byte) {
	starts := []int{0, 0} // starts[l] is the offset of line l
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	starts = append(starts, len(data)) // past the last line
	for i := range docs {
		d := &docs[i]
		if d.Line >= 1 && d.EndLine >= d.Line && d.EndLine+1 < len(starts) {
			d.off, d.size = starts[d.Line], starts[d.EndLine+1]-starts[d.Line]
		}
	}
}

// DayDocs returns the documents of a parsed day file: its entries and its
// free-text notes (level entry, kind "text"). They are located: the index
// reads their text back from the file (located.go).
func DayDocs(day *dayfiles.Day) []Doc {
	rel := dayfiles.RelPath(day.Date)
	docs := make([]Doc, 0, len(day.Entries)+len(day.Notes))
	for _, e := range day.Entries {
		docs = append(docs, entryDoc(e, day.Date, rel))
	}
	for _, n := range day.Notes {
		if strings.TrimSpace(n.Text) == "" {
			continue
		}
		docs = append(docs, noteDoc(n, day.Date, rel))
	}
	return docs
}

// entryDoc returns the document of entry e of day's file rel.
func entryDoc(e dayfiles.Entry, day date.Date, rel string) Doc {
	return Doc{
		ID: e.ID, Level: date.LevelEntry, Period: day.String(), Kind: string(e.Kind), Tags: e.Tags,
		Text: e.Text, Path: rel, Line: e.Line, EndLine: e.EndLine, Start: day, End: day,
	}
}

// noteDoc returns the document of note n of day's file rel.
func noteDoc(n dayfiles.Note, day date.Date, rel string) Doc {
	return Doc{
		ID: n.ID(day), Level: date.LevelEntry, Period: day.String(), Kind: KindText, Tags: dayfiles.Tags(n.Text),
		Text: n.Text, Path: rel, Line: n.Line, EndLine: n.EndLine, Start: day, End: day,
	}
}
