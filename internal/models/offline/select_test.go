package offline

import (
	"context"
	"strings"
	"testing"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
)

func day(texts ...string) consolidate.Input {
	in := consolidate.Input{Level: date.LevelDay, Period: "2024-01-07"}
	for i, t := range texts {
		in.Items = append(in.Items, consolidate.Item{ID: string(rune('a' + i)), When: "10:00", Kind: "note", Text: t})
	}
	return in
}

func summarize(t *testing.T, in consolidate.Input, limit int) string {
	t.Helper()
	in.WordLimit = limit
	out, err := NewSummarizer().Summarize(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Chatter weighs nothing: greetings, laughter and reactions are never
// chosen for what they say, and the chatter that opens a sentence goes.
func TestSummarizeLeavesChatterOut(t *testing.T) {
	in := day("Kevin: Hey! How are you?", "elise: Haha yes, good!", "Kevin: Lol that sounds amazing!",
		"elise: Yes absolutely, I took a morning walk in Houston and got a peppermint latte.",
		"Kevin: Thanks, you too!")
	got := summarize(t, in, 120)
	if got != "elise: I took a morning walk in Houston and got a peppermint latte." {
		t.Errorf("got %q", got)
	}
}

// A chat's speakers are named where their turn begins, once for a run of
// their sentences; a label ("Note:") is no speaker, and a prefix seen once
// is not either.
func TestSummarizeNamesSpeakersOnce(t *testing.T) {
	in := day("Kevin: I went to the waterpark with my family today. We rode every slide twice.",
		"elise: I played tennis in the morning before my classes started.",
		"elise: Tomorrow I fly to Aspen for a ski trip.",
		"Note: the tennis club moved its courts downtown.")
	got := summarize(t, in, 120)
	want := "Kevin: I went to the waterpark with my family today. We rode every slide twice. elise: I played tennis in the morning before my classes started. Tomorrow I fly to Aspen for a ski trip. Note: the tennis club moved its courts downtown."
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// The second sentence chosen is about something else when one is there
// (diversity), not the same event again in other words.
func TestSummarizeChoosesSomethingElse(t *testing.T) {
	in := day("I booked the flights to Lisbon for the Portugal trip.",
		"The Portugal trip flights to Lisbon are booked.",
		"My sister started her new job at the bakery.")
	got := summarize(t, in, 20)
	if !strings.Contains(got, "sister") || strings.Count(got, "Lisbon") != 1 {
		t.Errorf("got %q, want one sentence on the flights and the sister's job", got)
	}
}

// A month keeps each day's main event, not only the busiest day's.
func TestSummarizeMonthSpreadsOverDays(t *testing.T) {
	in := consolidate.Input{Level: date.LevelMonth, Period: "2024-01", WordLimit: 30}
	busy := "I fixed the server crash at work. The server logs filled the disk at work. I rebuilt the server disk array at work. The server room at work was cold."
	in.Items = []consolidate.Item{
		{ID: "day:2024-01-02", When: "2024-01-02", Kind: "summary", Text: busy},
		{ID: "day:2024-01-03", When: "2024-01-03", Kind: "summary", Text: "We adopted a grey kitten from the shelter."},
		{ID: "day:2024-01-04", When: "2024-01-04", Kind: "summary", Text: "I ran my first half marathon in Houston."},
	}
	got := summarize(t, in, 30)
	for _, w := range []string{"server", "kitten", "marathon"} {
		if !strings.Contains(got, w) {
			t.Errorf("no %q in %q", w, got)
		}
	}
}

func TestTrimChatter(t *testing.T) {
	for in, want := range map[string]string{
		"Yes absolutely, my walk was long.":   "My walk was long.",
		"I went home.":                        "I went home.",
		"Haha lol!":                           "",
		"Oh wow, Kate got the job!":           "Kate got the job!",
		"Well the garden needs water.":        "Well the garden needs water.",
		"Thanks!":                             "",
		"Sure, the meeting moved to Tuesday.": "The meeting moved to Tuesday.",
	} {
		if got := trimChatter(in); got != want {
			t.Errorf("trimChatter(%q) = %q, want %q", in, got, want)
		}
	}
}

// A long message goes on over many sentences; they are still its
// speaker's, and the speakers are still found.
func TestSummarizeKeepsALongMessagesSpeaker(t *testing.T) {
	long := "elise: My tips for blonde hair:\nHydrating hair masks; I use one made with coconut.\nFanola shampoo when my hair turns brassy.\nI wash it twice a week.\nSilk pillows help with frizz.\nHeat spray before the straightener."
	got := summarize(t, day(long, "Kevin: Your hair routine sounds impressive, I should try the coconut mask.", "elise: Tomorrow I book the salon."), 50)
	if !strings.HasPrefix(got, "elise: ") || !strings.Contains(got, "Kevin: ") || strings.Contains(got, ":.") {
		t.Errorf("got %q, want elise's sentences under her name and Kevin's under his", got)
	}
}
