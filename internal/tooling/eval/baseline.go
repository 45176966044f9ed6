package eval

import (
	"log/slog"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// DayBM25 is the flat baseline every recall mode is measured against: each
// day file one document (its entries' and notes' text), ranked by Okapi BM25
// (k1 1.2, b 0.75) over lower-cased words less a few stop words. It shares
// nothing with the index, so a change to the index cannot move it.
type DayBM25 struct {
	days  []date.Date
	tf    []map[string]int
	dl    []float64
	df    map[string]int
	avgdl float64
}

// baselineStop are the few stop words of the baseline.
var baselineStop = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"on": true, "at": true, "for": true, "is": true, "was": true, "did": true, "do": true, "does": true,
	"what": true, "when": true, "who": true, "where": true, "which": true, "how": true, "with": true,
}

func baselineWords(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return slices.DeleteFunc(f, func(w string) bool { return baselineStop[w] })
}

// NewDayBM25 reads every day file under the data dir root.
func NewDayBM25(root string) (*DayBM25, error) {
	files, err := dayfiles.List(root, date.Range{}, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	b := &DayBM25{df: map[string]int{}}
	total := 0.0
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			continue // the recall modes skip it too
		}
		tf := map[string]int{}
		n := 0
		add := func(s string) {
			for _, w := range baselineWords(s) {
				tf[w]++
				n++
			}
		}
		for _, e := range day.Entries {
			add(e.Text)
		}
		for _, x := range day.Notes {
			add(x.Text)
		}
		for w := range tf {
			b.df[w]++
		}
		b.days = append(b.days, f.Date)
		b.tf = append(b.tf, tf)
		b.dl = append(b.dl, float64(n))
		total += float64(n)
	}
	if len(b.days) > 0 {
		b.avgdl = total / float64(len(b.days))
	}
	return b, nil
}

// Rank returns the days that share a word with q, best first, as day
// results.
func (b *DayBM25) Rank(q string, limit int) []daybook.RecallResult {
	const k1, bb = 1.2, 0.75
	n := float64(len(b.days))
	score := make([]float64, len(b.days))
	for _, w := range slices.Compact(slices.Sorted(slices.Values(baselineWords(q)))) {
		df := float64(b.df[w])
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, tf := range b.tf {
			if f := float64(tf[w]); f > 0 {
				score[i] += idf * f * (k1 + 1) / (f + k1*(1-bb+bb*b.dl[i]/b.avgdl))
			}
		}
	}
	var idx []int
	for i, s := range score {
		if s > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch {
		case score[x] > score[y]:
			return -1
		case score[x] < score[y]:
			return 1
		}
		return 0
	})
	out := []daybook.RecallResult{}
	for _, i := range idx[:min(len(idx), limit)] {
		d := b.days[i].String()
		out = append(out, daybook.RecallResult{ID: "day:" + d, Level: "day", Period: d, Score: score[i], Path: dayfiles.RelPath(b.days[i])})
	}
	return out
}
