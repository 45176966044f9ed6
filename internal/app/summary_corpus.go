package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
)

// summaryFiles is the corpus of summary files under summaries/.
type summaryFiles struct{ root string }

func (c summaryFiles) List(ctx context.Context) ([]index.Source, error) {
	files, err := consolidate.List(c.root, "", date.Range{})
	if err != nil {
		return nil, err
	}
	out := make([]index.Source, len(files))
	for i, f := range files {
		out[i] = index.Source{Path: f.Rel, Stamp: index.Stamp(f.Size, f.ModTime.UnixNano())}
	}
	return out, nil
}

func (c summaryFiles) Stat(rel string) (index.Source, bool) {
	if !strings.HasPrefix(rel, consolidate.SummariesDir+"/") || !strings.HasSuffix(rel, ".md") {
		return index.Source{}, false
	}
	fi, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil || !fi.Mode().IsRegular() {
		return index.Source{}, false
	}
	return index.Source{Path: rel, Stamp: index.Stamp(fi.Size(), fi.ModTime().UnixNano())}, true
}

func (c summaryFiles) Load(ctx context.Context, src index.Source) (index.Source, error) {
	path := filepath.Join(c.root, filepath.FromSlash(src.Path))
	s, err := consolidate.ReadSummary(path)
	if err != nil {
		return src, err
	}
	if s.Period.Rel() != src.Path {
		return src, fmt.Errorf("%s: front matter says %s, which belongs at %s", src.Path, s.Period.ID(), s.Period.Rel())
	}
	var text strings.Builder
	text.WriteString(s.Prose)
	for _, d := range s.Decisions {
		text.WriteString("\n" + d.Text)
	}
	if len(s.Keywords) > 0 {
		// The key routes recall to the period: searched, and shown in a
		// snippet like the rest of the summary.
		text.WriteString("\nKeywords:")
		for _, k := range s.Keywords {
			text.WriteString(" " + k.Name)
		}
	}
	var tags []string
	for _, t := range s.Tags {
		tags = append(tags, t.Name)
	}
	r := s.Period.Range()
	src.Docs = []index.Doc{{
		ID: s.ID(), Level: s.Period.Level, Period: s.Period.String(), Kind: "summary", Tags: tags,
		Text: text.String(), Path: src.Path, Line: proseLine(path), Start: r.From, End: r.To,
	}}
	return src, nil
}

// proseLine returns the line of a summary's first prose line: after the
// front matter and the title; 1 when it cannot tell.
func proseLine(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), consolidate.MaxSummarySize)
	n, fences := 0, 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		switch {
		case fences < 2 && l == "---":
			fences++
		case fences < 2 && n == 1:
			fences = 2 // no front matter
			fallthrough
		case fences >= 2 && l != "" && !strings.HasPrefix(l, "# "):
			return n
		}
	}
	return 1
}
