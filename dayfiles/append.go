package dayfiles

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/entrytext"
)

// MaxEntryText is the longest text one entry may have (entrytext's rule).
const MaxEntryText = entrytext.MaxEntryText

// NewEntry is an entry to be written.
type NewEntry struct {
	At   time.Time // its day and HH:MM are taken in the store's location
	Kind Kind      // empty is a note
	Text string
	Tags []string // added as #tags unless the text has them already
}

// Written says where an appended entry landed.
type Written struct {
	ID      string
	Date    date.Date
	Path    string // as under the data dir given to LockDay
	Rel     string // relative to the data dir: days/2026/11/22.md
	Line    int
	Skipped bool // Locked.Append with ours: the day file held the entry already
}

// Validate checks e and returns an error that names what is wrong.
func (e NewEntry) Validate() error {
	t := strings.TrimSpace(e.Text)
	switch {
	case t == "":
		return errors.New("entry text is empty")
	case len(e.Text) > MaxEntryText:
		return fmt.Errorf("entry text is %d bytes, over the limit of %d", len(e.Text), MaxEntryText)
	case !utf8.ValidString(e.Text):
		return errors.New("entry text is not UTF-8")
	case strings.ContainsRune(e.Text, 0):
		return errors.New("entry text holds a NUL byte")
	case e.At.IsZero():
		return errors.New("entry has no time")
	}
	if _, err := ParseKind(string(e.Kind)); err != nil {
		return err
	}
	for _, tag := range e.Tags {
		if tt := Tags("#" + strings.TrimPrefix(tag, "#")); len(tt) != 1 || tt[0] != strings.ToLower(strings.TrimPrefix(tag, "#")) {
			return fmt.Errorf("tag %q: a tag is a letter followed by letters, digits, '-', '_' or '/'", tag)
		}
	}
	return e.checkRoundTrip()
}

// checkRoundTrip checks that e, formatted, parses back as one entry holding
// all of its text: markdown in the text (an empty list item before a blank
// line, say) could otherwise end the entry early and leave the rest of the
// text as a note.
func (e NewEntry) checkRoundTrip() error {
	chunk := e.Format(time.UTC)
	day, err := Parse("entry", date.Date{Year: 2000, Month: 1, Day: 1}, []byte(chunk))
	if err != nil {
		return fmt.Errorf("entry text: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(chunk, "\n"), "\n")
	if len(day.Entries) != 1 || day.Entries[0].EndLine < len(lines) {
		line := len(lines)
		if len(day.Entries) > 0 {
			line = day.Entries[0].EndLine + 1
		}
		for line < len(lines) && strings.TrimSpace(lines[line-1]) == "" {
			line++
		}
		return fmt.Errorf("entry text line %d (%q) would end the entry: markdown there starts a block of its own", line, strings.TrimSpace(lines[line-1]))
	}
	return nil
}

// Format returns the markdown lines of e as they are appended, ending in a
// newline: "- 09:14 [decision] text #tag", further lines indented by two spaces.
func (e NewEntry) Format(loc *time.Location) string {
	at := e.At.In(loc)
	var b strings.Builder
	fmt.Fprintf(&b, "- %02d:%02d ", at.Hour(), at.Minute())
	text := strings.TrimRight(strings.ReplaceAll(strings.ReplaceAll(e.Text, "\r\n", "\n"), "\r", "\n"), " \t\n")
	text = strings.TrimLeft(text, " \t\n")
	kind := e.Kind
	if kind == "" {
		kind = KindNote
	}
	if kind != KindNote || strings.HasPrefix(text, "[") {
		fmt.Fprintf(&b, "[%s] ", kind)
	}
	have := Tags(text)
	var extra []string
	for _, t := range e.Tags {
		t = strings.ToLower(strings.TrimPrefix(t, "#"))
		if !slices.Contains(have, t) && !slices.Contains(extra, t) {
			extra = append(extra, t)
		}
	}
	lines := strings.Split(text, "\n")
	if len(extra) > 0 {
		lines[0] += " #" + strings.Join(extra, " #")
	}
	fences := 0
	for i, l := range lines {
		if isFence(l) {
			fences++
		}
		if i > 0 {
			b.WriteByte('\n')
			if strings.TrimSpace(l) != "" {
				b.WriteString("  ")
			}
		}
		b.WriteString(strings.TrimRight(l, " \t"))
	}
	if fences%2 == 1 {
		b.WriteString("\n  ```") // close a fence the text left open, or it would swallow the file's tail
	}
	b.WriteByte('\n')
	return b.String()
}

// A Batch is the entries of one day, formatted for its file.
type Batch struct {
	Date  date.Date
	Index []int    // the entries' indexes in the slice given to ByDay
	Lines []string // each entry formatted, as NewEntry.Format
}

// ByDay validates entries and groups them by day in loc, in the order
// their days first appear, each day's entries in the order given.
func ByDay(loc *time.Location, entries []NewEntry) ([]Batch, error) {
	for i, e := range entries {
		if err := e.Validate(); err != nil {
			if len(entries) == 1 {
				return nil, err
			}
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
	}
	at := map[date.Date]int{}
	var out []Batch
	for i, e := range entries {
		d := date.Of(e.At.In(loc))
		k, ok := at[d]
		if !ok {
			k = len(out)
			at[d] = k
			out = append(out, Batch{Date: d})
		}
		out[k].Index = append(out[k].Index, i)
		out[k].Lines = append(out[k].Lines, e.Format(loc))
	}
	return out, nil
}

// notPresent returns the indexes of the formatted entries that old, the
// content of d's file, does not hold yet: an entry is there when an entry of
// old has its id but for the "-n" that tells apart entries of the same time
// and text, and each entry of old answers for one new one. ours counts the
// entries of the same import that earlier calls went through, written or
// left out: as many of old's entries are theirs already, and this call's
// are added to it.
func notPresent(path string, d date.Date, old []byte, entries []string, ours map[string]int) ([]int, error) {
	have := map[string]int{}
	if len(old) > 0 {
		day, err := Parse(path, d, old)
		if err != nil {
			return nil, fmt.Errorf("appending to %s: %w", path, err)
		}
		for _, e := range day.Entries {
			have[EntryID(e.ID).Base()]++
		}
		for b, n := range have {
			have[b] = max(0, n-ours[b])
		}
	}
	want, err := Parse(path, d, []byte(strings.Join(entries, "")))
	if err != nil || len(want.Entries) != len(entries) {
		return nil, fmt.Errorf("appending to %s: the new entries do not parse back (a bug): %v", path, err)
	}
	var keep []int
	for i, e := range want.Entries {
		b := EntryID(e.ID).Base()
		ours[b]++
		if have[b] > 0 {
			have[b]--
			continue
		}
		keep = append(keep, i)
	}
	return keep, nil
}

// appendText returns what to write after old, the current content of d's
// file, so that chunk's n formatted entries follow it as top-level entries,
// and those entries as a reader will parse them afterwards (ids and lines).
// When old and chunk are both read whole by the fast path of Parse, that
// follows from old's entries without parsing it (see appendClean).
// Otherwise it tries the plain separator first, then closers for a block the
// file leaves open (a code fence, an HTML comment), and keeps the first
// after which the new entries parse back exactly where and as they were
// written. Markdown blocks are parsed front to back, so when the new lines
// open blocks of their own the old ones ended before them, as they would at
// the end of the file: the old entries keep their lines and ids (FuzzParse
// checks this). When no separator works, or old does not parse, it returns
// an error and nothing must be written.
func appendText(path string, d date.Date, old []byte, chunk string, n int) (string, []Entry, error) {
	want, err := Parse(path, d, []byte(chunk))
	if err != nil || len(want.Entries) != n {
		return "", nil, fmt.Errorf("appending to %s: the new entries do not parse back (a bug): %v", path, err)
	}
	if add, news, ok := appendClean(old, chunk, want); ok {
		if err := checkGrow(path, len(old), len(add), n); err != nil {
			return "", nil, err
		}
		return add, news, nil
	}
	return appendChecked(path, d, old, chunk, want)
}

// appendChecked is appendText by trial: it parses old with each separator
// and chunk after it until want's entries land as written.
func appendChecked(path string, d date.Date, old []byte, chunk string, want *Day) (string, []Entry, error) {
	n := len(want.Entries)
	seps := []string{Title(d) + "\n\n"}
	if len(old) > 0 {
		seps = separators(old)
	}
	buf := make([]byte, 0, len(old)+len(chunk)+64)
	for _, sep := range seps {
		if err := checkGrow(path, len(old), len(sep)+len(chunk), n); err != nil {
			return "", nil, err
		}
		buf = append(append(buf[:0], old...), sep...)
		start := bytes.Count(buf, []byte{'\n'}) + 1 // the line chunk starts on
		buf = append(buf, chunk...)
		after, err := Parse(path, d, buf)
		if err != nil {
			return "", nil, fmt.Errorf("appending to %s: %w", path, err)
		}
		if landed(after, want, start) {
			return sep + chunk, after.Entries[len(after.Entries)-n:], nil
		}
	}
	return "", nil, fmt.Errorf("appending to %s: the end of the file (line %d) leaves a block open that would swallow new entries; close it by hand",
		path, newLineIndex(old).count())
}

// landed reports whether after ends in want's entries, shifted to start on
// line start, and has no other entry from that line on.
func landed(after, want *Day, start int) bool {
	k := len(after.Entries) - len(want.Entries)
	if k < 0 || (k > 0 && after.Entries[k-1].EndLine >= start) {
		return false
	}
	for i, w := range want.Entries {
		a := after.Entries[k+i]
		if a.Line != start+w.Line-1 || a.EndLine != start+w.EndLine-1 ||
			a.Hour != w.Hour || a.Minute != w.Minute || a.Kind != w.Kind || a.Text != w.Text {
			return false
		}
	}
	return true
}

// separators returns what may go between a file's content and appended
// entries, most likely first: the plain separator, then the same followed by
// the closer of a code fence left open, then closers of the HTML blocks that
// a blank line does not end (<pre>, <!--, <?, <!X, <![CDATA[).
func separators(old []byte) []string {
	base := separator(old)
	out := []string{base}
	nl := "" // a closer stands on a line of its own, right after the content
	if len(old) > 0 && old[len(old)-1] != '\n' {
		nl = "\n"
	}
	for _, fence := range fenceRuns(string(old)) {
		out = append(out, nl+fence+"\n\n")
	}
	for _, c := range []string{"-->", "?>", ">", "]]>", "</pre>"} {
		out = append(out, nl+c+"\n\n")
	}
	return out
}

// separator returns what must come between a file's content and appended
// entries so that they parse as top-level entries: a newline when the file
// lacks a final one, and a blank line after anything that is not an entry or
// indented (it ends a paragraph, or an HTML block of the kinds a blank line
// ends, cleanly).
func separator(old []byte) string {
	s := strings.TrimSuffix(string(old), "\n")
	nl := ""
	if len(s) == len(old) {
		nl = "\n"
	}
	last := s[strings.LastIndexByte(s, '\n')+1:]
	last = strings.TrimPrefix(strings.TrimSuffix(last, "\r"), "\uFEFF")
	if strings.TrimSpace(last) == "" || last[0] == ' ' || last[0] == '\t' || isEntryLine(last) {
		return nl
	}
	return nl + "\n"
}

func isEntryLine(l string) bool {
	if len(l) < 3 || !strings.ContainsRune("-*+", rune(l[0])) || l[1] != ' ' {
		return false
	}
	_, _, _, _, ok := parseEntryHead(strings.TrimLeft(l[1:], " "))
	return ok
}

func isFence(l string) bool {
	t := strings.TrimLeft(l, " ")
	return len(l)-len(t) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"))
}

// fenceRuns returns the fence runs (```, ~~~~, ...) that open or close code
// blocks in s, the one that opens the block left open at the end first when
// a plain count can tell, then every other, each once. A fence inside a list
// item is closed by the end of the item, so the count can be wrong; trying
// every run the file uses finds the closer in any case, as the opening run
// is among them.
func fenceRuns(s string) []string {
	open := ""
	var runs []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, "\r")
		if !isFence(l) {
			continue
		}
		t := strings.TrimLeft(l, " ")
		run := t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
		if !slices.Contains(runs, run) {
			runs = append(runs, run)
		}
		switch {
		case open == "":
			open = run
		case strings.HasPrefix(run, open) && strings.TrimSpace(t[len(run):]) == "":
			open = ""
		}
	}
	if i := slices.Index(runs, open); i > 0 {
		runs = append([]string{open}, slices.Delete(runs, i, i+1)...)
	}
	return runs
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
