// Package cites tells which entries of memory an agent's answer restates:
// what the loop's writers (Claude Code's hooks, the memory proxy) handed
// the agent is kept with the words of each entry, and an answer that holds
// enough of an entry's words cites it (entrytext.Cites) when it is written
// back, so that recall and the context place it below what it restates.
package cites

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/util/words"
)

// Entry is an entry a block handed over, with the words that tell a
// restatement of it (Words).
type Entry struct {
	ID    string   `json:"id"`
	Words []string `json:"words"`
}

// maxWords bounds the words kept of an entry; Max the ids an answer cites.
const (
	maxWords = 40
	Max      = 5
)

// Handed returns the entries a context block placed, with the words of
// their lines in it. Evidence lines are "- :14 10:00 text" under their
// day's heading, other entries "- [ID] [kind] text".
func Handed(resp daybook.ContextResponse) []Entry {
	lines := blockLines(resp.Markdown)
	var out []Entry
	for _, it := range resp.Items {
		if it.Level != "entry" || len(it.ID) < 10 {
			continue
		}
		key := "[" + it.ID + "]"
		if it.Line > 0 {
			key = it.ID[:10] + ":" + strconv.Itoa(it.Line)
		}
		if text, ok := lines[key]; ok {
			if w := Words(text); len(w) > 0 {
				out = append(out, Entry{ID: it.ID, Words: w})
			}
		}
	}
	return out
}

// blockLines reads a block's entry lines: evidence by day and line
// ("2026-03-02:14" for "- :14 10:00 text" under "### 2026-03-02 · …"),
// others by their bracketed id ("[2026-03-02T10:00-…]" for "- [ID] text").
func blockLines(md string) map[string]string {
	out := map[string]string{}
	day := ""
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "### ") && len(l) >= 14:
			day = l[4:14]
		case strings.HasPrefix(l, "## "):
			day = ""
		case day != "" && strings.HasPrefix(l, "- :"):
			if num, text, ok := strings.Cut(l[3:], " "); ok {
				out[day+":"+num] = text
			}
		case strings.HasPrefix(l, "- ["):
			if id, text, ok := strings.Cut(l[2:], " "); ok && strings.HasSuffix(id, "]") {
				out[id] = text
			}
		}
	}
	return out
}

// Words are the words of an entry's line that tell a restatement of it:
// its keywords (no stop words) of four letters or more, and its numbers (a
// code, a date, an amount), lower-cased, each once; the line's time
// ("10:00") and kind ("[fact]") left out.
func Words(line string) []string {
	if len(line) > 5 && line[2] == ':' && line[5] == ' ' {
		line = line[6:]
	}
	if strings.HasPrefix(line, "[") {
		if _, rest, ok := strings.Cut(line, "] "); ok {
			line = rest
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range answerWords(line) {
		if seen[w] || len([]rune(w)) < 4 && !strings.ContainsFunc(w, unicode.IsDigit) {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == maxWords {
			break
		}
	}
	return out
}

// restates reports how many of words an answer whose words are in has
// holds, and whether that restates the entry: four of them, or half of
// them and three, or two with a number ("the code is 4417").
func restates(has map[string]bool, words []string) (int, bool) {
	n, number := 0, false
	for _, w := range words {
		if has[w] {
			n++
			number = number || strings.ContainsFunc(w, unicode.IsDigit)
		}
	}
	return n, n >= 4 || 2*n >= len(words) && (n >= 3 || n >= 2 && number)
}

// Match returns the ids of the entries of handed that answer restates,
// those it shares most words with first, at most Max.
func Match(answer string, handed []Entry) []string {
	if len(handed) == 0 {
		return nil
	}
	has := map[string]bool{}
	for _, w := range answerWords(answer) {
		has[w] = true
	}
	type cite struct {
		id string
		n  int
	}
	var found []cite
	for _, e := range handed {
		if n, ok := restates(has, e.Words); ok {
			found = append(found, cite{e.ID, n})
		}
	}
	slices.SortStableFunc(found, func(a, b cite) int { return b.n - a.n })
	var ids []string
	for _, c := range found[:min(len(found), Max)] {
		ids = append(ids, c.id)
	}
	return ids
}

// answerWords are the keywords of s (words.Keywords, lower-cased) and its
// numbers, which Keywords leaves out ("4417").
func answerWords(s string) []string {
	out := words.Keywords(s)
	for _, w := range words.Lower(s) {
		if len(w) >= 2 && strings.ContainsFunc(w, unicode.IsDigit) && !strings.ContainsFunc(w, unicode.IsLetter) {
			out = append(out, w)
		}
	}
	return out
}
