// Package eval measures recall against a hand-written question set: each
// question names the days that answer it, each mode of recall (drill, bm25,
// vector, linear) answers every question, and the ranks of the first right
// answer give hit@1, hit@5, hit@10 and the mean reciprocal rank, beside the
// latency of each mode, so that the modes can be compared from one run.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/daybook/daybook/dayfiles/date"
)

// Question is one line of a question file:
//
//	{"q": "in June 2025 who did I meet about the migration?", "days": ["2025-06-12"]}
//
// Days are the gold days: a result on any of them answers the question.
type Question struct {
	Q    string   `json:"q"`
	Days []string `json:"days"`

	// What "daybook gen" adds to each planted fact in facts.jsonl, so that
	// its file is a question set as it stands; eval does not use them.
	Text string `json:"text,omitempty"`
	Key  string `json:"key,omitempty"`
	Kind string `json:"kind,omitempty"`
	When string `json:"when,omitempty"`

	// Category groups questions in a report (a dialogue set's 1 fact, 2
	// date, 3 inference); 0 for none.
	Category int `json:"category,omitempty"`

	gold map[date.Date]bool
	line int
}

// Line returns the line of the question file the question was read from.
func (q Question) Line() int { return q.line }

// ReadQuestions reads a question file, one JSON object per line; blank lines
// are skipped. An error names the file (name), the line and what is wrong.
func ReadQuestions(r io.Reader, name string) ([]Question, error) {
	var out []Question
	err := eachLine(r, name, func(n int, line []byte) error {
		q, err := parseQuestion(line)
		if err != nil {
			return err
		}
		q.line = n
		out = append(out, q)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no questions", name)
	}
	return out, nil
}

// eachLine calls f with each line of a JSON-lines file that is not blank,
// trimmed, and its number; an error of f's comes back as name:line: err.
func eachLine(r io.Reader, name string, f func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := f(n, line); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	return nil
}

func parseQuestion(line []byte) (Question, error) {
	var q Question
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return q, fmt.Errorf("parsing question: %w", err)
	}
	if dec.More() {
		return q, fmt.Errorf("more than one JSON value on the line")
	}
	if strings.TrimSpace(q.Q) == "" {
		return q, fmt.Errorf(`field "q" is empty`)
	}
	if len(q.Days) == 0 {
		return q, fmt.Errorf(`field "days" is empty: name at least one day that answers %q`, q.Q)
	}
	q.gold = make(map[date.Date]bool, len(q.Days))
	for _, s := range q.Days {
		d, err := date.Parse(s)
		if err != nil {
			return q, fmt.Errorf(`field "days": %w`, err)
		}
		q.gold[d] = true
	}
	return q, nil
}
