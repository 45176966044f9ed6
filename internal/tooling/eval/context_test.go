package eval_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/tooling/eval"
)

// A message is in a block when the first 80 characters of its words are,
// whatever the case, punctuation and line breaks of either, and only from
// the start of a word.
func TestMessageKeyMatchesWordsOnly(t *testing.T) {
	msg := "Yes!! Last Friday, at the LGBTQ support group -- it was so powerful; I'll go again next week, and the week after that too."
	key := eval.MessageKey(msg)
	if len([]rune(key)) != eval.KeyChars {
		t.Fatalf("key %q has %d characters, want %d", key, len([]rune(key)), eval.KeyChars)
	}
	if !strings.HasPrefix(key, "yes last friday at the lgbtq support group it was so powerful i ll go") {
		t.Fatalf("key %q is not the message's words", key)
	}
	q := eval.ContextQuestion{Q: "when?", Keys: []string{key, eval.MessageKey("Sure thing.")}}
	block := "## Recent\n\n- [2023-05-08T13:56-ab] Caroline: yes, last Friday at the LGBTQ\n  support group. It was so POWERFUL: I'll go again next week, and the week after that\n"
	if n := q.Found(eval.Words(block)); n != 1 {
		t.Errorf("found %d of the keys in a block that holds the first message cut at 80 characters, want 1", n)
	}
	if n := q.Found(eval.Words("- [x] Caroline: yes, last Friday at the LGBTQ support group.")); n != 0 {
		t.Errorf("found %d keys in a block with only the message's first words, want 0", n)
	}
	if n := q.Found(eval.Words("Unsure thing.")); n != 0 {
		t.Errorf(`"unsure thing" holds "sure thing": found %d, want 0`, n)
	}
}

// The context eval on importer's LoCoMo example: every question's evidence
// is in a 4,000-token block (the whole conversation fits) and none is in a
// 40-token one (the title alone); the recall rows are there beside them.
func TestDialogueContextOnTheLoCoMoExample(t *testing.T) {
	ctx := context.Background()
	files, err := eval.ConversationFiles("../../adapters/importer/testdata/locomo.json")
	if err != nil {
		t.Fatal(err)
	}
	convs, err := importer.ReadLoCoMo(files[0])
	if err != nil {
		t.Fatal(err)
	}
	qs := eval.ContextQuestions(convs[0])
	if len(qs) != 3 || len(qs[2].Keys) != 2 {
		t.Fatalf("questions %+v: want 3, the last with two evidence messages", qs)
	}
	var misses []eval.ContextMiss
	tally, err := eval.DialogueContext(ctx, files, t.TempDir(), 0, []int{40, 4000}, []int{1, 20},
		func(m eval.ContextMiss) error { misses = append(misses, m); return nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The misses: every question at 40 tokens, with the entries that hold
	// its evidence (whose days the title-only block does not show).
	if len(misses) != 3 {
		t.Fatalf("%d misses, want the 3 questions at 40 tokens: %+v", len(misses), misses)
	}
	for i, m := range misses {
		if m.Budget != 40 || m.Question != qs[i].Q || m.Conversation != convs[0].ID || m.Block == "" || strings.Contains(m.Block, "## Evidence") {
			t.Errorf("miss %d: %+v", i, m)
		}
		if len(m.Evidence) != len(qs[i].Keys) {
			t.Errorf("miss %d (%q): %d evidence entries, want %d: %+v", i, m.Question, len(m.Evidence), len(qs[i].Keys), m.Evidence)
		}
		for _, e := range m.Evidence {
			if e.ID == "" || e.Line < 1 || e.DayInBlock || qs[i].Found(eval.Words(e.Text)) == 0 || !strings.HasPrefix(e.ID, e.Day) {
				t.Errorf("miss %d (%q): evidence entry %+v", i, m.Question, e)
			}
		}
	}
	if s := tally.Shares(eval.ContextRow(4000)); s.Questions != 3 || s.Any != 3 || s.Every != 3 {
		t.Errorf("context 4000: %+v, want every evidence message of the 3 questions", s)
	}
	if s := tally.Shares(eval.ContextRow(40)); s.Questions != 3 || s.Any != 0 {
		t.Errorf("context 40: %+v, want none of the evidence in a block of 40 tokens", s)
	}
	// Recall returns the entries that match: the second message about the
	// race ("Wow, that is inspiring! ...") has none of the question's words.
	if s := tally.Shares(eval.RecallRow(20)); s.Questions != 3 || s.Any != 3 || s.Every != 2 {
		t.Errorf("recall top 20: %+v, want 3 questions, all with some evidence, 2 with all of it", s)
	}
	var out bytes.Buffer
	if err := tally.WriteTable(&out, eval.DialogueCategories); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"context 4000", "recall --level entry, top 20", "date any", "fact every"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table has no %q:\n%s", want, out.String())
		}
	}
}
