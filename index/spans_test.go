package index

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
)

// TestSpansAreTheAnalyzersTokens wants the spans the spanner finds, token
// by token with its shortcuts, to be exactly the byte ranges of the tokens
// that the whole text analyzer turns into query terms (what bleve's term
// vectors held), over the eval corpus's day files and a set of queries
// with possessives, capitals, stop words, stems and non-ASCII letters.
func TestSpansAreTheAnalyzersTokens(t *testing.T) {
	root := filepath.Join("..", "internal", "tooling", "eval", "testdata", "corpus")
	files, err := dayfiles.List(root, date.Range{}, nil)
	if err != nil || len(files) == 0 {
		t.Fatalf("eval corpus: %d files, %v", len(files), err)
	}
	var texts []string
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range DayDocs(day) {
			texts = append(texts, d.Text)
		}
	}
	texts = append(texts, "Ana's café in Zürich; ÉCOLE naïve İstanbul", "i a ies the running runs RAN", "")
	x := openTest(t, t.TempDir(), offline.NewEmbedder())
	a := x.bl.Mapping().AnalyzerNamed(en.AnalyzerName)
	queries := []string{
		"deploy migrations", "Ana's café", "running the kayak trip", "what did I decide about postgres",
		"zürich école", "i", "password hashing argon2", "the", "ies", "Maria's birthday presents",
	}
	matched := 0
	for _, q := range queries {
		terms := map[string]bool{}
		for _, tk := range a.Analyze([]byte(q)) {
			terms[string(tk.Term)] = true
		}
		sp := x.newSpanner(q)
		for _, text := range texts {
			var want []Span
			for _, tk := range a.Analyze([]byte(text)) {
				if terms[string(tk.Term)] {
					want = append(want, Span{tk.Start, tk.End})
				}
			}
			got := sp.spans(text)
			if !slices.Equal(got, want) {
				t.Fatalf("query %q in %q: spans %v, the analyzer's %v", q, text, got, want)
			}
			matched += len(want)
		}
	}
	if matched < 50 {
		t.Fatalf("only %d spans over %d texts: the queries find too little to test", matched, len(texts))
	}
}

// TestEarlierFormatIsRebuilt opens an index of format 3 (the text stored,
// a struct's empty fields indexed): it opens without an error and without
// moving anything aside, says so in the log, and the next Sync builds it
// again, with progress. Rebuilds tells a caller beforehand.
func TestEarlierFormatIsRebuilt(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, editDay, dayBefore)
	idx := filepath.Join(root, "index")
	if !Rebuilds(idx) {
		t.Error("Rebuilds says no before the first build")
	}
	x := openTest(t, root, &countingEmbedder{})
	syncPath(t, x, root, "days/2026/03/14.md")
	x.Close()
	if Rebuilds(idx) {
		t.Error("Rebuilds says yes for an index of this format")
	}
	if err := os.WriteFile(filepath.Join(idx, metaName), []byte(`{"format": 3, "embedder": "offline/hash-v1", "dim": 256}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Rebuilds(idx) {
		t.Error("Rebuilds says no for an index of format 3")
	}
	var logs strings.Builder
	var done, total int
	progress := func(d, t int) { done, total = d, t }
	y, err := Open(context.Background(), idx, Options{Embedder: &countingEmbedder{}, Log: slog.New(slog.NewTextHandler(&logs, nil)), Progress: progress})
	if err != nil {
		t.Fatalf("opening an index of format 3: %v", err)
	}
	defer y.Close()
	if !strings.Contains(logs.String(), "earlier daybook: rebuilding") {
		t.Errorf("no log line says the index is rebuilt:\n%s", logs.String())
	}
	if aside, _ := filepath.Glob(idx + ".broken-*"); len(aside) > 0 {
		t.Fatalf("the index was moved aside: %v", aside)
	}
	if st, _ := y.Stats(); st.Docs != 0 || st.Sources != 0 {
		t.Fatalf("after open: %+v, want an empty index", st)
	}
	st, err := y.Sync(context.Background(), false, DayFiles{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if st.Docs == 0 {
		t.Fatalf("sync after the upgrade: %+v", st)
	}
	if total != 1 || done != total {
		t.Errorf("the rebuild's progress ended at %d of %d files, want 1 of 1", done, total)
	}
	hits, err := y.Search(context.Background(), Query{Text: "cedar fence", Level: date.LevelEntry, K: 5})
	if err != nil || len(hits) == 0 || len(hits[0].Spans) == 0 {
		t.Fatalf("search after the rebuild: %+v %v", hits, err)
	}
	if got := hits[0].Text[hits[0].Spans[0].Start:hits[0].Spans[0].End]; !strings.EqualFold(got, "cedar") && !strings.EqualFold(got, "fence") {
		t.Fatalf("first span %q", got)
	}
}

// TestMetaRoundTrip wants what a hit shows besides its text back as it was
// packed into the one stored field, tags or none.
func TestMetaRoundTrip(t *testing.T) {
	for _, d := range []Doc{
		{ID: "2026-03-14T10:00-ab12", Level: date.LevelEntry, Period: "2026-03-14", Kind: "decision", Tags: []string{"garden", "fence-2"}, Path: "days/2026/03/14.md", Line: 7},
		{ID: "month:2026-03", Level: date.LevelMonth, Period: "2026-03", Kind: "summary", Path: "summaries/2026/2026-03.md", Line: 1},
		{ID: "2026-03-14:L12", Level: date.LevelEntry, Period: "2026-03-14", Kind: KindText, Tags: []string{"a b"}, Path: "days/2026/03/14.md", Line: 12},
	} {
		var h Hit
		unpackMeta(&h, packMeta(d))
		want := Hit{Level: d.Level, Period: d.Period, Kind: d.Kind, Tags: d.Tags, Path: d.Path, Line: d.Line}
		if h.Level != want.Level || h.Period != want.Period || h.Kind != want.Kind || h.Path != want.Path || h.Line != want.Line || !slices.Equal(h.Tags, want.Tags) {
			t.Errorf("%s: packed and read back %+v, want %+v", d.ID, h, want)
		}
	}
}
