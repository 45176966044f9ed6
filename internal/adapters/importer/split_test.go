package importer_test

import (
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/importer"
)

func TestSplitLong(t *testing.T) {
	para := strings.Repeat("word ", 200) + "\n\n" // 1,002 bytes
	fence := "```\n" + strings.Repeat("code line\n\n", 30) + "```\n\n"
	text := strings.Repeat(para, 3) + fence + strings.Repeat(para, 3)
	res := importer.SplitLong(importer.Result{Entries: []importer.Entry{
		{Text: "short", From: "a.md"},
		{Text: text, From: "b.md", Tags: []string{"x"}},
	}}, 2500)
	if res.Entries[0].Text != "short" {
		t.Errorf("a short entry changed: %+v", res.Entries[0])
	}
	parts := res.Entries[1:]
	if len(parts) < 3 {
		t.Fatalf("%d parts, want the long text cut", len(parts))
	}
	var joined []string
	for i, p := range parts {
		if strings.Count(p.Text, "```")%2 != 0 {
			t.Errorf("part %d cuts a code fence:\n%s", i+1, p.Text)
		}
		if !strings.HasPrefix(p.From, "b.md (part ") {
			t.Errorf("part %d from %q", i+1, p.From)
		}
		if (i == 0) != (len(p.Tags) == 1) {
			t.Errorf("part %d tags %v, want the tags on the first part only", i+1, p.Tags)
		}
		joined = append(joined, p.Text)
	}
	if words := strings.Fields(strings.Join(joined, " ")); strings.Join(words, " ") != strings.Join(strings.Fields(text), " ") {
		t.Errorf("the parts do not make up the text") // whitespace at the cuts aside
	}
	for i, p := range parts {
		if len(p.Text) > 2500 && !strings.Contains(p.Text, "```") {
			t.Errorf("part %d is %d bytes, over 2500 without a fence to explain it", i+1, len(p.Text))
		}
	}
}
