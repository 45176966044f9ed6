package eval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// The planted facts "daybook gen" writes are a question set as they stand.
func TestReadsGeneratedFacts(t *testing.T) {
	dir := t.TempDir()
	st, err := gen.Write(dir, gen.Options{Years: 1, Seed: 3, End: date.MustParse("2026-06-30")})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "facts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := ReadQuestions(f, "facts.jsonl")
	if err != nil {
		t.Fatalf("reading gen's facts: %v", err)
	}
	if len(qs) != st.Facts || len(qs) == 0 {
		t.Fatalf("%d questions, gen wrote %d facts", len(qs), st.Facts)
	}
	for _, q := range qs {
		if q.Q == "" || len(q.Days) == 0 {
			t.Errorf("line %d: empty question or no gold day: %+v", q.Line(), q)
		}
	}
}
