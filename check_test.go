package daybook

import (
	"strings"
	"testing"
)

func TestRecallQueryCheck(t *testing.T) {
	for _, tc := range []struct {
		query string
		err   string // "" for none
	}{
		{"what did we decide about the index", ""},
		{"  padded  ", ""},
		{strings.Repeat("q", MaxQuery), ""},
		{"", "query is empty or only spaces"},
		{"   \t\n ", "query is empty or only spaces"},
		{strings.Repeat("q", MaxQuery+1), "query is 4097 bytes, over the limit of 4096"},
		{"bad \xff byte", "query is not UTF-8"},
	} {
		err := RecallRequest{Query: tc.query}.Check()
		if got := errString(err); got != tc.err {
			t.Errorf("check(%.20q) = %q, want %q", tc.query, got, tc.err)
		}
	}
}

func TestFindPatternCheck(t *testing.T) {
	// Only the length is the server's to refuse; the App refuses the rest
	// in its own words.
	for _, tc := range []struct {
		pattern string
		err     string
	}{
		{"   ", ""},
		{"", ""},
		{strings.Repeat("p", MaxQuery), ""},
		{strings.Repeat("p", MaxQuery+1), "pattern is 4097 bytes, over the limit of 4096"},
	} {
		err := FindRequest{Pattern: tc.pattern}.Check()
		if got := errString(err); got != tc.err {
			t.Errorf("check(%.20q) = %q, want %q", tc.pattern, got, tc.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
