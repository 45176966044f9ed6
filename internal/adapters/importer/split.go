package importer

import (
	"fmt"

	"github.com/daybook/daybook/dayfiles/entrytext"
)

// SplitLong splits each entry of res whose text is over max bytes into
// parts of at most max bytes, cut at blank lines outside code fences, all
// at the entry's time and in its order: a long daily note or chat answer
// is imported whole, as several entries. An entry with no such cut within
// max bytes is left as it is (the write then refuses it by name).
func SplitLong(res Result, max int) Result {
	var out []Entry
	for _, e := range res.Entries {
		if len(e.Text) <= max {
			out = append(out, e)
			continue
		}
		parts := entrytext.SplitText(e.Text, max)
		for i, p := range parts {
			part := e
			part.Text = p
			if len(parts) > 1 {
				part.From = fmt.Sprintf("%s (part %d of %d)", e.From, i+1, len(parts))
			}
			if i > 0 {
				part.Tags = nil // once is enough: on the first part
			}
			out = append(out, part)
		}
	}
	res.Entries = out
	return res
}
