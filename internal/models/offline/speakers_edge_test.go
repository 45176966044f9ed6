package offline

import (
	"maps"
	"slices"
	"testing"
)

// In a day's summary, an image's caption that an import wrote before a
// message is a sentence of its own: the speaker after it opens the next
// one.
func TestSplitSummaryAfterAnAside(t *testing.T) {
	got := splitSummary("Got balls and I am ready! (shared an image: a basket of balls) Kevin: Enjoy practice. Play your best game!")
	want := []string{"Got balls and I am ready!", "(shared an image: a basket of balls)", "Kevin: Enjoy practice.", "Play your best game!"}
	if !slices.Equal(got, want) {
		t.Fatalf("splitSummary:\n got %q\nwant %q", got, want)
	}
}

// A chat is told by the items' first sentences; then every name that opens
// two sentences is a speaker, one that never opens a day's summary among
// them. A journal's labels inside entries make no speakers.
func TestFindSpeakersChatAndJournal(t *testing.T) {
	chat := [][]string{
		{"Akib: I got a new bike.", "Muhhamed: Nice, which one?", "Akib: A red one."},
		{"Akib: Rain all day.", "Muhhamed: Same here.", "It never stops."},
		{"Akib: Back at work.", "Muhhamed: Me too."},
	}
	if got := slices.Sorted(maps.Keys(findSpeakers(chat))); !slices.Equal(got, []string{"Akib", "Muhhamed"}) {
		t.Errorf("chat speakers %v, want [Akib Muhhamed]", got)
	}
	journal := [][]string{
		{"Decided to move the backups.", "Numbers: p95 312 ms.", "Next step: ask Julia."},
		{"Deployed Glacier v3.5.7.", "Numbers: build 378 s.", "Incident: cache at 27%."},
		{"Dinner with Theo.", "Incident: disk full.", "Numbers: 12 pages."},
	}
	if got := findSpeakers(journal); len(got) != 0 {
		t.Errorf("journal speakers %v, want none", got)
	}
}
