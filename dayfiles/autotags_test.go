package dayfiles_test

import (
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/entrytext"
)

func TestBlankAutoTags(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"User: fix the build #claude-code #session-1a2b3c4d #project-web", "User: fix the build" + strings.Repeat(" ", 44)},
		{"user: hi #chat/abc123 #model/llama3-2 #auth", "user: hi                              #auth"},
		{"Chose Argon2 #auth #security", "Chose Argon2 #auth #security"},
		{"a#claude-code stays, (#Claude-Code) goes", "a#claude-code stays, (            ) goes"},
		{"#projects is a word of its own, #project- too", "#projects is a word of its own, #project- too"},
	} {
		if got := dayfiles.WithoutAutoTags(c.in); got != c.want {
			t.Errorf("WithoutAutoTags(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
		if len(dayfiles.WithoutAutoTags(c.in)) != len(c.in) {
			t.Errorf("WithoutAutoTags(%q) changed the length", c.in)
		}
	}
	for tag, want := range map[string]bool{"claude-code": true, "session-x": true, "project-daybook": true,
		"chat/1": true, "model/qwen": true, "auth": false, "claude": false, "projects": false} {
		if dayfiles.AutoTag(tag) != want {
			t.Errorf("AutoTag(%q) = %v", tag, !want)
		}
	}
}

func TestCites(t *testing.T) {
	ids := []string{"2026-03-02T10:00-1a2b3c4d5e6f", "2026-06-01:L14"}
	for _, text := range []string{
		"Assistant: The code is 4417.\n" + entrytext.CitesText(ids),
		"Assistant: The code is 4417. " + entrytext.CitesText(ids),
	} {
		if got := entrytext.Cites(text); strings.Join(got, " ") != strings.Join(ids, " ") {
			t.Errorf("Cites(%q) = %q", text, got)
		}
	}
	if got := dayfiles.WithoutAutoTags("Assistant: 4417.\n" + entrytext.CitesText(ids)); strings.TrimSpace(got) != "Assistant: 4417." {
		t.Errorf("WithoutAutoTags kept the cites line: %q", got)
	}
	if got := entrytext.Cites("he cites: nothing here"); got != nil {
		t.Errorf("Cites of prose = %q", got)
	}
}
