package words

import (
	"strings"
	"unicode"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// Stems returns the lower-cased, stemmed words of text without stop words,
// in order. A word is a run of letters and digits; '#' of a tag is dropped.
func Stems(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		w = strings.ToLower(w)
		if stemStop()[w] || len(w) > 64 {
			continue
		}
		out = append(out, string(porterstemmer.StemWithoutLowerCasing([]rune(w))))
	}
	return out
}

// stemStop are the words Stems leaves out. The offline embedder's vectors
// are made of Stems: a change to this list changes every vector, and needs
// a new embedder name (offline.Embedder.Name, offline/hash-v1) so that the
// index rebuilds them.
var stemStop = set(`a about above after again against all am an and any are as at be because
		been before being below between both but by can could did do does doing down during each few for from
		further had has have having he her here hers herself him himself his how i if in into is it its itself
		just me more most my myself no nor not now of off on once only or other our ours ourselves out over own
		same she should so some such than that the their theirs them themselves then there these they this
		those through to too under until up very was we were what when where which while who whom why will with
		would you your yours yourself yourselves s t don`)
