package index

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/daybook/daybook/date"
)

// Levels of documents: date.Level's, the one level type.
const (
	LevelYear  = date.LevelYear
	LevelMonth = date.LevelMonth
	LevelDay   = date.LevelDay
	LevelEntry = date.LevelEntry
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
	Start  date.Date
	End    date.Date
}

// Parent returns the period the doc is searched inside, "" for a year.
func (d Doc) Parent() string {
	switch d.Level {
	case LevelMonth:
		return d.Period[:4]
	case LevelDay:
		return d.Period[:7]
	case LevelEntry:
		return d.Period
	}
	return ""
}

// ParentField returns the keyword field that holds a level's parent period.
func ParentField(level date.Level) string {
	switch level {
	case LevelMonth:
		return "year"
	case LevelDay:
		return "month"
	case LevelEntry:
		return "day"
	}
	return ""
}

// bleveDoc is what bleve indexes for a Doc.
type bleveDoc struct {
	Level  string   `json:"level"`
	Kind   string   `json:"kind"`
	Tags   []string `json:"tags"`
	Period string   `json:"period"`
	Year   string   `json:"year"`
	Month  string   `json:"month,omitempty"`
	Day    string   `json:"day,omitempty"`
	Start  string   `json:"start"` // YYYY-MM-DD: keywords, compared as strings
	End    string   `json:"end"`
	Text   string   `json:"text"`
	Path   string   `json:"path"`
	Line   float64  `json:"line"`
}

func (d Doc) bleve() bleveDoc {
	b := bleveDoc{
		Level: string(d.Level), Kind: d.Kind, Tags: d.Tags, Period: d.Period,
		Start: d.Start.String(), End: d.End.String(),
		Text: d.Text, Path: d.Path, Line: float64(d.Line),
	}
	if len(d.Period) >= 4 {
		b.Year = d.Period[:4]
	}
	if len(d.Period) >= 7 {
		b.Month = d.Period[:7]
	}
	if len(d.Period) >= 10 {
		b.Day = d.Period[:10]
	}
	return b
}

// Validate checks that d can be indexed.
func (d Doc) Validate() error {
	var n int
	switch d.Level {
	case LevelYear, LevelMonth, LevelDay:
		n = d.Level.PeriodLen()
	case LevelEntry:
		n = LevelDay.PeriodLen() // an entry's period is its day
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
	case d.Level != LevelEntry && d.ID != string(d.Level)+":"+d.Period:
		// The drill names a parent's summaries by their ids (childIDs).
		return fmt.Errorf("document %s: a %s summary's id must be %q", d.ID, d.Level, string(d.Level)+":"+d.Period)
	}
	return nil
}

// newMapping returns the index mapping: an English analyzer on text (stored,
// with term vectors for locations and snippets), keywords for the filters,
// date keywords for ranges, path and line stored only.
func newMapping() *mapping.IndexMappingImpl {
	kw := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = false
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	text := bleve.NewTextFieldMapping()
	text.Analyzer = en.AnalyzerName
	text.Store = true
	text.IncludeTermVectors = true
	text.IncludeInAll = false
	text.DocValues = false
	stored := func(f *mapping.FieldMapping) *mapping.FieldMapping {
		f.Index = false
		f.Store = true
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	dm := bleve.NewDocumentStaticMapping()
	for _, name := range []string{"level", "kind", "tags", "period"} {
		f := kw()
		f.Store = true
		dm.AddFieldMappingsAt(name, f)
	}
	for _, name := range []string{"year", "month", "day"} {
		dm.AddFieldMappingsAt(name, kw())
	}
	// Dates as YYYY-MM-DD keywords: a term range on them is a date range,
	// and they index as one term each instead of a numeric trie.
	dm.AddFieldMappingsAt("start", kw())
	dm.AddFieldMappingsAt("end", kw())
	dm.AddFieldMappingsAt("text", text)
	path := kw()
	path.Store = true
	dm.AddFieldMappingsAt("path", path)
	dm.AddFieldMappingsAt("line", stored(bleve.NewNumericFieldMapping()))

	m := bleve.NewIndexMapping()
	m.DefaultMapping = dm
	m.DefaultAnalyzer = en.AnalyzerName
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}
