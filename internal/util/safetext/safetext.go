// Package safetext makes text from day files safe to print for a person:
// control characters (terminal escapes among them) are shown, not obeyed.
package safetext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every control character but tab and newline
// written out in Go's escape form: ESC (0x1b) becomes `\x1b`, a lone
// carriage return `\r`, DEL `\x7f`, a C1 control such as U+009B (a
// terminal's one-byte CSI) `\u009b`, and a byte that is not UTF-8 `\xff`.
// A carriage return before a newline stays (a file with CRLF line ends).
// Text without any of these is returned as it is.
func Escape(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			b.WriteRune(r)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s holds nothing Escape changes.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				return false
			}
		case c < 0x20 && c != '\t' && c != '\n', c == 0x7f:
			return false
		case c >= 0x80:
			return cleanFrom(s[i:])
		}
	}
	return true
}

// cleanFrom is clean for the part of s from its first non-ASCII byte.
func cleanFrom(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return false
		case r == '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				return false
			}
		case (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f):
			return false
		}
		i += size
	}
	return true
}
