package dayfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/entrytext"
	"github.com/daybook/daybook/internal/util/atomicfile"
)

// RestDir holds, under the data dir, the whole texts too long for one entry
// or written to a full day: rest/2026/11/28-<hash>.md, linked from the
// entry that holds the text's start (docs/decisions/day-limit.md). The
// markdown of a rest file is the text as it came; nothing parses or
// indexes it.
const RestDir = "rest"

// MaxRestText is the most daybook keeps of one text (entrytext's rule).
const MaxRestText = entrytext.MaxRestText

// stubText is how much of a text a stub keeps.
const stubText = 240

// RestRel returns the rest file of text written on d, relative to the data
// dir, with forward slashes: named by the text's hash, so that writing the
// same text twice makes one file.
func RestRel(d date.Date, text string) string {
	sum := sha256.Sum256([]byte(text))
	return fmt.Sprintf("%s/%04d/%02d/%02d-%s.md", RestDir, d.Year, int(d.Month), d.Day, hex.EncodeToString(sum[:8]))
}

// WriteRest writes text to its rest file under root, synced, unless it is
// there already, and returns the file relative to root.
func WriteRest(root string, d date.Date, text string) (string, error) {
	if len(text) > MaxRestText {
		return "", fmt.Errorf("text is %d bytes, over the %d MiB a rest file takes", len(text), MaxRestText>>20)
	}
	rel := RestRel(d, text)
	path := filepath.Join(root, filepath.FromSlash(rel))
	if fi, err := os.Stat(path); err == nil && fi.Size() == int64(len(text)) {
		return rel, nil
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("writing %s: %w", rel, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("writing %s: %w", rel, err)
	}
	if err := atomicfile.Write(path, []byte(text), 0o600); err != nil {
		return "", err
	}
	return rel, nil
}

// RestLink is the line an entry ends with whose whole text of size bytes
// is in the rest file rel: a markdown link relative to the day file.
func RestLink(rel string, size int) string {
	return fmt.Sprintf("[whole text, %d bytes: %s](../../../%s)", size, rel, rel)
}

// WithRest returns the text of an entry whose whole text, text, is kept in
// the rest file rel: its start, cut to max bytes as CutText cuts, and the
// link.
func WithRest(text string, max int, rel string) string {
	link := RestLink(rel, len(text))
	head, _ := entrytext.CutText(text, max-len(link)-2)
	return head + "\n\n" + link
}

// Stub returns e as a full day file takes it: its text's start and the
// link to the rest file rel that holds the whole text.
func Stub(e NewEntry, rel string) NewEntry {
	e.Text = WithRest(e.Text, stubText+len(RestLink(rel, len(e.Text)))+2, rel)
	return e
}
