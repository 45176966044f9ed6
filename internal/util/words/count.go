package words

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Count returns n and word, plural unless n is 1: "1 day", "3 days",
// "2 entries". The plural adds s, or ies in place of a y after a consonant.
func Count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") && len(word) > 1 && !strings.ContainsRune("aeiou", rune(word[len(word)-2])) {
		return fmt.Sprintf("%d %sies", n, word[:len(word)-1])
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// CountAs is Count with the plural given: "1 person", "3 people".
func CountAs(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Clip returns s whole when it is at most n bytes long, else its first n
// bytes or fewer, never half a UTF-8 character, followed by "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// ClipWords returns s whole when it is at most n bytes long, else its
// start cut at the last space within n bytes, followed by " …"; when that
// space is in the first half, it cuts at n bytes as Clip does, never half
// a UTF-8 character.
func ClipWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return s[:cut] + " …"
}
