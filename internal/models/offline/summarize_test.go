package offline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles/date"
)

// corpus returns n items of made-up sentences, the same for the same seed.
func corpus(seed uint64, n int) []consolidate.Item {
	r := rand.New(rand.NewPCG(seed, 1))
	words := strings.Fields("ledger postgres migration launch review budget hiring design auth cache deploy " +
		"rollback meeting customer invoice roadmap latency bug release garden run dinner book")
	kinds := []string{"note", "decision", "fact", "event", "todo", "text"}
	items := make([]consolidate.Item, n)
	for i := range items {
		var sents []string
		for s := 0; s < 1+r.IntN(3); s++ {
			w := make([]string, 3+r.IntN(20))
			for k := range w {
				w[k] = words[r.IntN(len(words))]
			}
			w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
			sents = append(sents, strings.Join(w, " ")+".")
		}
		items[i] = consolidate.Item{
			ID: fmt.Sprint(i), When: fmt.Sprintf("%02d:%02d", i/60%24, i%60), Kind: kinds[r.IntN(len(kinds))],
			Text: strings.Join(sents, " "),
		}
	}
	return items
}

func wordCount(s string) int { return len(strings.Fields(s)) }

func TestSummarizeIsDeterministic(t *testing.T) {
	s := NewSummarizer()
	in := consolidate.Input{Level: date.LevelDay, Period: "2025-01-02", Items: corpus(7, 40), WordLimit: 120}
	first, err := s.Summarize(context.Background(), in)
	if err != nil || first == "" {
		t.Fatalf("summary %q, %v", first, err)
	}
	for i := 0; i < 20; i++ {
		// A copy each time, so that nothing can depend on the slice's identity.
		again, _ := s.Summarize(context.Background(), consolidate.Input{Level: in.Level, Period: in.Period, Items: append([]consolidate.Item(nil), in.Items...), WordLimit: 120})
		if again != first {
			t.Fatalf("run %d differs:\n%s\n%s", i, first, again)
		}
	}
	if s.Name() != "offline/extractive-v2" {
		t.Errorf("name %q", s.Name())
	}
}

func TestSummarizeWordBounds(t *testing.T) {
	s := NewSummarizer()
	for _, level := range []date.Level{date.LevelDay, date.LevelMonth, date.LevelYear} {
		limit := consolidate.WordLimit(level)
		for seed := uint64(1); seed <= 5; seed++ {
			out, err := s.Summarize(context.Background(), consolidate.Input{Level: level, Items: corpus(seed, 300)})
			if err != nil {
				t.Fatal(err)
			}
			if n := wordCount(out); n > limit || n < limit*3/4 {
				t.Errorf("%s seed %d: %d words, want %d to %d", level, seed, n, limit*3/4, limit)
			}
		}
	}
	// One sentence longer than the limit is cut.
	long := strings.Repeat("word ", 500)
	out, _ := s.Summarize(context.Background(), consolidate.Input{Level: date.LevelDay, Items: []consolidate.Item{{Kind: "note", Text: long}}, WordLimit: 120})
	if wordCount(out) != 120 || !strings.HasSuffix(out, "…") {
		t.Errorf("a 500-word sentence became %d words ending %q", wordCount(out), out[len(out)-8:])
	}
	// Nothing to say: no prose.
	if out, err := s.Summarize(context.Background(), consolidate.Input{Level: date.LevelDay}); out != "" || err != nil {
		t.Errorf("empty input: %q, %v", out, err)
	}
}

func TestSummarizePrefersDecisionsAndKeepsTimeOrder(t *testing.T) {
	items := []consolidate.Item{
		{When: "08:00", Kind: "todo", Text: "Buy milk and bread for the weekend trip."},
		{When: "09:00", Kind: "note", Text: "Looked at the ledger migration plan with the team today."},
		{When: "10:00", Kind: "decision", Text: "Move the ledger to Postgres before the migration freeze. #db #ledger"},
		{When: "11:00", Kind: "text", Text: "## Afternoon\n\n```\nSELECT * FROM ledger;\n```\nA walk by the river after the ledger work."},
	}
	s := NewSummarizer()
	one, _ := s.Summarize(context.Background(), consolidate.Input{Level: date.LevelDay, Items: items, WordLimit: 12})
	if one != "Move the ledger to Postgres before the migration freeze." {
		t.Errorf("with room for one sentence: %q, want the decision without its tags", one)
	}
	all, _ := s.Summarize(context.Background(), consolidate.Input{Level: date.LevelDay, Items: items, WordLimit: 120})
	order := []string{"Buy milk", "Looked at", "Move the ledger", "A walk by the river"}
	last := -1
	for _, o := range order {
		i := strings.Index(all, o)
		if i <= last {
			t.Fatalf("%q out of time order in %q", o, all)
		}
		last = i
	}
	if strings.Contains(all, "SELECT") || strings.Contains(all, "Afternoon") || strings.Contains(all, "#") {
		t.Errorf("code, headings or tags in the prose: %q", all)
	}
}

func TestSplitSentences(t *testing.T) {
	got := splitSentences("Met Dr. Who at 9. He said e.g. no! Then left. version 1.2 is out")
	want := []string{"Met Dr. Who at 9.", "He said e.g. no!", "Then left. version 1.2 is out."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A lower-case speaker's turn in a day's summary starts a sentence: a
// month must not give it to the speaker before.
func TestSplitSentencesAtALowerCaseTurn(t *testing.T) {
	got := splitSentences("Kevin: I fly to Hawaii. elise: I always get poke. note the time: 9.")
	want := []string{"Kevin: I fly to Hawaii.", "elise: I always get poke. note the time: 9."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSummarizeHonoursCancel(t *testing.T) {
	c, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewSummarizer().Summarize(c, consolidate.Input{Items: corpus(1, 3)}); err == nil {
		t.Error("no error from a cancelled context")
	}
}

func TestCleanTextKeepsLinesApart(t *testing.T) {
	in := "Recovery day this morning, felt badly. #running\nNext step: ask Zara to double-check\nLink: https://git.example.com/juniper/pull/66\nOpen question: does the permit need its own owner? #admin #car"
	got := cleanText("event", in)
	want := "Recovery day this morning, felt badly. Next step: ask Zara to double-check. Open question: does the permit need its own owner?"
	if got != want {
		t.Errorf("cleanText =\n%q\nwant\n%q", got, want)
	}
	if s := splitSentences(got); len(s) != 3 {
		t.Errorf("sentences = %q, want 3", s)
	}
}

func TestCleanTextKeepsInteriorTagsAsWords(t *testing.T) {
	if got := cleanText("note", "Moved #auth to the gateway, see <https://x.example/a>"); got != "Moved auth to the gateway, see." {
		t.Errorf("got %q", got)
	}
}
