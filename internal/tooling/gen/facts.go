package gen

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// FactsPerYear is how many facts are planted per generated year, up to the
// size of the fact bank.
const FactsPerYear = 10

// Fact is one line of facts.jsonl: a question and the days whose entries
// answer it. Text, Key and Kind are there for scoring: the entry text on the
// first day, the rare words it shares with the question, and its kind.
type Fact struct {
	Q    string   `json:"q"`
	Days []string `json:"days"`
	Text string   `json:"text"`
	Key  string   `json:"key"`
	Kind string   `json:"kind"`
	When string   `json:"when,omitempty"` // the temporal phrase in Q, if any
}

// plantedFact is a fact entry to write on a day.
type plantedFact struct {
	kind dayfiles.Kind
	tag  string
	tags []string // instead of tag, when set: a captured agent turn's
	text string
}

var againPrefixes = []string{"Noting again: ", "Reminder: ", "Still true: ", "Confirmed today: "}

// plantFacts chooses the facts, spreads them over the days with files and
// records which day gets which fact entry.
func (p *plan) plantFacts(r *rand.Rand) {
	var rows [][2]int // template, row
	for t, ft := range factBank {
		for i := range ft.rows {
			rows = append(rows, [2]int{t, i})
		}
	}
	r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	var written []int
	for i, d := range p.days {
		if d.written {
			written = append(written, i)
		}
	}
	n := min(FactsPerYear*p.opts.Years, len(rows), len(written))
	if n == 0 {
		return
	}
	taken := make([]bool, len(p.days))
	for k := 0; k < n; k++ {
		// One fact per segment of the written days, so they cover the range.
		lo, hi := k*len(written)/n, (k+1)*len(written)/n
		first := written[lo+r.IntN(hi-lo)]
		ft := factBank[rows[k][0]]
		row := ft.rows[rows[k][1]]
		text := fill(ft.text, row)
		f := Fact{Q: fill(ft.q, row), Text: text, Key: row[ft.key], Kind: string(ft.kind)}
		days := []int{first}
		taken[first] = true
		if r.IntN(4) == 0 { // some facts are noted again on one or two later days
			for range 1 + r.IntN(2) {
				next := days[len(days)-1] + 7 + r.IntN(90)
				for next < len(p.days) && (!p.days[next].written || taken[next]) {
					next++
				}
				if next >= len(p.days) {
					break
				}
				days = append(days, next)
				taken[next] = true
			}
		}
		for j, di := range days {
			t := text
			if j > 0 {
				t = againPrefixes[r.IntN(len(againPrefixes))] + text
			}
			p.days[di].facts = append(p.days[di].facts, plantedFact{kind: ft.kind, tag: ft.tag, text: t})
			f.Days = append(f.Days, p.days[di].date.String())
		}
		p.facts = append(p.facts, f)
	}
	// About a fifth of the questions name the time of a single-day fact.
	var single []int
	for i, f := range p.facts {
		if len(f.Days) == 1 {
			single = append(single, i)
		}
	}
	r.Shuffle(len(single), func(i, j int) { single[i], single[j] = single[j], single[i] })
	for _, i := range single[:min(len(single), (len(p.facts)+2)/5)] {
		f := &p.facts[i]
		d := date.MustParse(f.Days[0])
		f.When = temporalPhrase(d, p.to, r)
		f.Q = strings.ToUpper(f.When[:1]) + f.When[1:] + ", " + f.Q
	}
}

// temporalPhrase names the month of d: "last June" when d falls in the most
// recent June before end's month, else "in June 2024".
func temporalPhrase(d, end date.Date, r *rand.Rand) string {
	last := date.Month{Year: end.Year, Month: d.Month}
	if d.Month >= end.Month {
		last.Year--
	}
	if d.MonthOf() == last && r.IntN(2) == 0 {
		return "last " + d.Month.String()
	}
	return fmt.Sprintf("in %s %d", d.Month, d.Year)
}

// fill replaces {0}, {1}... in s with row's values.
func fill(s string, row []string) string {
	for i, v := range row {
		s = strings.ReplaceAll(s, fmt.Sprintf("{%d}", i), v)
	}
	return s
}

func writeFacts(path string, facts []Fact) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, f := range facts {
		if err := enc.Encode(f); err != nil {
			return fmt.Errorf("encoding facts: %w", err)
		}
	}
	return writeNew(path, []byte(b.String()))
}

// ReadFacts reads a facts.jsonl file as Write writes it.
func ReadFacts(path string) ([]Fact, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading facts: %w", err)
	}
	defer f.Close()
	var out []Fact
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var fact Fact
		if err := json.Unmarshal(sc.Bytes(), &fact); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if fact.Q == "" || len(fact.Days) == 0 {
			return nil, fmt.Errorf("%s:%d: a fact needs q and days", path, n)
		}
		out = append(out, fact)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return out, nil
}
