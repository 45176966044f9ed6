package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// CapturedOptions say what agent traffic Captured writes: the turns a
// Claude Code session's hooks capture (docs/agents.md), in work-journal
// prose, on the days given.
type CapturedOptions struct {
	Seed   uint64
	Days   []date.Date // the days to write turns on, each once
	PerDay int         // turns a day (a user's prompt or an answer each)
	Facts  int         // facts planted in short sessions of their own, at most len(factBank rows)
}

// CapturedTraffic is what Captured writes: import lines, and the planted
// facts whose only statement is an answer of a captured session.
type CapturedTraffic struct {
	Lines []daybook.ImportLine
	Facts []Fact
}

// Captured returns captured agent traffic: on each of o.Days, o.PerDay
// turns in sessions of 6 to 20, "User: …" and "Assistant: …" in turn,
// tagged as the hooks tag a capture (#claude-code, #session-XXXXXXXX,
// #project-NAME), between 08:00 and 22:00 UTC; and o.Facts planted facts,
// each the answer of a two-turn session of its own on one of the days.
// The prose is the generator's work journal, unrelated to anything else.
// The same options give the same traffic.
func Captured(o CapturedOptions) CapturedTraffic {
	var out CapturedTraffic
	if len(o.Days) == 0 {
		return out
	}
	last := o.Days[0]
	for _, d := range o.Days {
		if d.After(last) {
			last = d
		}
	}
	p := newPlan(Options{Years: 1, Seed: o.Seed, End: last})
	r := rand.New(rand.NewPCG(o.Seed, 0x636170747572)) // "captur"
	session := func() []string {
		proj := "daybook"
		if len(p.projects) > 0 {
			proj = p.projects[r.IntN(len(p.projects))].name
		}
		return []string{dayfiles.TagClaudeCode, fmt.Sprintf("%s%08x", dayfiles.TagSessionPrefix, r.Uint32()),
			dayfiles.TagProjectPrefix + strings.ToLower(strings.ReplaceAll(proj, " ", "-"))}
	}
	for _, d := range o.Days {
		i := int(d.In(time.UTC).Sub(p.from.In(time.UTC)).Hours() / 24)
		i = min(max(i, 0), len(p.days)-1)
		c := composer{p: p, r: rand.New(rand.NewPCG(o.Seed^0x5eed, uint64(i+1))), i: i}
		c.people, c.projects = p.around(i)
		c.topicCum = p.topicWeights(i, nil)
		var tags []string
		left := 0
		for k := range o.PerDay {
			if left == 0 {
				tags, left = session(), 6+r.IntN(15)
			}
			left--
			text := "User: " + flat(c.entry(1).Text)
			if k%2 == 1 {
				text = "Assistant: " + flat(c.entry(1).Text) + " " + flat(c.entry(1).Text)
			}
			at := d.At(8, 0, time.UTC).Add(time.Duration(k*14*3600/max(o.PerDay, 1)) * time.Second)
			out.Lines = append(out.Lines, daybook.ImportLine{At: at.Format(time.RFC3339), Text: text, Tags: tags})
		}
	}
	var rows [][2]int
	for t, ft := range factBank {
		for i := range ft.rows {
			rows = append(rows, [2]int{t, i})
		}
	}
	r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	for k := range min(o.Facts, len(rows)) {
		ft := factBank[rows[k][0]]
		row := ft.rows[rows[k][1]]
		d := o.Days[r.IntN(len(o.Days))]
		at := d.At(8+r.IntN(14), r.IntN(60), time.UTC)
		tags := session()
		text := fill(ft.text, row)
		out.Lines = append(out.Lines,
			daybook.ImportLine{At: at.Format(time.RFC3339), Text: "User: can you note this down for me, please", Tags: tags},
			daybook.ImportLine{At: at.Add(20 * time.Second).Format(time.RFC3339), Text: "Assistant: Noted: " + text, Tags: tags})
		out.Facts = append(out.Facts, Fact{Q: fill(ft.q, row), Days: []string{d.String()}, Text: text, Key: row[ft.key], Kind: string(ft.kind)})
	}
	return out
}

// flat is s on one line.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
