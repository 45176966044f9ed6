package dayfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/daybook/daybook/internal/util/date"
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
	// The whitespace-normalised text, built in a stack buffer when it fits:
	// Parse computes an id for every entry of every file it reads.
	var small [512]byte
	norm := small[:0]
	if len(text) > len(small) {
		norm = make([]byte, 0, len(text)) // never longer than the text
	}
	for w := range strings.FieldsSeq(text) {
		if len(norm) > 0 {
			norm = append(norm, ' ')
		}
		norm = append(norm, w...)
	}
	sum := sha256.Sum256(norm)
	id := make([]byte, 0, 32)
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
	id = hex.AppendEncode(id, sum[:idHashLen/2])
	if n > 1 {
		id = append(id, '-')
		id = strconv.AppendInt(id, int64(n), 10)
	}
	return EntryID(id)
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
