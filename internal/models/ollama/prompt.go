package ollama

import (
	"fmt"
	"strings"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
)

// systemPrompt holds the rules every summary follows, whatever its level.
const systemPrompt = `You keep the long-term memory of one person or AI agent, written as a diary.
You write summaries of that diary. Rules:
- Write clear narrative prose in the third person ("they decided", "the agent fixed").
- Use only facts stated in the input. Never invent names, dates, numbers, causes or events.
- The input is in time order, oldest first. When two items disagree, the newer one is true now; mention the change only if it matters.
- Keep decisions, names, numbers and open tasks; leave out chatter.
- Answer with the summary only: no greeting or preamble, no title or headings, no lists, no markdown, no front matter.`

// defaultWords is the length a level gets when Input.WordLimit is zero.
func defaultWords(l date.Level) int {
	switch l {
	case date.LevelDay:
		return 120
	case date.LevelMonth:
		return 250
	case date.LevelYear:
		return 400
	default:
		return 200
	}
}

// what names the period and what its items are, for the prompts.
func what(in consolidate.Input) (period, items string) {
	switch in.Level {
	case date.LevelDay:
		return "the day " + in.Period, "its diary entries (time, kind, text, tags) and free-text notes"
	case date.LevelMonth:
		return "the month " + in.Period, "the summaries of its days"
	case date.LevelYear:
		return "the year " + in.Period, "the summaries of its months"
	default:
		return string(in.Level) + " " + in.Period, "its items"
	}
}

// summaryPrompt asks for the summary of a whole input.
func summaryPrompt(in consolidate.Input, words int, body string) string {
	period, items := what(in)
	return fmt.Sprintf("Summarise %s in about %d words from %s, listed below oldest first.\n\n%s",
		period, words, items, body)
}

// partPrompt asks for the summary of one part of an input too large for the
// model's context (the map step).
func partPrompt(in consolidate.Input, words, part, parts int, body string) string {
	period, items := what(in)
	return fmt.Sprintf("This is part %d of %d of %s of %s, listed below oldest first. Summarise this part only, in about %d words.\n\n%s",
		part, parts, items, period, words, body)
}

// combinePrompt asks for one summary from the summaries of consecutive parts
// (the reduce step).
func combinePrompt(in consolidate.Input, words int, body string) string {
	period, _ := what(in)
	return fmt.Sprintf("Below are summaries of consecutive parts of %s, oldest first. Combine them into one summary of about %d words; where they disagree, the later part is true now.\n\n%s",
		period, words, body)
}

// render writes one item as a line of the prompt body.
func render(it consolidate.Item) string {
	var b strings.Builder
	b.WriteString("- ")
	if it.When != "" {
		b.WriteString(it.When)
		b.WriteString(" ")
	}
	if it.Kind != "" && it.Kind != "summary" {
		b.WriteString("[" + it.Kind + "] ")
	}
	b.WriteString(strings.Join(strings.Fields(it.Text), " "))
	for _, t := range it.Tags {
		b.WriteString(" #" + t)
	}
	return b.String()
}

// retryPrompt tells the model why its answer was refused.
func retryPrompt(reason string, words int) string {
	return fmt.Sprintf("That answer cannot be used: %s. Write the summary again: plain prose of about %d words, nothing else.", reason, words)
}
