package consolidate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/words"
)

// FormatVersion is the version of the summary file layout and of what
// consolidation computes into it (3: People lists only people; the offline
// summarizer is offline/extractive-v2). It is part of every input digest,
// so a new version redoes every summary on the next run.
const FormatVersion = 3

// Summary is a summary file: its front matter and the sections of its body.
type Summary struct {
	Period Period
	Path   string // where it was read from or written to
	Rel    string // relative to the data dir: summaries/2026/11/22.md

	Digest      string    // digest of its inputs
	Summarizer  string    // name of the Summarizer that wrote the prose
	WrittenAt   time.Time // when daybook wrote it
	ContentHash string    // sha256 of the body as daybook wrote it
	Counts      Counts

	Title            string
	Prose            string
	Decisions        []Decision
	DecisionsOmitted int // a year: decisions its months list beyond those shown here
	Tags             []Count
	People           []Count
	Keywords         []Count    // the words the period uses most, a key beside the prose (keywords.go)
	Busiest          []DayCount // a month or a year: its busiest days

	months map[int]bool // a year being written: the months that have decisions
	edited bool         // read from a file whose body or front matter is not as daybook wrote it
}

// Edited reports whether a summary read by ReadSummary was edited by a
// person since daybook wrote it: its body does not match the content hash
// in its front matter, or the front matter has a comment, key or layout of
// the person's. A consolidation keeps such a summary (Force aside).
func (s *Summary) Edited() bool { return s.edited }

// ID returns the summary's id: day:2026-11-22, month:2026-11, year:2026.
func (s *Summary) ID() string { return s.Period.ID() }

// Counts are the numbers of a summary's front matter.
type Counts struct {
	Days      int `yaml:"days"` // days with entries
	Entries   int `yaml:"entries"`
	Notes     int `yaml:"notes"`
	Decisions int `yaml:"decisions"`
	Facts     int `yaml:"facts"`
	Events    int `yaml:"events"`
	Todos     int `yaml:"todos"`
}

func (c *Counts) add(o Counts) {
	c.Days += o.Days
	c.Entries += o.Entries
	c.Notes += o.Notes
	c.Decisions += o.Decisions
	c.Facts += o.Facts
	c.Events += o.Events
	c.Todos += o.Todos
}

// Decision is a decision entry kept verbatim with where it was written.
type Decision struct {
	Ref  string // days/2026/11/22.md:7
	Path string // days/2026/11/22.md
	Line int
	Time string // 09:14
	Text string // verbatim, continuation lines joined with "\n"
}

// Count is a tag or a person with how many entries name it.
type Count struct {
	Name string // a tag without '#', a name, or an @handle
	N    int
}

// DayCount is a day with its number of entries.
type DayCount struct {
	Date    string
	Entries int
}

// hashBody returns the content hash of a summary body.
func hashBody(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// hashBytes returns the hash of a whole file as the state records it.
func hashBytes(b []byte) string { return hashBody(b) }

// statsLine renders counts as one sentence.
func (c Counts) statsLine(level date.Level) string {
	var parts []string
	if level != date.LevelDay {
		parts = append(parts, words.Count(c.Days, "day")+" with entries")
	}
	parts = append(parts, words.Count(c.Entries, "entry"))
	for _, k := range []struct {
		n    int
		name string
	}{{c.Decisions, "decision"}, {c.Facts, "fact"}, {c.Events, "event"}, {c.Todos, "todo"}, {c.Notes, "free-text note"}} {
		if k.n > 0 {
			parts = append(parts, words.Count(k.n, k.name))
		}
	}
	return strings.Join(parts, ", ")
}
