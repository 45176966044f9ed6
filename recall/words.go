package recall

import (
	"encoding/binary"
	"sort"
	"strings"
	"unicode/utf8"
)

// QueryWords finds a query's words in texts as recall's own search and
// snippets do: a query word (not a stop word) is found in a text when the
// text has it, or a word of the same Porter stem ("museum" finds
// "museums", "run" finds "running"). Not safe for concurrent use: it
// keeps what it learned of each word it saw.
type QueryWords struct {
	terms []*term
	lower []byte // the text being searched, lower-cased
}

// NewQueryWords returns the words of query (at most 32 distinct ones).
func NewQueryWords(query string) *QueryWords { return &QueryWords{terms: queryTerms(query)} }

// Len is how many words the query has.
func (q *QueryWords) Len() int { return len(q.terms) }

// Find returns, for each of texts, the indexes (0 to Len()-1, in order)
// of the query's words it holds; nil for a text that holds none. The
// texts are searched as one, so that many short ones cost little more
// than their bytes.
func (q *QueryWords) Find(texts []string) [][]int {
	if len(q.terms) == 0 || len(texts) == 0 {
		return make([][]int, len(texts))
	}
	q.lower = q.lower[:0]
	starts := make([]int, len(texts))
	for i, t := range texts {
		starts[i] = len(q.lower)
		q.lower = appendLower(q.lower, t)
		q.lower = append(q.lower, '\n')
	}
	out := make([][]int, len(texts))
	for k, t := range q.terms {
		t.each(q.lower, func(at int, _ match) {
			i := sort.SearchInts(starts, at+1) - 1
			if n := len(out[i]); n == 0 || out[i][n-1] != k {
				out[i] = append(out[i], k)
			}
		})
	}
	return out
}

// appendLower appends s lower-cased to dst: eight bytes at a time while
// it is ASCII (most of a text is, and most of it lower-case already), as
// strings.ToLower otherwise.
func appendLower(dst []byte, s string) []byte {
	const ones = 0x0101010101010101
	n := len(dst)
	dst = append(dst, s...)
	b := dst[n:]
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if w&(0x80*ones) != 0 {
			return append(dst[:n], strings.ToLower(s)...)
		}
		// Bit 7 of each byte: set by the first sum from 'A' up, by the
		// second from 'Z'+1 up (no byte carries into the next below 0x80).
		upper := (w + (0x80-'A')*ones) &^ (w + (0x80-'Z'-1)*ones) & (0x80 * ones)
		if upper != 0 {
			binary.LittleEndian.PutUint64(b[i:], w|upper>>2) // 0x80>>2 is 'a'-'A'
		}
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c >= utf8.RuneSelf {
			return append(dst[:n], strings.ToLower(s)...)
		}
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return dst
}
