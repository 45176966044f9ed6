package dayfiles

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// tagsRuneByRune is Tags as it was written first, reading every rune: the
// reference the faster one is held to.
func tagsRuneByRune(text string) []string {
	var tags []string
	seen := map[string]bool{}
	inCode := false
	prev := ' '
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '`' {
			inCode = !inCode
		}
		if r == '#' && !inCode && (unicode.IsSpace(prev) || prev == '(' || prev == '[') {
			j := i + 1
			for j < len(text) {
				q, qs := utf8.DecodeRuneInString(text[j:])
				if !(unicode.IsLetter(q) || unicode.IsDigit(q) || q == '-' || q == '_' || q == '/') {
					break
				}
				j += qs
			}
			tag := strings.TrimRight(text[i+1:j], "-_/")
			if first, _ := utf8.DecodeRuneInString(tag); tag != "" && unicode.IsLetter(first) {
				tag = strings.ToLower(tag)
				if !seen[tag] {
					seen[tag] = true
					tags = append(tags, tag)
				}
			}
			prev = '#'
			i = j
			continue
		}
		prev = r
		i += size
	}
	return tags
}

// TestTagsAsRuneByRune checks Tags, which leaps from one '#' or '`' to the
// next, against reading every rune, on texts of tags, code spans, brackets,
// spaces of every kind and invalid UTF-8.
func TestTagsAsRuneByRune(t *testing.T) {
	pieces := []string{"#", "#tag", "#Tag-", "#a/b_c", "#1", "C#", "a#b", "##x", "`", "(", "[", " ", "\u00a0", "\u3000", "\t",
		"\n", "é", "#été", "#日本", "\xff", "\xe2\x82", "-", "_", "/", "word"}
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		text := randomText(rnd, pieces, 14)
		if got, want := Tags(text), tagsRuneByRune(text); !slices.Equal(got, want) {
			t.Fatalf("case %d, %q: %q, want %q", i, text, got, want)
		}
	}
}
