package entrytext_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles/entrytext"
)

func TestCutText(t *testing.T) {
	para := strings.Repeat("word ", 30) // 150 bytes
	for _, tc := range []struct {
		name, in string
		max      int
		want     string // the head's end, before " …"
	}{
		{"fits", "short", 100, ""},
		{"at a paragraph", para + "\n\n" + para + "\n\n" + para, 400, strings.TrimSpace(para + "\n\n" + para)},
		{"at a space", strings.Repeat("ab ", 100), 100, ""},
		{"inside a rune", strings.Repeat("é", 100), 51, ""},
	} {
		got, cut := entrytext.CutText(tc.in, tc.max)
		if tc.name == "fits" {
			if cut || got != tc.in {
				t.Errorf("%s: %q, %v", tc.name, got, cut)
			}
			continue
		}
		if !cut || len(got) > tc.max || !utf8.ValidString(got) || !strings.HasSuffix(got, " …") {
			t.Errorf("%s: %d bytes (max %d), cut %v, valid %v: %q", tc.name, len(got), tc.max, cut, utf8.ValidString(got), got)
		}
		if tc.want != "" && strings.TrimSuffix(got, " …") != tc.want {
			t.Errorf("%s: head %q, want %q", tc.name, got, tc.want)
		}
	}
	// A cut inside a code fence closes it, so the entry stays one entry.
	code := "Here:\n\n```\n" + strings.Repeat("x := 1\n", 200) + "```\n"
	got, _ := entrytext.CutText(code, 500)
	if strings.Count(got, "```")%2 != 0 || len(got) > 500 {
		t.Errorf("fence left open or too long (%d): %q", len(got), got)
	}
}

func TestCleanText(t *testing.T) {
	if got := entrytext.CleanText("a\x00b caf\xe9"); got != "ab caf\uFFFD" {
		t.Errorf("CleanText = %q", got)
	}
}
