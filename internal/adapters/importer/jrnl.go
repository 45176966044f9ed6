package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/internal/util/words"
)

// jrnlFormat reads a jrnl journal: its plain-text file or its JSON export
// (jrnl --format json), told apart by the first character.
type jrnlFormat struct{}

func (jrnlFormat) Read(path string, _ Options) (Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Result{}, fmt.Errorf("reading jrnl journal: %w", err)
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		return readJrnlJSON(path, b)
	}
	return readJrnlText(path, string(b)), nil
}

// jrnlStart is the line that opens an entry: "[2012-03-29 09:00] Title".
// Other timeformat settings than jrnl's default "%Y-%m-%d %H:%M" are read
// as long as the bracket holds a date and a time in one of jrnlLayouts.
var jrnlStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([^\]]+)\] ?(.*)$`) })

// jrnlDated is the start of a bracket that is meant as an entry's time: a
// date. A header like "[2024-03-02 25:61]" whose time does not parse is a
// bad entry, reported, not a line of the entry above.
var jrnlDated = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\d{4}-\d{1,2}-\d{1,2}\b`) })

var jrnlLayouts = []string{"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02 03:04 PM", "2006-01-02 3:04 PM", "2006-01-02"}

// jrnlTag is a jrnl tag: "@" and word characters, as jrnl's tag_regex.
var jrnlTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)@([\w][-+*#/\w]*)`) })

func parseJrnlTime(s string) (time.Time, bool) {
	for _, l := range jrnlLayouts {
		if t, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func readJrnlText(path, s string) Result {
	var res Result
	type open struct {
		line  int
		at    time.Time
		lines []string
		bad   string // why the header's time does not parse: the entry is skipped
	}
	var cur *open
	var lead []int // lines of text before the first entry
	flush := func() {
		if cur == nil {
			return
		}
		if cur.bad != "" {
			body := 0
			for _, l := range cur.lines[1:] {
				if strings.TrimSpace(l) != "" {
					body++
				}
			}
			res.skip(fmt.Sprintf("%s:%d", path, cur.line), WhyBadTime, "%s (%s; the entry and %s of its text are skipped)",
				strings.TrimSpace(cur.bad), cur.lines[0], words.Count(body, "line"))
			return
		}
		title := strings.TrimRight(cur.lines[0], " ")
		starred := strings.HasSuffix(title, " *") || title == "*"
		if starred {
			title = strings.TrimRight(strings.TrimSuffix(title, "*"), " ")
		}
		text := strings.TrimSpace(strings.Join(append([]string{title}, cur.lines[1:]...), "\n"))
		from := fmt.Sprintf("%s:%d", path, cur.line)
		if text == "" {
			res.skip(from, WhyNoText, "the entry has no text")
			return
		}
		res.Entries = append(res.Entries, Entry{At: cur.at, Local: true, Text: text, Tags: jrnlTags(text, nil, starred), From: from})
	}
	for i, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if m := jrnlStart().FindStringSubmatch(line); m != nil {
			if at, ok := parseJrnlTime(m[1]); ok {
				flush()
				cur = &open{line: i + 1, at: at, lines: []string{m[2]}}
				continue
			}
			if jrnlDated().MatchString(m[1]) {
				flush()
				why := fmt.Sprintf("%q is not a date and time like 2012-03-29 09:00", m[1])
				cur = &open{line: i + 1, lines: []string{why}, bad: line}
				continue
			}
		}
		if cur == nil {
			if strings.TrimSpace(line) != "" {
				lead = append(lead, i+1)
			}
			continue
		}
		cur.lines = append(cur.lines, line)
	}
	flush()
	if len(lead) > 0 {
		res.Skipped = append([]Skip{{From: fmt.Sprintf("%s:%d", path, lead[0]), Why: WhyNoTime,
			Reason: fmt.Sprintf("%d lines before the first entry have no [date time]", len(lead))}}, res.Skipped...)
	}
	if len(res.Entries) == 0 && len(res.Skipped) == 0 {
		res.skip(path, WhyNoTime, "no entries: a jrnl entry starts with a line like [2012-03-29 09:00] Title")
	}
	return res
}

// jrnlTags returns the daybook tags of a jrnl entry: its @tags (from the
// text, or as exported), and "starred" for a starred entry.
func jrnlTags(text string, exported []string, starred bool) []string {
	var out []string
	add := func(t string) {
		if t = Tag(t); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, m := range jrnlTag().FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	for _, t := range exported {
		add(t)
	}
	if starred {
		add("starred")
	}
	return out
}

func readJrnlJSON(path string, b []byte) (Result, error) {
	var res Result
	var in struct {
		Entries []json.RawMessage `json:"entries"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return res, fmt.Errorf("reading jrnl JSON export: %w", jsonError(path, b, err))
	}
	for i, raw := range in.Entries {
		from := fmt.Sprintf("%s: entry %d", path, i+1)
		var e struct {
			Title   string   `json:"title"`
			Body    string   `json:"body"`
			Date    string   `json:"date"`
			Time    string   `json:"time"`
			Tags    []string `json:"tags"`
			Starred bool     `json:"starred"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			res.skip(from, WhyMalformed, "not a jrnl entry: %v", jsonWhat(err))
			continue
		}
		if e.Time == "" {
			res.skip(from, WhyNoTime, "no time")
			continue
		}
		at, err := time.Parse("2006-01-02 15:04", e.Date+" "+e.Time)
		if err != nil {
			res.skip(from, WhyBadTime, "date %q and time %q are not YYYY-MM-DD and HH:MM", e.Date, e.Time)
			continue
		}
		text := strings.TrimSpace(strings.TrimSpace(e.Title) + "\n" + strings.TrimRight(e.Body, " \n"))
		if text == "" {
			res.skip(from, WhyNoText, "the entry has no text")
			continue
		}
		res.Entries = append(res.Entries, Entry{At: at, Local: true, Text: text, Tags: jrnlTags(text, e.Tags, e.Starred), From: from})
	}
	return res, nil
}
