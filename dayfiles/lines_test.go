package dayfiles

import "testing"

// SourceLines gives lines as written, CRLF and a missing last line ending
// included; CountLines counts that last line.
func TestSourceAndCountLines(t *testing.T) {
	data := []byte("# title\r\n\r\n- 09:00 one\r\n  more\r\nlast")
	if n := CountLines(data); n != 5 {
		t.Errorf("CountLines = %d, want 5", n)
	}
	for _, tc := range []struct {
		first, last int
		want        string
	}{
		{1, 1, "# title"}, {3, 4, "- 09:00 one\r\n  more"}, {5, 5, "last"}, {5, 9, "last"}, {7, 7, ""},
	} {
		if got := SourceLines(data, tc.first, tc.last); got != tc.want {
			t.Errorf("SourceLines(%d, %d) = %q, want %q", tc.first, tc.last, got, tc.want)
		}
	}
	if n := CountLines([]byte("a\nb\n")); n != 2 {
		t.Errorf("CountLines(a, b with a final newline) = %d, want 2", n)
	}
}
