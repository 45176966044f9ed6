package entrytext

import (
	"strings"
	"unicode/utf8"
)

// MaxEntryText is the longest text one entry may have.
const MaxEntryText = 64 << 10

// MaxRestText is the longest text a rest file takes.
const MaxRestText = 256 << 20

// MaxTurnText is the most text of one turn of a conversation (a chat
// through the memory proxy, an agent's captured prompt or answer) one entry
// holds: an entry's limit less room for the speaker's prefix, the tags and
// the link to the rest of a longer text. A longer turn is cut with CutText;
// the writer keeps the whole text in a rest file (WriteRest).
const MaxTurnText = MaxEntryText - 1<<10

// cutMark ends a text CutText cut.
const cutMark = " …"

// CleanText returns s fit to be written: NUL bytes dropped and bytes that
// are not UTF-8 replaced by U+FFFD. Every way a turn comes in (the proxy,
// the hooks) cleans it so, rather than refusing the turn or keeping it
// forever in a spool that cannot write it.
func CleanText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// CutText is the one rule for cutting a text to max bytes: s itself when it
// fits; else its start, cut at the last blank line outside a code fence in
// the second half of max, else the last line end there, else the last space
// there, else a character boundary, with a fence left open closed, and
// " …" after it. The result is at most max bytes (max ≥ 16).
func CutText(s string, max int) (head string, cut bool) {
	if len(s) <= max {
		return s, false
	}
	room := max - len(cutMark) - len("\n```")
	at := -1
	fenced, fencedAt := false, false
	for i := 0; i < len(s) && i <= room; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			break
		}
		line := strings.TrimSpace(s[i : i+j])
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			fenced = !fenced
		}
		end := i + j + 1
		if line == "" && !fenced && end <= room && end > room/2 {
			at, fencedAt = end, false
		}
		i = end
	}
	if at < 0 {
		if j := strings.LastIndexByte(s[:room], '\n'); j > room/2 {
			at = j + 1
		} else if j := strings.LastIndexByte(s[:room], ' '); j > room/2 {
			at = j + 1
		} else {
			at = room
		}
		for at > 0 && !utf8.RuneStart(s[at]) {
			at--
		}
		fencedAt = openFence(s[:at])
	}
	head = strings.TrimSpace(s[:at])
	if fencedAt {
		head += "\n```"
	}
	return head + cutMark, true
}

// openFence reports whether s leaves a ``` or ~~~ fence open.
func openFence(s string) bool {
	open := false
	for line := range strings.Lines(s) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			open = !open
		}
	}
	return open
}

// SplitText cuts s at blank lines outside code fences into parts of at most
// max bytes, trimmed, in order: an import takes a long note whole as
// several entries. A part with no such cut within max bytes is left longer
// (the write then refuses it by name).
func SplitText(s string, max int) []string {
	lines := strings.SplitAfter(s, "\n")
	var parts []string
	start, size, lastCut, cutSize := 0, 0, -1, 0
	fenced := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
		}
		if size+len(l) > max && lastCut > start {
			if p := strings.TrimSpace(strings.Join(lines[start:lastCut], "")); p != "" {
				parts = append(parts, p)
			}
			start, size, lastCut = lastCut, size-cutSize, -1
		}
		size += len(l)
		if t == "" && !fenced {
			lastCut, cutSize = i+1, size
		}
	}
	if p := strings.TrimSpace(strings.Join(lines[start:], "")); p != "" {
		parts = append(parts, p)
	}
	return parts
}
