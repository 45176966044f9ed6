// Package importer reads the journals and chat logs people keep elsewhere
// (Obsidian and Logseq daily notes, jrnl, Day One, ChatGPT, LoCoMo
// conversations) into entries for daybook's day files. It only reads: the
// source is never written, and writing the entries (with their dedupe) is
// the caller's.
package importer

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Entry is one entry read from a source.
type Entry struct {
	// At is when the entry was written. With Local set, At's wall clock is
	// a local time without a zone (a note dated by its file name, a jrnl
	// timestamp), to be taken in the configured zone; otherwise At is an
	// instant.
	At    time.Time
	Local bool
	Text  string
	Kind  string   // empty: a note
	Tags  []string // valid daybook tags, without '#'
	From  string   // where it was read: file:line, or file#index
}

// AtString is At as an import line's "at": RFC 3339 with its offset for an
// instant, a local time without a zone otherwise.
func (e Entry) AtString() string {
	if e.Local {
		return e.At.Format("2006-01-02T15:04:05")
	}
	return e.At.Format(time.RFC3339)
}

// Skip is a part of the source that was not read into an entry, and why.
type Skip struct {
	From   string // file:line, or file#index
	Why    string // one of the Why constants: what a summary counts
	Reason string // the whole story, naming what is wrong
}

// The kinds of skipped input a summary counts.
const (
	WhyNotADate   = "not named by a date"
	WhyNoTime     = "with no time"
	WhyBadTime    = "with a bad time"
	WhyNoText     = "with no text"
	WhyTooLong    = "too long"
	WhyMalformed  = "malformed"
	WhyUnreadable = "unreadable"
	WhyNotUTF8    = "not UTF-8"
	WhyOutside    = "outside the date window"
	WhyRefused    = "refused" // an entry the day files cannot take as it is
)

func (s Skip) String() string { return s.From + ": " + s.Reason }

// Result is what a Format read from a source.
type Result struct {
	Entries []Entry
	Skipped []Skip
	// NotDaily counts the notes of a vault that are not daily notes (not
	// in the daily notes folder, or not named by a date): not imported,
	// and not bad input.
	NotDaily int
}

func (r *Result) skip(from, why, format string, args ...any) {
	r.Skipped = append(r.Skipped, Skip{From: from, Why: why, Reason: fmt.Sprintf(format, args...)})
}

// Options tune how a source is read.
type Options struct {
	// Pattern is the layout of a daily note's file name without ".md",
	// in Obsidian's moment.js tokens (YYYY-MM-DD); empty: the format's default.
	Pattern string
}

// Format reads one kind of source. Read returns an error only when the
// source cannot be read at all (a missing file, a file that is not the
// format); bad parts of a readable source are in Result.Skipped.
type Format interface {
	Read(path string, opt Options) (Result, error)
}

// formats is the table Lookup reads; it is never written.
var formats = map[string]Format{
	"obsidian": notesFormat{defaultPattern: "YYYY-MM-DD", name: "obsidian", settings: obsidianSettings, items: true, others: true},
	"logseq":   notesFormat{defaultPattern: "yyyy_MM_dd", name: "logseq", subdir: "journals", dateFns: true, settings: logseqSettings},
	"jrnl":     jrnlFormat{},
	"dayone":   dayOneFormat{},
	"chatgpt":  chatGPTFormat{},
	"locomo":   loCoMoFormat{},
}

// Names lists the formats Lookup knows, sorted.
func Names() []string {
	var out []string
	for n := range formats {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Lookup returns the format called name.
func Lookup(name string) (Format, error) {
	if f, ok := formats[strings.ToLower(name)]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown import format %q (known: jsonl, %s)", name, strings.Join(Names(), ", "))
}

// Tag turns a source's tag ("@Work", "Work trip", "#ops") into a daybook
// tag: lower case, spaces and other characters a tag cannot hold as '-'.
// It returns "" when nothing of it can be a tag (it must start with a letter).
func Tag(s string) string {
	s = strings.TrimLeft(strings.TrimSpace(s), "#@")
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || (b.Len() > 0 && (unicode.IsDigit(r) || r == '_' || r == '/')):
			b.WriteRune(r)
		case b.Len() > 0:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-_/")
}
