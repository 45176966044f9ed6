package importer

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// notesFormat reads a folder of daily notes, one markdown file a day named
// by its date (Obsidian, Logseq): each note becomes one entry at 00:00 of
// its day, its text as written.
type notesFormat struct {
	name           string
	defaultPattern string // moment.js tokens, as the app's settings spell it
	subdir         string // where the notes are under the folder given, if it is there
	dateFns        bool   // patterns are in date-fns tokens (Logseq's yyyy_MM_dd), not moment.js
	// settings reads the app's own settings under the folder given, if
	// there: where the daily notes are, and their name format.
	settings func(root string) (folder, pattern string)
}

// obsidianSettings reads the Daily notes plugin's settings of a vault:
// .obsidian/daily-notes.json, {"folder": "Daily", "format": "YYYY-MM-DD"}.
func obsidianSettings(root string) (folder, pattern string) {
	var s struct{ Folder, Format string }
	if b, err := os.ReadFile(filepath.Join(root, ".obsidian", "daily-notes.json")); err == nil {
		json.Unmarshal(b, &s)
	}
	return strings.Trim(s.Folder, "/"), s.Format
}

// logseqKey finds a string setting of Logseq's config.edn.
var logseqKey = regexp.MustCompile(`(?m)^[^;\n]*:(journal/file-name-format|journals-directory)\s+"([^"]*)"`)

// logseqSettings reads a graph's logseq/config.edn: :journals-directory and
// :journal/file-name-format.
func logseqSettings(root string) (folder, pattern string) {
	b, err := os.ReadFile(filepath.Join(root, "logseq", "config.edn"))
	if err != nil {
		return "", ""
	}
	for _, m := range logseqKey.FindAllStringSubmatch(string(b), -1) {
		if m[1] == "journals-directory" {
			folder = m[2]
		} else {
			pattern = m[2]
		}
	}
	return folder, pattern
}

// dateFnsToMoment turns a date-fns pattern, as Logseq's
// :journal/file-name-format spells it ("yyyy_MM_dd"), into moment.js tokens.
func dateFnsToMoment(p string) string {
	r := strings.NewReplacer("yyyy", "YYYY", "yy", "YY", "dd", "DD", "d", "D", "EEEE", "dddd", "EEE", "ddd")
	return r.Replace(p)
}

// maxNote is the largest note read: a day file holds at most 8 MiB. A note
// over the 64 KiB one entry holds is split (SplitLong).
const maxNote = 8 << 20

func (f notesFormat) Read(root string, opt Options) (Result, error) {
	var res Result
	st, err := os.Stat(root)
	if err != nil {
		return res, fmt.Errorf("reading %s notes: %w", f.name, err)
	}
	if !st.IsDir() {
		return res, fmt.Errorf("reading %s notes: %s is a file; give the folder of daily notes", f.name, root)
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // a vault reached through a link is walked, not skipped
	}
	folder, pattern := "", ""
	if f.settings != nil {
		folder, pattern = f.settings(root)
	}
	if opt.Pattern != "" {
		pattern = opt.Pattern
	}
	if pattern == "" {
		pattern = f.defaultPattern
	}
	moment := pattern
	if f.dateFns {
		moment = dateFnsToMoment(pattern)
	}
	layout, err := momentLayout(moment)
	if err != nil {
		return res, fmt.Errorf("%s notes: pattern %q: %v", f.name, pattern, err)
	}
	for _, sub := range []string{folder, f.subdir} {
		if sub == "" {
			continue
		}
		if st, err := os.Stat(filepath.Join(root, sub)); err == nil && st.IsDir() {
			root = filepath.Join(root, sub)
			break
		}
	}
	byPath := strings.Contains(layout, "/")
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			res.skip(path, WhyUnreadable, "cannot be read: %v", err)
			return nil
		}
		name := d.Name()
		if path != root && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir // .obsidian, .trash, .git
			}
			return nil
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(name), ".md") {
			return nil
		}
		stem := strings.TrimSuffix(name, filepath.Ext(name))
		if byPath {
			rel, _ := filepath.Rel(root, path)
			stem = strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
		}
		day, err := time.Parse(layout, stem)
		if err != nil {
			res.skip(path, WhyNotADate, "the name is not a date in the pattern %s", pattern)
			return nil
		}
		b, err := os.ReadFile(path)
		switch {
		case err != nil:
			res.skip(path, WhyUnreadable, "cannot be read: %v", err)
		case len(b) > maxNote:
			res.skip(path, WhyTooLong, "the note is %d MiB, over the 8 MiB a day file holds", len(b)>>20)
		case emptyNote(string(b)):
			// Nothing to import: Logseq makes today's page before anything is written.
		default:
			res.Entries = append(res.Entries, Entry{At: day, Local: true, Text: string(b), From: path})
		}
		return nil
	})
	return res, err
}

// emptyNote reports a note with nothing written in it: Logseq makes a
// journal page holding a lone "-".
func emptyNote(s string) bool {
	return strings.Trim(s, " \t\r\n-") == ""
}

// momentTokens maps the moment.js tokens of date-only file names to Go's
// layout, longest first.
var momentTokens = []struct{ moment, goLayout string }{
	{"YYYY", "2006"}, {"YY", "06"},
	{"MMMM", "January"}, {"MMM", "Jan"}, {"MM", "01"}, {"M", "1"},
	{"DD", "02"}, {"D", "2"},
	{"dddd", "Monday"}, {"ddd", "Mon"},
}

// momentLayout turns a moment.js date pattern (Obsidian's "Date format",
// Logseq's file name format) into a Go time layout. Text in [brackets] is
// literal.
func momentLayout(p string) (string, error) {
	var b strings.Builder
	seen := map[byte]bool{}
	for i := 0; i < len(p); {
		if p[i] == '[' {
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return "", fmt.Errorf("an unclosed [")
			}
			b.WriteString(p[i+1 : i+j])
			i += j + 1
			continue
		}
		matched := false
		for _, t := range momentTokens {
			if strings.HasPrefix(p[i:], t.moment) {
				b.WriteString(t.goLayout)
				seen[t.moment[0]] = true
				i += len(t.moment)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(p[i])
			i++
		}
	}
	if !seen['Y'] || !seen['M'] || !seen['D'] {
		return "", fmt.Errorf("it does not name a year, a month and a day")
	}
	return b.String(), nil
}
