package consolidate

import (
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// A captured session is one item of its day, at its first turn, saying
// how many turns it had; the person's entries stay items of their own,
// and the day's keywords and people are the person's.
func TestCapturedSessionIsOneItem(t *testing.T) {
	var b strings.Builder
	b.WriteString("# 2026-03-02 Monday\n\n- 08:00 [fact] The garage door code is 4417.\n")
	for i := range 30 {
		sess := "session-aaaa1111"
		if i >= 20 {
			sess = "session-bbbb2222"
		}
		role := "User"
		if i%2 == 1 {
			role = "Assistant"
		}
		b.WriteString("- 09:" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + " " + role + ": refactored the webhook retry queue " +
			"#claude-code #" + sess + " #project-web\n")
	}
	b.WriteString("- 18:00 Dinner with Ana at the Thai place.\n")
	d := date.MustParse("2026-03-02")
	day, err := dayfiles.Parse("days/2026/03/02.md", d, []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	items := dayItems(day)
	if len(items) != 4 {
		t.Fatalf("%d items, want 4 (a note, two sessions, a note):\n%+v", len(items), items)
	}
	if !strings.HasPrefix(items[1].Text, "An agent session of 20 turns began: User: refactored") ||
		!strings.HasPrefix(items[2].Text, "An agent session of 10 turns began:") || strings.Contains(items[1].Text, "#claude-code") {
		t.Errorf("the sessions' items: %q, %q", items[1].Text, items[2].Text)
	}
	f := newFacts()
	f.addDay(day)
	if f.keywords["webhook"] != 0 || f.keywords["garage"] != 1 {
		t.Errorf("keywords %v: want the person's, none of the captured turns'", f.keywords)
	}
}
