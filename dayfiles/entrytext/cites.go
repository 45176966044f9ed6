package entrytext

import (
	"regexp"
	"strings"
	"sync"
)

// CitesPrefix starts the line of a captured answer that names the entries
// it restates: "cites: [2026-03-02T10:00-1a2b3c4d5e6f] [2026-03-05T09:12-…]",
// the ids its agent was handed (docs/dayfiles.md). Recall and the context
// never rank such an answer above an entry it cites.
const CitesPrefix = "cites: "

var citesLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)(?:^|\s)cites: ((?:\[[^\]\s]+\]\s*)+)$`) }) // built on first use: the front links this package

// Cites returns the ids text cites, in order; none when it has no cites
// line.
func Cites(text string) []string {
	if !strings.Contains(text, CitesPrefix) {
		return nil
	}
	var ids []string
	for _, m := range citesLine().FindAllStringSubmatch(text, -1) {
		for _, f := range strings.Fields(m[1]) {
			ids = append(ids, strings.Trim(f, "[]"))
		}
	}
	return ids
}

// CitesText is the cites line of ids.
func CitesText(ids []string) string {
	return CitesPrefix + "[" + strings.Join(ids, "] [") + "]"
}

// CitesIndex returns where b's cites lines are, as
// regexp.FindAllSubmatchIndex does: m[2]:m[3] is the ids of one.
func CitesIndex(b []byte) [][]int { return citesLine().FindAllSubmatchIndex(b, -1) }
