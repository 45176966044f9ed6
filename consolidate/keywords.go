package consolidate

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/daybook/daybook/dayfiles/date"
)

// A summary's keywords are its period's key beside the prose: the words
// its entries use more than once (stop words left out), most used first.
// Prose, whoever writes it, keeps a few sentences; recall also needs the
// names, places and objects a person later asks with, and the words a
// period keeps coming back to are the best sign of what it was about.
// They weigh in recall as what routes a question to its day, month and
// year (docs/recall.md); a person reads them as the period's index.

// maxKeywords is how many keywords each level keeps.
func maxKeywords(l date.Level) int {
	switch l {
	case date.LevelDay:
		return 150
	case date.LevelMonth:
		return 250
	default:
		return 400
	}
}

// keywords returns the words of counts used at least twice, most used
// first (then in alphabetical order), at most n.
func keywords(counts map[string]int, n int) []Count {
	var out []Count
	for w, c := range counts {
		if c >= 2 {
			out = append(out, Count{Name: w, N: c})
		}
	}
	slices.SortFunc(out, func(a, b Count) int {
		if c := cmp.Compare(b.N, a.N); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out[:min(len(out), n)]
}

// renderKeywords writes the keywords as one paragraph: "word (n), …".
func renderKeywords(cs []Count) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + " (" + strconv.Itoa(c.N) + ")"
	}
	return strings.Join(parts, ", ")
}

// parseKeywords reads what renderKeywords wrote; anything else in the
// paragraph is skipped.
func parseKeywords(line string) []Count {
	var out []Count
	for _, part := range strings.Split(line, ",") {
		if c, ok := parseCount("- " + strings.TrimSpace(part)); ok {
			out = append(out, c)
		}
	}
	return out
}
