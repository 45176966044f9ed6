package safetext

import "testing"

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, tabs\tand\nlines\n", "plain text, tabs\tand\nlines\n"},
		{"Café 東京 ✓", "Café 東京 ✓"},
		{"crlf\r\nends\r\n", "crlf\r\nends\r\n"},
		{"\x1b]0;pwned\x07title", `\x1b]0;pwned\x07title`},
		{"red \x1b[31malert\x1b[0m", `red \x1b[31malert\x1b[0m`},
		{"over\rwrite", `over\rwrite`},
		{"del\x7f bell\a nul\x00", `del\x7f bell\x07 nul\x00`},
		{"c1 \u009b31m csi", `c1 \u009b31m csi`},
		{"bad \xff\xfe byte", `bad \xff\xfe byte`},
		{"é then \x1b", `é then \x1b`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func BenchmarkEscapeClean(b *testing.B) {
	s := "- 09:00 [decision] Chose Argon2id for password hashing #security, café ✓\n"
	for b.Loop() {
		Escape(s)
	}
}
