package dayfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/daybook/daybook/dayfiles/date"
)

// EntryID is an entry's id, "2026-11-22T09:14-3fa2b1c4d5e6" or, for the n-th
// entry of a day with the same time and text, "2026-11-22T09:14-3fa2b1c4d5e6-n".
// This file is the one place that knows the layout.
type EntryID string

// The layout: the day and the time ("2026-11-22T09:14-"), then idHashLen hex
// digits of the text's hash; the base id is both, without "-n".
const (
	idHeadLen = len("2006-01-02T15:04-")
	idHashLen = 12
	idBaseLen = idHeadLen + idHashLen
)

// NewEntryID returns the stable id of an entry: its day, its time and the first
// six bytes of the SHA-256 of its whitespace-normalised text, as
// "2026-11-22T09:14-3fa2b1c4d5e6". Edits elsewhere in the file do not change it;
// editing the entry's own text or time does. n > 1 marks the n-th entry of the
// day with the same time and text ("...-2").
func NewEntryID(d date.Date, hour, minute int, text string, n int) EntryID {
	id := appendEntryID(make([]byte, 0, 32), d, hour, minute, text)
	if n > 1 {
		id = append(id, '-')
		id = strconv.AppendInt(id, int64(n), 10)
	}
	return EntryID(id)
}

// appendEntryID appends the base id of an entry (NewEntryID's without "-n",
// idBaseLen bytes) to id.
func appendEntryID(id []byte, d date.Date, hour, minute int, text string) []byte {
	// The whitespace-normalised text, built in a stack buffer when it fits:
	// Parse computes an id for every entry of every file it reads.
	var small [512]byte
	norm := small[:0]
	if len(text) > len(small) {
		norm = make([]byte, 0, len(text)) // never longer than the text
	}
	sum := sha256.Sum256(appendFields(norm, text))
	id = appendPadded(id, d.Year, 4)
	id = append(id, '-')
	id = appendPadded(id, int(d.Month), 2)
	id = append(id, '-')
	id = appendPadded(id, d.Day, 2)
	id = append(id, 'T')
	id = appendPadded(id, hour, 2)
	id = append(id, ':')
	id = appendPadded(id, minute, 2)
	id = append(id, '-')
	return hex.AppendEncode(id, sum[:idHashLen/2])
}

// Base is the id without the "-n" that tells equal entries of one day apart.
func (id EntryID) Base() string {
	if len(id) > idBaseLen && id[idBaseLen] == '-' {
		return string(id[:idBaseLen])
	}
	return string(id)
}

// TextHash is the part of the id that hashes the entry's text
// ("3fa2b1c4d5e6"); an id too short to hold one is returned whole.
func (id EntryID) TextHash() string {
	if len(id) < idBaseLen {
		return string(id)
	}
	return string(id[idHeadLen:idBaseLen])
}

// Day is the day of the id; ok is false when the id is not shaped like an
// entry id.
func (id EntryID) Day() (d date.Date, ok bool) { return ParseEntryID(string(id)) }

// ParseEntryID splits an entry id into its day and the rest; ok is false when
// s is not shaped like an entry id.
func ParseEntryID(s string) (d date.Date, ok bool) {
	if len(s) < idHeadLen || s[10] != 'T' {
		return date.Date{}, false
	}
	d, err := date.Parse(s[:10])
	return d, err == nil
}

// appendFields appends the words of text (strings.Fields' words: runs
// of what unicode.IsSpace says is not space) to dst, one space between
// them: strings.Fields joined by spaces, without the slice of words. An
// id is computed for every entry of every day file read, and a chat's
// answers run to kilobytes.
func appendFields(dst []byte, text string) []byte {
	if fieldsJoined(text) {
		return append(dst, text...) // most texts: already one space between words
	}
	first := true
	word := -1 // where the word being read started; -1 between words
	for i := 0; i < len(text); {
		c := text[i]
		size, space := 1, false
		if c < utf8.RuneSelf {
			space = asciiSpace[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			space = unicode.IsSpace(r)
		}
		if space && word >= 0 {
			dst, first = appendWord(dst, text[word:i], first), false
			word = -1
		} else if !space && word < 0 {
			word = i
		}
		i += size
	}
	if word >= 0 {
		dst = appendWord(dst, text[word:], first)
	}
	return dst
}

// fieldsJoined reports whether text is its words joined by single
// spaces: no space at either end, no two together, no space but ' '. The
// scans are the runtime's vectorised ones; the bytes that start a
// non-ASCII space (U+0085 and U+00A0: 0xC2; U+1680: 0xE1; U+2000 to
// U+205F: 0xE2; U+3000: 0xE3) send the text the slow way, spaces or not.
func fieldsJoined(text string) bool {
	if text == "" || text[0] == ' ' || text[len(text)-1] == ' ' || strings.Contains(text, "  ") {
		return false
	}
	for _, c := range []byte{'\t', '\n', '\v', '\f', '\r', 0xC2, 0xE1, 0xE2, 0xE3} {
		if strings.IndexByte(text, c) >= 0 {
			return false
		}
	}
	return true
}

// appendWord appends w to dst, after a space unless it is the first word.
func appendWord(dst []byte, w string, first bool) []byte {
	if !first {
		dst = append(dst, ' ')
	}
	return append(dst, w...)
}

// asciiSpace is unicode.IsSpace of the ASCII bytes.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
