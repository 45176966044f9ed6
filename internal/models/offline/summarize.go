package offline

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/words"
)

// SummarizerName is the Name of the offline Summarizer; it goes into every
// summary's front matter.
const SummarizerName = "offline/extractive-v2"

// Summarizer is an extractive, deterministic consolidate.Summarizer. It
// splits the period's items into sentences and chooses, one at a time,
// the sentence that adds the most of what the period is about for the
// words it costs, until the word limit; it returns them in time order, each
// speaker of a chat named where their turn begins. (select.go says how a
// sentence is worth; speakers.go how a chat's speakers are found.)
//
// A sentence is worth the content words it brings that the summary does
// not have yet: each word (by its stem) weighs by how many of the
// period's items use it, and less each time the summary already has it,
// so that the next sentence chosen is about something else (diversity).
// Stop words, chat talk and reactions ("haha", "yes", "thanks", "sounds
// amazing") weigh nothing (words.IsFiller), so greetings and chatter are
// never chosen for what they say. The item's kind (a decision, an event or
// a fact weighs more than a note or a todo), its tags and the length of the
// sentence (under four words says little, over forty is a list) weigh too.
// A month's sentences come from its days' summaries, a year's from its
// months': a day or a month not yet in the summary counts double, so that
// each keeps its main events rather than the busiest days only.
//
// It cannot paraphrase, merge or resolve references ("it", "that"): it only
// chooses, and trims the chatter that opens a sentence ("Yes absolutely, my
// walk…" keeps "My walk…"). An image's caption that an import added to a
// message ("(shared an image: …)") stays: recall finds the day by it.
type Summarizer struct{}

// NewSummarizer returns the offline Summarizer.
func NewSummarizer() *Summarizer { return &Summarizer{} }

// Name returns "offline/extractive-v2".
func (*Summarizer) Name() string { return SummarizerName }

// kindWeight is the weight of an item's kind in its sentences' worth.
func kindWeight(kind string) float64 {
	switch kind {
	case "decision":
		return 1.6
	case "event":
		return 1.4
	case "fact":
		return 1.3
	case "summary":
		return 1.0
	case "note":
		return 0.9
	case "text":
		return 0.7
	case "todo":
		return 0.6
	case consolidate.KindSession:
		return 0.3 // an agent's session: the day is the person's
	default:
		return 0.8
	}
}

type sentence struct {
	item, pos int    // item index, position in the item
	text      string // as it will be printed, without its speaker
	speaker   string // who said it in a chat ("Kevin"), or ""
	words     int    // words of text
	terms     []string
	quality   float64
}

// Summarize returns at most about in.WordLimit words (the level's default
// when it is 0) of the period's sentences that say the most of it, oldest
// first.
func (*Summarizer) Summarize(ctx context.Context, in consolidate.Input) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	limit := in.WordLimit
	if limit <= 0 {
		limit = consolidate.WordLimit(in.Level)
	}
	texts := make([][]string, len(in.Items))
	for i, it := range in.Items {
		if it.Kind == "summary" {
			texts[i] = splitSummary(cleanText(it.Kind, it.Text))
		} else {
			texts[i] = splitSentences(cleanText(it.Kind, it.Text))
		}
	}
	speakers := findSpeakers(texts)
	stems := map[string]string{}
	var sents []sentence
	for i, it := range in.Items {
		who := ""
		for k, s := range texts[i] {
			if name, rest, ok := cutSpeaker(s, speakers); ok {
				who, s = name, rest
			}
			s = trimChatter(s)
			if s == "" {
				continue
			}
			n := len(strings.Fields(s))
			length := 1.0
			switch {
			case n < 4:
				length = 0.5
			case n > 40:
				length = 40 / float64(n)
			}
			lead := 1.0
			if k == 0 {
				lead = 1.1
			}
			tags := 1 + 0.1*float64(min(len(it.Tags), 3))
			lower := words.Lower(s)
			sents = append(sents, sentence{item: i, pos: k, text: s, speaker: who, words: n,
				terms: termsOf(lower, stems), quality: kindWeight(it.Kind) * tags * length * lead * telling(s, lower)})
		}
	}
	if len(sents) == 0 {
		return "", nil
	}
	keep := choose(sents, termWeights(sents), limit, in.Level != date.LevelDay)
	if len(keep) == 0 {
		// Not even one sentence fits: the first that says something, cut.
		best := 0
		for i, s := range sents {
			if len(s.terms) > 0 {
				best = i
				break
			}
		}
		s := sents[best]
		w := strings.Fields(s.text)
		if s.speaker != "" {
			w = append([]string{s.speaker + ":"}, w...)
		}
		return strings.Join(w[:min(len(w), limit)], " ") + "…", nil
	}
	return render(sents, keep), nil
}

// contentTerms returns the stems of the words of s that can say what
// happened, each once, in order.
func contentTerms(s string) []string { return termsOf(words.Lower(s), map[string]string{}) }

// termsOf is contentTerms of s's lower-cased words, stems kept in stems.
func termsOf(lower []string, stems map[string]string) []string {
	var out []string
	for _, w := range lower {
		if len(w) < 3 || len(w) > 40 || words.IsFiller(w) || !hasLetter(w) {
			continue
		}
		st, ok := stems[w]
		if !ok {
			st = words.Stem(w)
			stems[w] = st
		}
		if !slices.Contains(out, st) {
			out = append(out, st)
		}
	}
	return out
}

func hasLetter(w string) bool {
	for _, r := range w {
		if r >= '0' && r <= '9' {
			continue
		}
		return true
	}
	return false
}

// termWeights weighs each term by how many items use it: 1 for one, 2.4
// for two, 3.2 for three, 5.6 for ten: a word the period keeps coming back
// to is what it was about.
func termWeights(sents []sentence) map[string]float64 {
	items := map[string]map[int]bool{}
	for _, s := range sents {
		for _, t := range s.terms {
			if items[t] == nil {
				items[t] = map[int]bool{}
			}
			items[t][s.item] = true
		}
	}
	w := make(map[string]float64, len(items))
	for t, in := range items {
		w[t] = 1 + 2*math.Log(float64(len(in)))
	}
	return w
}

// render writes the chosen sentences in time order, a speaker's name where
// their turn begins.
func render(sents []sentence, keep []int) string {
	slices.Sort(keep)
	var b strings.Builder
	prev := ""
	for k, i := range keep {
		s := sents[i]
		if k > 0 {
			b.WriteByte(' ')
		}
		if s.speaker != "" && s.speaker != prev {
			b.WriteString(s.speaker + ": ")
		}
		prev = s.speaker
		b.WriteString(s.text)
	}
	return b.String()
}

// telling weighs how much s tells of what happened rather than asks or
// muses. A question (it ends in '?') asks, and weighs 0.4. A diary and a
// chat tell of the writer's own day in the first person: "I went to the
// waterpark with my family" is an event, "Waterparks can be fun" is not;
// a sentence with "I", "we", "my"... weighs 1.5. One that says when or
// what was done or planned (acts: "today", "tomorrow", "went", "started",
// "plan", "going") weighs 1.5 again.
func telling(s string, lower []string) float64 {
	if strings.HasSuffix(strings.TrimRight(s, `"')`), "?") {
		return 0.4
	}
	fp, act := false, false
	for _, w := range lower {
		fp = fp || firstPerson[w]
		act = act || acts[w]
	}
	x := 1.0
	if fp {
		x *= 1.5
	}
	if act {
		x *= 1.5
	}
	return x
}

var firstPerson = map[string]bool{"i": true, "im": true, "ive": true, "ill": true, "id": true, "me": true,
	"my": true, "mine": true, "myself": true, "we": true, "weve": true, "our": true, "ours": true, "us": true}

// acts are the words of doing and of when: a sentence with one tells what
// happened or is planned.
var acts = map[string]bool{"went": true, "going": true, "gonna": true, "today": true, "tonight": true, "tomorrow": true,
	"yesterday": true, "morning": true, "evening": true, "afternoon": true, "weekend": true, "later": true,
	"started": true, "start": true, "plan": true, "plans": true, "planning": true, "made": true, "took": true, "got": true,
	"visited": true, "bought": true, "finished": true, "will": true, "ill": true}
