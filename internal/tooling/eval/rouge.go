package eval

import (
	"github.com/daybook/daybook/internal/util/words"
)

// Overlap is the ROUGE-1 of a text against a reference: the unigrams they
// share (each as often as both use it) over the reference's (Recall) and
// over the text's (Precision), and their harmonic mean.
type Overlap struct {
	Recall, Precision, F1 float64
}

// rougeWords are the unigrams ROUGE-1 counts: the lower-cased words of s
// (words.Lower) less the stop words (words.IsStop). No stems: a summary
// that keeps the event's own words scores, one that says it otherwise does
// not.
func rougeWords(s string) map[string]int {
	m := map[string]int{}
	for _, w := range words.Lower(s) {
		if !words.IsStop(w) {
			m[w]++
		}
	}
	return m
}

// Rouge1 returns the ROUGE-1 overlap of text against ref.
func Rouge1(text, ref string) Overlap {
	t, r := rougeWords(text), rougeWords(ref)
	var both, nt, nr int
	for w, n := range t {
		nt += n
		both += min(n, r[w])
	}
	for _, n := range r {
		nr += n
	}
	var o Overlap
	if nr > 0 {
		o.Recall = float64(both) / float64(nr)
	}
	if nt > 0 {
		o.Precision = float64(both) / float64(nt)
	}
	if o.Recall+o.Precision > 0 {
		o.F1 = 2 * o.Recall * o.Precision / (o.Recall + o.Precision)
	}
	return o
}

// Mentions reports whether text still mentions event: at least half of the
// event's content words (words.Keywords: no stop words, no chatter, three
// letters or more), each compared by its stem, are words of text. The names
// in skip (the speakers, lower-case) are left out of the event's words
// first: every event of a chat names one, and so does nearly every line of
// its summaries. An event left with no content word is not counted as
// mentioned.
func Mentions(text, event string, skip map[string]bool) bool {
	have := map[string]bool{}
	for _, s := range words.Stems(text) {
		have[s] = true
	}
	need := map[string]bool{}
	for _, w := range words.Keywords(event) {
		if skip[w] {
			continue
		}
		for _, s := range words.Stems(w) {
			need[s] = true
		}
	}
	if len(need) == 0 {
		return false
	}
	n := 0
	for s := range need {
		if have[s] {
			n++
		}
	}
	return 2*n >= len(need)
}

// FirstWords returns the first n words of text (split at white space).
func FirstWords(text string, n int) string {
	var out []byte
	k := 0
	for i := 0; i < len(text) && k < n; {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		if j > i {
			if k > 0 {
				out = append(out, ' ')
			}
			out = append(out, text[i:j]...)
			k++
		}
		i = j
	}
	return string(out)
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
