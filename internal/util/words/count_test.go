package words

import (
	"testing"
	"unicode/utf8"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n          int
		word, want string
	}{
		{1, "day", "1 day"}, {2, "day", "2 days"}, {0, "entry", "0 entries"}, {3, "key", "3 keys"},
		{2, "summary", "2 summaries"}, {5, "decision", "5 decisions"},
	} {
		if got := Count(tc.n, tc.word); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.word, got, tc.want)
		}
	}
	if got := CountAs(3, "person", "people"); got != "3 people" {
		t.Errorf("CountAs = %q", got)
	}
}

// Clip never cuts a character in half: the guard's log lines clipped entry
// texts at a byte count, which could leave invalid UTF-8.
func TestClipKeepsUTF8Whole(t *testing.T) {
	s := "Café über München"
	for n := range len(s) + 2 {
		got := Clip(s, n)
		if !utf8.ValidString(got) {
			t.Fatalf("Clip(%q, %d) = %q: not UTF-8", s, n, got)
		}
		if n >= len(s) && got != s {
			t.Fatalf("Clip(%q, %d) = %q, want it whole", s, n, got)
		}
	}
	if got := Clip("Café", 4); got != "Caf…" {
		t.Errorf("Clip(Café, 4) = %q, want Caf…", got)
	}
}

// ClipWords cuts at a space when one is in the second half of the limit,
// else at the limit, never in a character.
func TestClipWords(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"the garden was green", 12, "the garden …"},
		{"a ünïcödéwörd", 8, "a ünïc …"},
		{"üüüü", 3, "ü …"},
		{"ab üü", 3, "ab …"},
	} {
		got := ClipWords(tc.s, tc.n)
		if got != tc.want || !utf8.ValidString(got) {
			t.Errorf("ClipWords(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
