package offline

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/daybook/daybook/consolidate"
)

// SummarizerName is the Name of the offline Summarizer; it goes into every
// summary's front matter.
const SummarizerName = "offline/extractive-v1"

// Summarizer is an extractive, deterministic consolidate.Summarizer. It
// splits the period's items into sentences, scores each by salience, keeps
// the best that fit in the word limit, and returns them in time order. A
// sentence's salience is the product of:
//
//   - its item's kind: a decision, an event or a fact weighs more than a
//     summary, a note, free text or a todo (see kindWeight);
//   - tf-idf: for each distinct term, the log of how often the period uses
//     it times how rare it is among the period's items, over the square root
//     of the number of terms, so that a sentence about what the period is
//     about, in words not every item uses, ranks high;
//   - tags: a tagged item was marked as mattering (up to +30%);
//   - length sanity: under four words says little, over forty is a list;
//   - the first sentence of an item leads it (+10%).
//
// It cannot paraphrase, merge or resolve references ("it", "that"): it only
// chooses.
type Summarizer struct{}

// NewSummarizer returns the offline Summarizer.
func NewSummarizer() *Summarizer { return &Summarizer{} }

// Name returns "offline/extractive-v1".
func (*Summarizer) Name() string { return SummarizerName }

// kindWeight is the weight of an item's kind in its sentences' salience.
func kindWeight(kind string) float64 {
	switch kind {
	case "decision":
		return 1.6
	case "event":
		return 1.4
	case "fact":
		return 1.3
	case "summary":
		return 1.0
	case "note":
		return 0.9
	case "text":
		return 0.7
	case "todo":
		return 0.6
	default:
		return 0.8
	}
}

type sentence struct {
	item, pos int    // item index, position in the item
	text      string // as it will be printed
	words     int
	terms     []string // distinct terms, in order of first use
	score     float64
}

// Summarize returns at most about in.WordLimit words (the level's default
// when it is 0) of the period's most salient sentences, oldest first.
func (*Summarizer) Summarize(ctx context.Context, in consolidate.Input) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	limit := in.WordLimit
	if limit <= 0 {
		limit = consolidate.WordLimit(in.Level)
	}
	var sents []sentence
	df := map[string]int{}
	tf := map[string]int{}
	for i, it := range in.Items {
		seen := map[string]bool{}
		for k, s := range splitSentences(cleanText(it.Kind, it.Text)) {
			terms, all := termsOf(s)
			for _, t := range all {
				tf[t]++
				if !seen[t] {
					seen[t] = true
					df[t]++
				}
			}
			sents = append(sents, sentence{item: i, pos: k, text: s, words: len(strings.Fields(s)), terms: terms})
		}
	}
	if len(sents) == 0 {
		return "", nil
	}
	n := float64(len(in.Items))
	for i := range sents {
		s := &sents[i]
		it := in.Items[s.item]
		var sum float64
		for _, t := range s.terms {
			sum += math.Log1p(float64(tf[t])) * math.Log1p(n/float64(df[t]))
		}
		tfidf := 0.0
		if len(s.terms) > 0 {
			tfidf = sum / math.Sqrt(float64(len(s.terms)))
		}
		length := 1.0
		switch {
		case s.words < 4:
			length = 0.5
		case s.words > 40:
			length = 40 / float64(s.words)
		}
		lead := 1.0
		if s.pos == 0 {
			lead = 1.1
		}
		tags := 1 + 0.1*float64(min(len(it.Tags), 3))
		s.score = kindWeight(it.Kind) * tags * length * lead * (0.1 + tfidf)
	}
	return choose(sents, limit), nil
}

// choose keeps the best sentences that fit in limit words, no sentence
// twice, and returns them in time order. When not even the best fits, it is
// cut at limit words.
func choose(sents []sentence, limit int) string {
	order := make([]int, len(sents))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sents[b].score, sents[a].score) })
	var keep []int
	used := 0
	seen := map[string]bool{}
	for _, i := range order {
		s := sents[i]
		key := strings.ToLower(strings.Join(strings.Fields(s.text), " "))
		if seen[key] || used+s.words > limit {
			continue
		}
		seen[key] = true
		keep = append(keep, i)
		used += s.words
	}
	if len(keep) == 0 {
		w := strings.Fields(sents[order[0]].text)
		return strings.Join(w[:min(len(w), limit)], " ") + "…"
	}
	slices.Sort(keep)
	parts := make([]string, len(keep))
	for k, i := range keep {
		parts[k] = sents[i].text
	}
	return strings.Join(parts, " ")
}

// termsOf returns the distinct content terms of s in order, and every
// occurrence: lower-cased words of two or more letters or digits, stop
// words left out.
func termsOf(s string) (distinct, all []string) {
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		w = strings.Trim(w, "'")
		if len([]rune(w)) < 2 || summaryStopWords[w] {
			continue
		}
		all = append(all, w)
		if !seen[w] {
			seen[w] = true
			distinct = append(distinct, w)
		}
	}
	return distinct, all
}

var summaryStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then so of to in on at by for with from as is are was
		were be been being it its this that these those i me my we our you your he she they them his her their
		not no do does did done have has had will would can could should may might must just also very about
		into over after before up out off than too more most some any all each there here what which who whom
		when where why how again once only own same such both few other am i'm i've i'll let's`) {
		m[w] = true
	}
	return m
}()
