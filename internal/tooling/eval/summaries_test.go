package eval_test

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	ollamaapi "github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
	"github.com/daybook/daybook/internal/tooling/eval"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestRouge1(t *testing.T) {
	// Stop words out: "went", "lake", "sunrise", "lake" against "painted",
	// "lake", "sunrise": two shared (lake once: the reference has it once).
	o := eval.Rouge1("I went to the lake, the lake at sunrise", "She painted a lake sunrise")
	if !near(o.Recall, 2.0/3) || !near(o.Precision, 2.0/4) || !near(o.F1, 2*(2.0/3)*(0.5)/(2.0/3+0.5)) {
		t.Errorf("Rouge1 = %+v, want recall 2/3, precision 2/4", o)
	}
	if o := eval.Rouge1("", "lake"); o != (eval.Overlap{}) {
		t.Errorf("an empty text: %+v", o)
	}
}

func TestMentions(t *testing.T) {
	skip := map[string]bool{"kevin": true}
	ev := "Kevin is going to the waterpark with his family"
	if !eval.Mentions("Kevin: we drive to the waterpark tomorrow", ev, skip) {
		t.Error("half the content words (waterpark of waterpark, family) are there: mentioned")
	}
	if eval.Mentions("Kevin: my family says hi", "Kevin plans a waterpark trip with family", skip) {
		t.Error("one content word of four (plan, waterpark, trip, family): not mentioned")
	}
	if !eval.Mentions("Painting lakes again.", "Melanie paints a lake", map[string]bool{"melanie": true}) {
		t.Error("stems: painting is paint, lakes is lake")
	}
	if eval.Mentions("Kevin: hi", "Kevin", skip) {
		t.Error("an event of only a speaker's name counts as mentioned")
	}
}

func TestFirstWords(t *testing.T) {
	if got := eval.FirstWords("  Ana: hi there\nBo: hello\n", 3); got != "Ana: hi there" {
		t.Errorf("FirstWords = %q", got)
	}
	if got := eval.FirstWords("a b", 5); got != "a b" {
		t.Errorf("FirstWords of fewer words = %q", got)
	}
}

// The summary eval on importer's LoCoMo example: two sessions of May 2023,
// each with an event per speaker. The days are short, so their summaries
// keep every message, and every event is mentioned.
func TestSummariesOnTheLoCoMoExample(t *testing.T) {
	files, err := eval.ConversationFiles("../../adapters/importer/testdata/locomo.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := eval.Summaries(context.Background(), files, t.TempDir(), eval.SummaryOptions{}, func(name string, days int) {
		if name != "conv-1" || days != 2 {
			t.Errorf("%s: %d days with events, want conv-1 and 2", name, days)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Summarizer, "offline/") || len(rep.Missing) > 0 {
		t.Errorf("summarizer %q, missing %q", rep.Summarizer, rep.Missing)
	}
	want := map[string]int{"day": 2, "month": 1, "year": 1}
	for _, l := range rep.Levels {
		if l.Summaries != want[string(l.Level)] || l.Events != 4 {
			t.Errorf("%s: %d summaries of %d events, want %d of 4", l.Level, l.Summaries, l.Events, want[string(l.Level)])
		}
		if l.Level == "day" && l.Mentioned != 4 {
			t.Errorf("day summaries mention %d events of 4", l.Mentioned)
		}
		if l.Summary.Recall <= 0 || l.Summary.Recall > 1 || l.Summary.Precision <= 0 || l.Words <= 0 {
			t.Errorf("%s: %+v", l.Level, l)
		}
	}
	for name := range rep.NotSpeakers {
		if name != "Mel" { // "Hey Mel!": Caroline's name for Melanie
			t.Errorf("%q is listed among people and is no speaker", name)
		}
	}
	var out bytes.Buffer
	if err := rep.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"level", "recall", "precision", "mentioned", "day", "month", "year", "people:"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("the table has no %q:\n%s", w, out.String())
		}
	}
}

// With ollama.enabled the model writes the prose, and the eval measures it.
func TestSummariesWithTheFakeOllama(t *testing.T) {
	srv := ollamatest.New(t, "llama3.2", "nomic-embed-text")
	srv.OnChat(func(int, *ollamaapi.ChatRequest) ollamatest.ChatReply {
		return ollamatest.ChatReply{Content: "Caroline went to an LGBTQ support group; Melanie painted a lake sunrise."}
	})
	cfg := config.Default()
	cfg.Ollama.Enabled, cfg.Ollama.URL = true, srv.URL
	cfg.Ollama.Timeout, cfg.Ollama.EmbedTimeout = 5*time.Second, 5*time.Second
	rep, err := eval.Summaries(context.Background(), []string{"../../adapters/importer/testdata/locomo.json"}, t.TempDir(), eval.SummaryOptions{Config: &cfg}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Summarizer, "ollama/") {
		t.Fatalf("summarizer %q, want the fake model", rep.Summarizer)
	}
	if day := rep.Levels[0]; day.Summaries != 2 || day.Mentioned != 2 {
		t.Errorf("day: %d summaries mention %d events, want 2 and 2 (the model's sentence names session 1's)", day.Summaries, day.Mentioned)
	}
}
