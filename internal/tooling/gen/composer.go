package gen

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles"
)

// Entry templates by kind, for work topics and personal ones. Words in
// braces are filled by composer.word.
var (
	workTemplates = map[dayfiles.Kind][]string{
		dayfiles.KindFact: {
			"The {comp} {metric} is {num}{unit} on {project} after the last deploy.",
			"{person} says the {comp} has {num} open tickets.",
			"{project} staging now runs build {num}.",
			"The {comp} config for {project} lives in the main repo, not the infra repo.",
			"The {comp} {metric} dropped to {num}{unit} overnight.",
			"{person} owns the {comp} for {project} from now on.",
		},
		dayfiles.KindDecision: {
			"Decided to {verb} the {comp} {prep} {target} because {reason}.",
			"Going with {person}'s proposal for {project}: {verb} the {comp} {prep} {target}.",
			"Decided {project} will not {verb} the {comp} this quarter; {reason}.",
		},
		dayfiles.KindNote: {
			"Paired with {person} on the {comp}; {comment}.",
			"Read {person}'s design doc for {project}: {comment}.",
			"Spent the afternoon on the {comp} for {project}.",
			"{mood}",
			"Looked into the {comp} {metric}; {comment}.",
			"Notes from the {project} sync: {comment}.",
		},
		dayfiles.KindTodo: {
			"Follow up with {person} about the {comp}.",
			"Review {person}'s PR for the {comp}.",
			"Write up notes on the {comp} for {project}.",
			"Ask {person} for the {project} numbers.",
			"Fix the {comp} {metric} alert threshold.",
		},
		dayfiles.KindEvent: {
			"1:1 with {person}.",
			"Standup: {project} {comp} is {status}.",
			"Deployed {project} {version} to production.",
			"{project} demo went {how}.",
			"Incident: {comp} {metric} at {num}{unit}, paged {person}.",
		},
	}
	personalTemplates = map[dayfiles.Kind][]string{
		dayfiles.KindFact: {
			"The {comp} took {num} minutes today.",
			"{comp}: spent {num} euros so far.",
			"{person} recommended a new approach for the {comp}.",
		},
		dayfiles.KindDecision: {
			"Decided to do the {comp} on weekends from now on.",
			"Decided to put the {comp} off until next month because {preason}.",
		},
		dayfiles.KindNote: {
			"Weather: {weather}.",
			"{mood}",
			"Worked on the {comp} for an hour.",
			"Chatted with {person} about the {comp}.",
		},
		dayfiles.KindTodo: {
			"Sort out the {comp}.",
			"Call {person} about the {comp}.",
			"Buy what the {comp} needs.",
		},
		dayfiles.KindEvent: {
			"Lunch with {person} at {place}.",
			"{comp} this morning, felt {how}.",
			"Dinner with {person} at {place}.",
		},
	}
	continuations = []string{
		"Context: the {comp} has been {status} since {weekday}.",
		"Next step: ask {person} to double-check.",
		"Numbers: {metric} {num}{unit} before, {num}{unit} after.",
		"Link: https://git.example.com/{slug}/pull/{num}",
		"{comment}, according to {person}.",
		"Open question: does the {comp} need its own owner?",
	}
	kindCum  = []float64{15, 23, 63, 83, 100} // fact, decision, note, todo, event
	statuses = []string{"on track", "blocked", "slipping", "done", "in review"}
	hows     = []string{"well", "okay", "badly", "better than expected"}
	preasons = []string{"money is tight this month", "the weather is bad", "there is too much on at work", "the kids are ill"}
)

// composer writes the filler of one day.
type composer struct {
	p        *plan
	r        *rand.Rand
	i        int // day index
	people   []person
	projects []project
	topicCum []float64
	topic    topic // of the entry being written
	metric   int
}

// around returns the people and projects active on day i.
func (p *plan) around(i int) ([]person, []project) {
	var ps []person
	for _, x := range p.people {
		if x.from <= i && i <= x.to {
			ps = append(ps, x)
		}
	}
	var pj []project
	for _, x := range p.projects {
		if x.from <= i && i <= x.to {
			pj = append(pj, x)
		}
	}
	return ps, pj
}

// entry returns a filler entry of at most budget lines, without its time.
func (c *composer) entry(budget int) dayfiles.NewEntry {
	r := c.r
	c.topic = topics[pick(r, c.topicCum)]
	c.metric = r.IntN(len(metrics))
	kind := dayfiles.Kinds[pick(r, kindCum)]
	tmpls := workTemplates[kind]
	if c.topic.personal {
		tmpls = personalTemplates[kind]
	}
	var b strings.Builder
	c.expand(&b, tmpls[r.IntN(len(tmpls))])
	extra := 0
	switch x := r.IntN(100); {
	case x < 70:
	case x < 88:
		extra = 1
	case x < 96:
		extra = 2
	default:
		extra = 3
	}
	for range min(extra, budget-1) {
		b.WriteByte('\n')
		c.expand(&b, continuations[r.IntN(len(continuations))])
	}
	var tags []string
	if x := r.IntN(100); x >= 15 {
		tags = append(tags, c.topic.tags[0])
		if x >= 70 {
			tags = append(tags, c.topic.tags[1])
		}
		if r.IntN(10) < 3 {
			if t := tagVocab[pick(r, c.p.tagCum)]; t != tags[0] && (len(tags) == 1 || t != tags[1]) {
				tags = append(tags, t)
			}
		}
	}
	return dayfiles.NewEntry{Kind: kind, Text: capitalize(b.String()), Tags: tags}
}

// note returns a free-text note: a heading with a paragraph, commands in a
// fenced code block, or a checklist.
func (c *composer) note() []string {
	r := c.r
	c.topic = topics[pick(r, c.topicCum)]
	c.metric = r.IntN(len(metrics))
	var b strings.Builder
	line := func(tmpl string) string {
		b.Reset()
		c.expand(&b, tmpl)
		return capitalize(b.String())
	}
	switch r.IntN(3) {
	case 0:
		out := []string{"## Thoughts on " + c.topic.name, ""}
		for range 2 + r.IntN(3) {
			out = append(out, line(continuations[r.IntN(len(continuations))]))
		}
		return append(out, line("{mood}"))
	case 1:
		out := []string{line("Commands for the {comp}:"), "", "```sh"}
		for range 2 + r.IntN(4) {
			out = append(out, cmds[r.IntN(len(cmds))])
		}
		return append(out, "```")
	default:
		out := []string{line("### {project} checklist"), ""}
		for range 3 + r.IntN(4) {
			box := "- [ ] "
			if r.IntN(2) == 0 {
				box = "- [x] "
			}
			out = append(out, box+line(workTemplates[dayfiles.KindTodo][r.IntN(len(workTemplates[dayfiles.KindTodo]))]))
		}
		return out
	}
}

// expand writes tmpl to b with each {word} filled in.
func (c *composer) expand(b *strings.Builder, tmpl string) {
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return
		}
		j := strings.IndexByte(tmpl[i:], '}') + i
		b.WriteString(tmpl[:i])
		b.WriteString(c.word(tmpl[i+1 : j]))
		tmpl = tmpl[j+1:]
	}
}

func (c *composer) word(name string) string {
	r := c.r
	switch name {
	case "comp":
		return c.topic.components[r.IntN(len(c.topic.components))]
	case "metric":
		return metrics[c.metric]
	case "unit":
		return units[c.metric]
	case "num":
		return strconv.Itoa(1 + r.IntN(400))
	case "person":
		if len(c.people) == 0 {
			return "the team"
		}
		x := c.people[r.IntN(len(c.people))]
		if x.handle != "" && r.IntN(3) == 0 {
			return x.handle
		}
		return x.name
	case "project", "slug":
		p := "the platform"
		if len(c.projects) > 0 {
			p = c.projects[r.IntN(len(c.projects))].name
		}
		if name == "slug" {
			return strings.ToLower(strings.ReplaceAll(p, " ", "-"))
		}
		return p
	case "version":
		return "v" + strconv.Itoa(1+r.IntN(4)) + "." + strconv.Itoa(r.IntN(20)) + "." + strconv.Itoa(r.IntN(10))
	case "weekday":
		return time.Weekday(1 + r.IntN(5)).String()
	}
	if list, ok := wordLists[name]; ok {
		return list[r.IntN(len(list))]
	}
	panic("gen: unknown template word {" + name + "}")
}

var wordLists = map[string][]string{
	"verb": verbs, "prep": preps, "target": targets, "reason": reasons, "comment": comments,
	"mood": moods, "weather": weather, "place": places, "status": statuses, "how": hows,
	"preason": preasons,
}

// capitalize upper-cases the first letter of each line of s.
func capitalize(s string) string {
	buf := []byte(s)
	for i := range buf {
		if (i == 0 || buf[i-1] == '\n') && 'a' <= buf[i] && buf[i] <= 'z' {
			buf[i] -= 'a' - 'A'
		}
	}
	return string(buf)
}
