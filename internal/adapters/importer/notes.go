package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"olympos.io/encoding/edn"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/util/words"
)

// notesFormat reads a folder of daily notes, one markdown file a day named
// by its date (Obsidian, Logseq), as entries at 00:00 of its day: the whole
// note as one entry, or (items) one entry per item of the note.
type notesFormat struct {
	name           string
	defaultPattern string // moment.js tokens, as the app's settings spell it
	subdir         string // where the notes are under the folder given, if it is there
	dateFns        bool   // patterns are in date-fns tokens (Logseq's yyyy_MM_dd), not moment.js
	// settings reads the app's own settings under the folder given, if
	// there: where the daily notes are, and their name format; file names
	// the settings file, for reports.
	settings func(root string) (folder, pattern, file string, err error)
	// items splits a note into entries of its own (noteItems); otherwise
	// the note is one entry.
	items bool
	// others: the folder given is a vault of notes, most of them not daily
	// notes, which are counted (Result.NotDaily), not reported one by one.
	others bool
}

// obsidianSettings reads the Daily notes plugin's settings of a vault:
// .obsidian/daily-notes.json, {"folder": "Daily", "format": "YYYY-MM-DD"}.
func obsidianSettings(root string) (folder, pattern, file string, err error) {
	file = filepath.Join(root, ".obsidian", "daily-notes.json")
	b, err := readSettings(file)
	if b == nil {
		return "", "", file, err
	}
	var s struct{ Folder, Format string }
	if err := json.Unmarshal(b, &s); err != nil {
		return "", "", file, jsonError(file, b, err)
	}
	return strings.Trim(s.Folder, "/"), s.Format, file, nil
}

// logseqSettings reads a graph's logseq/config.edn: :journals-directory and
// :journal/file-name-format.
func logseqSettings(root string) (folder, pattern, file string, err error) {
	file = filepath.Join(root, "logseq", "config.edn")
	b, err := readSettings(file)
	if b == nil {
		return "", "", file, err
	}
	var cfg map[edn.Keyword]any
	if err := edn.Unmarshal(b, &cfg); err != nil {
		return "", "", file, fmt.Errorf("not valid EDN: %v", err)
	}
	folder, _ = cfg["journals-directory"].(string)
	pattern, _ = cfg["journal/file-name-format"].(string)
	return folder, pattern, file, nil
}

// readSettings reads an app's settings file: nil and no error when there
// is none, or it is empty (the app's defaults hold), nil and the error when
// it cannot be read.
func readSettings(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case len(bytes.TrimSpace(b)) == 0:
		return nil, nil
	}
	return b, nil
}

// dateFnsToMoment turns a date-fns pattern, as Logseq's
// :journal/file-name-format spells it ("yyyy_MM_dd"), into moment.js tokens.
func dateFnsToMoment(p string) string {
	r := strings.NewReplacer("yyyy", "YYYY", "yy", "YY", "dd", "DD", "d", "D", "EEEE", "dddd", "EEE", "ddd")
	return r.Replace(p)
}

// maxNote is the largest note read: what a day file holds. A note over the
// 64 KiB one entry holds is split (SplitLong).
const maxNote = dayfiles.MaxFileSize

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
	folder, pattern, from := f.pattern(root, opt, &res)
	moment := pattern
	if f.dateFns {
		moment = dateFnsToMoment(pattern)
	}
	layout, err := momentLayout(moment)
	if err != nil {
		return res, fmt.Errorf("%s notes: pattern %q: %v", f.name, pattern, err)
	}
	notes := f.notesFolder(root, folder)
	walk := notes
	if f.others {
		walk = root // the other notes of the vault are counted
	}
	byPath := strings.Contains(layout, "/")
	daily := 0
	err = filepath.WalkDir(walk, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			res.skip(path, WhyUnreadable, "cannot be read: %v", err)
			return nil
		}
		name := d.Name()
		if path != walk && strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir // .obsidian, .trash, .git
			}
			return nil
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(name), ".md") {
			return nil
		}
		rel, err := filepath.Rel(notes, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			res.NotDaily++ // outside the daily notes folder
			return nil
		}
		stem := strings.TrimSuffix(name, filepath.Ext(name))
		if byPath {
			stem = strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
		}
		day, err := time.Parse(layout, stem)
		switch {
		case err != nil && f.others:
			res.NotDaily++
			return nil
		case err != nil:
			res.skip(path, WhyNotADate, "the name is not a date in the pattern %s", pattern)
			return nil
		}
		daily++
		f.readNote(&res, path, day, stem)
		return nil
	})
	if err == nil && daily == 0 && res.NotDaily > 0 {
		in := ""
		if notes != root {
			in = " in " + notes
		}
		err = fmt.Errorf("no daily notes in %s: of its %s, none%s is named by a date in the pattern %s (%s); "+
			"--pattern gives the daily notes' date format, in Obsidian's tokens (--pattern DD-MM-YYYY)",
			root, words.Count(res.NotDaily, "note"), in, pattern, from)
	}
	return res, err
}

// pattern returns the daily notes' folder from the vault's settings (""
// when they name none), their date pattern (--pattern, else the settings',
// else the format's default) and where that pattern comes from, for the
// error that no note matched it. Settings that do not read are skipped
// into res, and the defaults used.
func (f notesFormat) pattern(root string, opt Options, res *Result) (folder, pattern, from string) {
	from = "the default"
	if f.settings != nil {
		var file string
		var err error
		folder, pattern, file, err = f.settings(root)
		switch {
		case err != nil:
			where, what := file, err.Error()
			var ie *inputError
			if errors.As(err, &ie) {
				where, what = ie.Where(), ie.What()
			}
			res.skip(where, WhyMalformed, "%s; so its daily notes settings are not used (the defaults are)", what)
		case pattern != "":
			from = "from " + file
		}
	}
	if opt.Pattern != "" {
		pattern, from = opt.Pattern, "from --pattern"
	}
	if pattern == "" {
		pattern, from = f.defaultPattern, "the default"
	}
	return folder, pattern, from
}

// notesFolder returns the folder the daily notes are in: the settings'
// folder, else the format's own (Logseq's journals), when it exists, else
// the root.
func (f notesFormat) notesFolder(root, folder string) string {
	for _, sub := range []string{folder, f.subdir} {
		if sub == "" {
			continue
		}
		if st, err := os.Stat(filepath.Join(root, sub)); err == nil && st.IsDir() {
			return filepath.Join(root, sub)
		}
	}
	return root
}

// readNote reads the daily note at path, of day, into res: its entries,
// or the reason it is skipped.
func (f notesFormat) readNote(res *Result, path string, day time.Time, stem string) {
	b, err := os.ReadFile(path)
	switch {
	case err != nil:
		res.skip(path, WhyUnreadable, "cannot be read: %v", err)
	case len(b) > maxNote:
		res.skip(path, WhyTooLong, "the note is %d MiB, over the %d MiB a day file holds", len(b)>>20, maxNote>>20)
	case !utf8.Valid(b):
		res.skip(path, WhyNotUTF8, "%s", notUTF8(b))
	case emptyNote(string(b)):
		// Nothing to import: Logseq makes today's page before anything is written.
	case f.items:
		res.Entries = append(res.Entries, noteItems(b, day, filepath.Base(stem), path)...)
	default:
		res.Entries = append(res.Entries, Entry{At: day, Local: true, Text: string(b), From: path})
	}
}

// notUTF8 says where b, which is not valid UTF-8, first breaks.
func notUTF8(b []byte) string {
	i := 0
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	line, col := lineCol(b, i)
	return fmt.Sprintf("not UTF-8 text: byte 0x%02X at line %d, column %d (save it as UTF-8 and import it again)", b[i], line, col)
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
