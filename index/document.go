package index

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// KindText marks a free-text note of a day file, indexed at level entry.
const KindText = "text"

// Doc is one document of the index.
type Doc struct {
	ID     string
	Level  date.Level // year, month, day, entry
	Period string     // 2026, 2026-02, 2026-02-13 (an entry's is its day)
	Kind   string     // entry kind, "text" for a note, "summary" for a summary
	Tags   []string
	Text   string
	Path   string // source relative to the data dir: days/... or summaries/...
	Line   int    // first line of the source
	// EndLine is the last line of the source, set for the documents of a
	// day file (DayDocs): the index then keeps no copy of the text and
	// reads it back from the file's lines Line..EndLine (see located.go).
	EndLine int
	// off and size are the bytes of lines Line..EndLine in the file, when
	// known (DayFiles.Load): the text is read back with one read of them.
	off, size int
	Start     date.Date
	End       date.Date
}

// Parent returns the period the doc is searched inside, "" for a year.
func (d Doc) Parent() string {
	switch d.Level {
	case date.LevelMonth:
		return d.Period[:4]
	case date.LevelDay:
		return d.Period[:7]
	case date.LevelEntry:
		return d.Period
	}
	return ""
}

// ParentField returns the keyword field that holds a level's parent period.
func ParentField(level date.Level) string {
	switch level {
	case date.LevelMonth:
		return "year"
	case date.LevelDay:
		return "month"
	case date.LevelEntry:
		return "day"
	}
	return ""
}

// bleve returns what bleve indexes of d, whose state is st: a map, not a
// struct, since bleve indexes a struct's empty string fields as the empty
// term, which costs ~7 bytes a document and field. A located document (see
// located) keeps no copy of its text and no path, both its day file's, and
// no level: entries are searched and counted as the documents of no summary
// level (notSummary), and a day file's documents are found by their day
// (pathQuery). The stored-only fields are s, the text of a document that is
// not located, and m (packMeta, packLocated).
func (d Doc) bleve(st docState) map[string]any {
	// The automatic tags (#claude-code, #session-…) label and filter; they
	// are not words of the entry (dayfiles.AutoTag).
	words := dayfiles.WithoutAutoTags(d.Text)
	b := map[string]any{}
	if d.Level == date.LevelEntry && dayfiles.Captured(d.Tags) {
		// The loop's words are weighed apart from the person's (captured.go).
		b[capturedField], b[capturedMarkField] = words, capturedMark
	} else {
		b[textField] = words
	}
	if d.located() {
		b["m"] = packLocated(d, st)
	} else {
		b["level"], b["path"], b["s"], b["m"] = string(d.Level), d.Path, d.Text, packMeta(d)
	}
	if len(d.Period) >= 4 {
		b["year"] = d.Period[:4]
	}
	if len(d.Period) >= 7 {
		b["month"] = d.Period[:7]
	}
	if len(d.Period) >= 10 {
		b["day"] = d.Period[:10]
	}
	return b
}

// metaSep separates the parts of the stored meta field: the ASCII unit
// separator, which no level, period, kind, path or tag holds.
const metaSep = "\x1f"

// packMeta returns what a hit shows of d besides its text, as one stored
// field: level, period, kind, path, line and tags, separated by metaSep.
// One field instead of six saves bleve's per-field framing, ~30 bytes a
// document.
func packMeta(d Doc) string {
	var b strings.Builder
	for _, p := range []string{string(d.Level), d.Period, d.Kind, d.Path, strconv.Itoa(d.Line)} {
		b.WriteString(p)
		b.WriteString(metaSep)
	}
	b.WriteString(strings.Join(d.Tags, metaSep))
	return b.String()
}

// unpackMeta fills h's fields from a packed meta field.
func unpackMeta(h *Hit, m string) {
	parts := strings.Split(m, metaSep)
	if len(parts) < 6 {
		return
	}
	h.Level, h.Period, h.Kind, h.Path = date.Level(parts[0]), parts[1], parts[2], parts[3]
	h.Line, _ = strconv.Atoi(parts[4])
	for _, t := range parts[5:] {
		if t != "" {
			h.Tags = append(h.Tags, t)
		}
	}
	h.Captured = dayfiles.Captured(h.Tags)
}

// Validate checks that d can be indexed.
func (d Doc) Validate() error {
	var n int
	switch d.Level {
	case date.LevelYear, date.LevelMonth, date.LevelDay:
		n = d.Level.PeriodLen()
	case date.LevelEntry:
		n = date.LevelDay.PeriodLen() // an entry's period is its day
	}
	switch {
	case d.ID == "":
		return fmt.Errorf("document has no id")
	case n == 0:
		return fmt.Errorf("document %s: unknown level %q", d.ID, d.Level)
	case len(d.Period) != n:
		return fmt.Errorf("document %s: period %q does not fit level %s", d.ID, d.Period, d.Level)
	case d.Start.IsZero() || d.End.IsZero():
		return fmt.Errorf("document %s: no start or end date", d.ID)
	case d.Level != date.LevelEntry && d.ID != string(d.Level)+":"+d.Period:
		// The drill names a parent's summaries by their ids (childIDs).
		return fmt.Errorf("document %s: a %s summary's id must be %q", d.ID, d.Level, string(d.Level)+":"+d.Period)
	}
	return nil
}

// newMapping returns the index mapping (format 6): an English analyzer on
// text and on ctext (the words of an entry the loop wrote, with the
// keyword cap that counts those entries: captured.go), not stored, without term vectors (spans are found in the hits' text
// instead, see spanner); keywords for the filters (level, the parent
// periods, path), indexed without frequencies or norms since they are never
// scored; the text of a document that is not located stored apart (s), and
// what a hit shows besides its text in one stored field (packMeta,
// packLocated).
func newMapping() *mapping.IndexMappingImpl {
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = false
		f.IncludeInAll = false
		f.DocValues = false
		f.SkipFreqNorm = true
		return f
	}
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.Store = false
	text.IncludeTermVectors = false
	text.IncludeInAll = false
	text.DocValues = false
	dm := bleve.NewDocumentStaticMapping()
	// The level and the parent periods as keywords: the drill's filters,
	// and the date range (rangefilter.go) as term ranges over the periods;
	// the path, to find a source's documents.
	for _, name := range []string{"level", "year", "month", "day", "path"} {
		dm.AddFieldMappingsAt(name, kw())
	}
	dm.AddFieldMappingsAt(textField, text)
	loop := *text // the same analysis for the loop's words (captured.go)
	dm.AddFieldMappingsAt(capturedField, &loop)
	dm.AddFieldMappingsAt(capturedMarkField, kw())
	for _, name := range []string{"s", "m"} {
		stored := bleve.NewKeywordFieldMapping()
		stored.Index = false
		stored.Store = true
		stored.IncludeInAll = false
		stored.DocValues = false
		dm.AddFieldMappingsAt(name, stored)
	}

	m := bleve.NewIndexMapping()
	m.DefaultMapping = dm
	m.DefaultAnalyzer = en.AnalyzerName
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}
