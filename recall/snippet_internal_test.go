package recall

import (
	"testing"

	"github.com/daybook/daybook/index"
)

// A query word inside an automatic tag is not shown in bold: the tag is a
// label, not a word of the entry.
func TestSnippetLeavesAutoTagsPlain(t *testing.T) {
	text := "User: what is the garage door code? #claude-code #session-1a2b3c4d"
	got := snippet(index.Hit{Text: text}, queryStems("garage door code"))
	want := "User: what is the **garage** **door** **code**? #claude-code #session-1a2b3c4d"
	if got != want {
		t.Errorf("snippet:\n got %s\nwant %s", got, want)
	}
}
