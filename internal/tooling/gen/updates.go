package gen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/daybook/daybook/dayfiles"
)

// UpdatesFile is the name of the changed facts' questions under the data
// dir, written when Options.Updates is set.
const UpdatesFile = "updates.jsonl"

// MaxUpdates is the most changed facts one corpus plants: the size of the
// subject bank.
func MaxUpdates() int { return len(updateBank) }

// Update is one line of updates.jsonl: a question about a fact that
// changed, the value it has now and the values it had, and the entry that
// states the current value (its day and text). Echo says a captured agent
// turn restated an old value after the last change.
type Update struct {
	Q       string   `json:"q"`
	Current string   `json:"current"`
	Old     []string `json:"old"`
	Day     string   `json:"day"`
	Text    string   `json:"text"`
	Changes int      `json:"changes"`
	Echo    bool     `json:"echo,omitempty"`
}

// An updateSubject is a fact that changes: "the {s} is {v}". Values are
// the first value and up to three later ones; none of their words is in
// the filler vocabulary, nor in another subject.
type updateSubject struct {
	s      string
	tag    string
	move   bool // a place or venue: "moved to" reads right
	values []string
}

var updateBank = []updateSubject{
	{"garage door code", "home", false, []string{"4417", "5521", "8093", "2768"}},
	{"bike lock combination", "home", false, []string{"3902", "7714", "1586", "6240"}},
	{"storage unit keypad code", "home", false, []string{"91-44-07", "38-16-52", "70-29-83", "15-62-48"}},
	{"alarm panel passcode", "home", false, []string{"660813", "204957", "871326", "439580"}},
	{"gym locker number", "health", false, []string{"L-118", "L-342", "L-207", "L-455"}},
	{"residents' badge number", "car", false, []string{"PX-30417", "PX-58821", "PX-11930", "PX-74406"}},
	{"luggage padlock combination", "travel", false, []string{"085", "617", "943", "362"}},
	{"router admin passphrase", "admin", false, []string{"quokka-1187", "narwhal-5520", "pangolin-3349", "axolotl-7702"}},
	{"building intercom code", "home", false, []string{"B-2291", "B-6604", "B-8137", "B-4475"}},
	{"shed padlock code", "garden", false, []string{"7350", "2816", "9461", "5038"}},
	{"piano teacher", "family", false, []string{"Mrs Okafor", "Mr Lindqvist", "Ms Abernethy", "Mrs Castellano"}},
	{"family dentist", "health", false, []string{"Dr Halvorsen", "Dr Mbeki", "Dr Szabo", "Dr Quintero"}},
	{"landlord's agent", "home", false, []string{"Gwendolyn Marsh", "Percival Okoro", "Imelda Ferreira", "Desmond Achebe"}},
	{"tax accountant", "finance", false, []string{"Ruth Pemberton", "Anselm Vogt", "Keziah Lowe", "Florian Dubois"}},
	{"cat's vet", "family", false, []string{"Dr Ashworth", "Dr Nakagawa", "Dr Eriksen", "Dr Villanueva"}},
	{"babysitter", "family", false, []string{"Henrietta", "Marisol", "Oluwaseun", "Bronwyn"}},
	{"physiotherapist", "health", false, []string{"Callum Reddy", "Ottoline Hart", "Benedikt Maier", "Aurelie Roux"}},
	{"chimney sweep", "home", false, []string{"Trevelyan Plumbing", "Aquafix Brothers", "Copperpipe Ltd", "Drainwise"}},
	{"allotment secretary", "garden", false, []string{"Mr Featherstone", "Mrs Adeyemi", "Mr Kowalczyk", "Ms Fairbairn"}},
	{"broadband provider", "admin", false, []string{"Zentel", "Brightwave", "Fibrelux", "Koppernet"}},
	{"book club venue", "reading", true, []string{"the Crown and Anchor", "Thornbury Hall", "the Quillon Cafe", "Marchmont Library"}},
	{"choir rehearsal venue", "music", true, []string{"St Aldhelm's crypt", "the Wexley Institute", "Pennington Chapel", "the Oakhurst Barn"}},
	{"pottery class studio", "learning", true, []string{"Kilnworks on Fell Lane", "the Claybourne Studio", "Wheelhouse Arts", "the Glazery in Upton"}},
	{"spare key hiding place", "home", true, []string{"the Burleigh planter", "the Grimsdyke birdhouse", "the Alderney lantern", "the Pewsey boot rack"}},
	{"farmers market pitch", "cooking", true, []string{"Pitch 14 at Corbridge Square", "Pitch 3 at Hexham Yard", "Pitch 22 at Alnwick Green", "Pitch 9 at Rothbury Cross"}},
	{"swimming lesson slot", "family", false, []string{"Tuesday 17:30", "Thursday 16:45", "Saturday 09:15", "Wednesday 18:10"}},
	{"orthodontist appointment", "health", false, []string{"3 March at 14:20", "21 April at 10:40", "9 June at 15:05", "30 July at 11:50"}},
	{"pension fund", "finance", false, []string{"Harlowe Mutual", "Stanbury Capital", "Ellwood Annuities", "Greystoke Pensions"}},
	{"car insurer", "car", false, []string{"Ridgeway Cover", "Pinnacle Motor", "Sheldrake Assurance", "Wolverton Insure"}},
	{"heating oil supplier", "home", false, []string{"Fenland Fuels", "Carrick Oils", "Tamworth Petroleum", "Ouse Valley Fuels"}},
	{"climbing gym membership number", "health", false, []string{"CG-77120", "CG-40938", "CG-65217", "CG-18843"}},
	{"water meter reading", "home", false, []string{"004512", "004987", "005366", "005841"}},
	{"school pickup rota lead", "family", false, []string{"Ottavia", "Bartholomew", "Ignatius", "Philippa"}},
	{"walking group meeting point", "health", true, []string{"the Hollins Gate", "Ravenscar Bridge", "the Tarnside Lodge", "Kettlewell Green"}},
	{"boiler service engineer", "home", false, []string{"Heatwise Carrington", "Boilercare Ellis", "Warmflow Dunmore", "Thermafix Pryce"}},
	{"library card PIN", "reading", false, []string{"2580", "1379", "4682", "9153"}},
	{"daughter's violin tutor", "music", false, []string{"Ms Petrosyan", "Mr Oyelaran", "Mrs Whitcombe", "Mr Santangelo"}},
	{"allergy clinic", "health", true, []string{"Fenwick Health Centre", "the Lindley Clinic", "Brampton Medical", "the Saltaire Practice"}},
}

// How a value is first stated, and how each change says so: {s} is the
// subject, {v} the new value, {o} the one it replaces.
var (
	updateFirst = []string{
		"The {s} is {v}.",
		"Noted the {s}: {v}.",
		"For the record, the {s} is {v}.",
		"Our {s} is {v}.",
	}
	updateChange = []string{
		"The {s} is now {v}.",
		"Changed the {s} to {v}.",
		"Switched the {s} to {v}.",
		"The {s} is no longer {o}; it is {v}.",
		"New {s}: {v}.",
		"Updated the {s} to {v}.",
		"From today the {s} is {v} instead of {o}.",
	}
	// A new number said plainly, without a word of change: only for
	// values with a digit (a new name said plainly may be a second one).
	updateRestate = "The {s} is {v}."
	updateMove    = []string{
		"The {s} moved to {v}.",
		"The {s} has moved to {v}.",
	}
	updateQuestions = []string{
		"what is the {s}?",
		"what's the {s} these days?",
		"remind me, what is our {s}?",
		"which {s} do we have?",
	}
	// An agent's answer that restates an old value, captured by the
	// Claude Code hooks: "Assistant: …" under their tags.
	updateEcho = []string{
		"The {s} is {o} (from your note of {d}).",
		"According to your notes, the {s} is {o}.",
		"Your {s} is {o}, as you noted on {d}.",
	}
)

// echoTags are the tags the Claude Code hooks give a captured turn
// (internal/adapters/hooks.Tags): the agent, the session, the project.
func echoTags(r *rand.Rand) []string {
	return []string{"claude-code", fmt.Sprintf("session-%08x", r.Uint32()), "project-household"}
}

// plantUpdates chooses n subjects and plants each: a first statement, one
// to three changes, and for about half of them a captured agent session
// after the last change that asks for the fact and answers with an old
// value. It uses a random source of its own, so that a corpus without
// updates is the same as before they existed.
func (p *plan) plantUpdates(n int) {
	r := rand.New(rand.NewPCG(p.opts.Seed, 0x7570646174657321))
	var written []int
	for i, d := range p.days {
		if d.written {
			written = append(written, i)
		}
	}
	n = min(n, len(updateBank))
	if n == 0 || len(written) < 8 {
		return
	}
	order := r.Perm(len(updateBank))
	next := func(from, gap int) int {
		for at := from + gap; at < len(p.days); at++ {
			if p.days[at].written {
				return at
			}
		}
		return -1
	}
	for k := 0; k < n; k++ {
		sub := updateBank[order[k]]
		changes := 1 + r.IntN(3)
		// The first statement in the first half of the range, so that the
		// changes fit after it.
		first := written[r.IntN(max(1, len(written)/2))]
		fill := func(tmpl, v, o, d string) string {
			t := strings.NewReplacer("{s}", sub.s, "{v}", v, "{o}", o, "{d}", d).Replace(tmpl)
			return strings.ToUpper(t[:1]) + t[1:]
		}
		at := first
		text := fill(updateFirst[r.IntN(len(updateFirst))], sub.values[0], "", "")
		p.days[at].facts = append(p.days[at].facts, plantedFact{kind: dayfiles.KindFact, tag: sub.tag, text: text})
		u := Update{Current: sub.values[0], Day: p.days[at].date.String(), Text: text}
		span := max(14, (len(p.days)-first)/(changes+2))
		for c := 1; c <= changes; c++ {
			nextAt := next(at, 7+r.IntN(span))
			if nextAt < 0 {
				break
			}
			at = nextAt
			tmpls := updateChange
			switch {
			case sub.move && r.IntN(2) == 0:
				tmpls = updateMove
			case strings.ContainsAny(sub.values[c], "0123456789") && r.IntN(4) == 0:
				tmpls = []string{updateRestate}
			}
			text = fill(tmpls[r.IntN(len(tmpls))], sub.values[c], sub.values[c-1], "")
			p.days[at].facts = append(p.days[at].facts, plantedFact{kind: dayfiles.KindFact, tag: sub.tag, text: text})
			u.Old = append(u.Old, u.Current)
			u.Current, u.Day, u.Text, u.Changes = sub.values[c], p.days[at].date.String(), text, c
		}
		if u.Changes == 0 {
			continue // no day after the first to change it on
		}
		q := fill(updateQuestions[r.IntN(len(updateQuestions))], "", "", "")
		if r.IntN(2) == 0 {
			if echoAt := next(at, 1+r.IntN(60)); echoAt >= 0 {
				old := r.IntN(len(u.Old))
				d := p.days[first].date // the note an agent was handed
				tags := echoTags(r)
				p.days[echoAt].facts = append(p.days[echoAt].facts,
					plantedFact{kind: dayfiles.KindNote, tags: tags, text: "User: " + q},
					plantedFact{kind: dayfiles.KindNote, tags: tags, text: "Assistant: " + fill(updateEcho[r.IntN(len(updateEcho))], "", u.Old[old], fmt.Sprintf("%d %s", d.Day, d.Month))})
				u.Echo = true
			}
		}
		u.Q = q
		p.updates = append(p.updates, u)
	}
}

func writeUpdates(path string, us []Update) error {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, u := range us {
		if err := enc.Encode(u); err != nil {
			return fmt.Errorf("encoding updates: %w", err)
		}
	}
	return writeNew(path, []byte(b.String()))
}
