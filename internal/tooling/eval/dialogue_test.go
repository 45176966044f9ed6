package eval_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/tooling/eval"
)

// The dialogue eval on importer's LoCoMo example: each conversation is built
// into a data dir of its own, every asker answers every question, and the
// gold days come from the evidence messages. The example's questions each
// name words of one session only, so the default recall must find their
// day first; the baseline, with no stems ("races" is not "race"), at least
// within its two days.
func TestDialogueOnTheLoCoMoExample(t *testing.T) {
	ctx := context.Background()
	files, err := eval.ConversationFiles("../../adapters/importer/testdata/locomo.json")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	tally, err := eval.Dialogue(ctx, files, t.TempDir(), 10, 0, func(name string, n int) {
		names = append(names, name)
		if n != 3 {
			t.Errorf("%s: %d questions with evidence, want 3", name, n)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || names[0] != "conv-1" {
		t.Fatalf("conversations %q, want conv-1", names)
	}
	if m := tally.Metrics("recall (drill)"); m.Questions != 3 || m.Hit1 != 1 {
		t.Errorf("drill: %d questions, hit@1 %.2f; want 3 and 1", m.Questions, m.Hit1)
	}
	if m := tally.Metrics("baseline: BM25 over days"); m.Questions != 3 || m.Hit1 < 0.6 || m.Hit5 != 1 {
		t.Errorf("baseline: %d questions, hit@1 %.2f, hit@5 %.2f; want 3, at least 2 of 3, and 1", m.Questions, m.Hit1, m.Hit5)
	}
	var out bytes.Buffer
	if err := tally.WriteTable(&out, eval.DialogueCategories); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"recall (drill)", "drill without days", "recall --mode bm25", "baseline: BM25 over days", "date h@1", "fact MRR"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, out.String())
		}
	}
}
