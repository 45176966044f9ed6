package recall

import "strings"

// QueryWords finds a query's words in texts as recall's own search and
// snippets do: a query word (not a stop word) is found in a text when the
// text has it, or a word of the same Porter stem ("museum" finds
// "museums", "run" finds "running"). Not safe for concurrent use: it
// keeps what it learned of each word it saw.
type QueryWords struct {
	terms []*term
}

// NewQueryWords returns the words of query (at most 32 distinct ones).
func NewQueryWords(query string) *QueryWords { return &QueryWords{terms: queryTerms(query)} }

// Len is how many words the query has.
func (q *QueryWords) Len() int { return len(q.terms) }

// Find returns the indexes (0 to Len()-1, in order) of the query's words
// that text holds.
func (q *QueryWords) Find(text string) []int {
	var out []int
	if len(q.terms) == 0 {
		return nil
	}
	lower := []byte(strings.ToLower(text))
	for i, t := range q.terms {
		found := false
		t.each(lower, func(int, match) { found = true })
		if found {
			out = append(out, i)
		}
	}
	return out
}
