package eval

import (
	"slices"
	"testing"
)

func TestInvented(t *testing.T) {
	texts := []string{
		"Decided to do the budget sheet on weekends from now on. #finance\nNumbers: p95 latency 312ms before, 124ms after.\nNext step: ask Julia to double-check.",
		"Kevin: I went to the waterpark with my family. It was so much fun!",
		"- [x] Fix the event stream cold start alert threshold",
		"Nebraas: (shared an image: beef and mashed potatoes)",
		"Nebraas: She did make it!",
	}
	prose := "Decided to do the budget sheet on weekends from now on. Numbers: p95 latency 312ms before, 124ms after. " +
		"Kevin: It was so much fun! Fix the event stream cold start alert threshold. " +
		"Numbers: Fix the event stream cold start alert threshold. Weather: Next step: ask Julia to double-check. " +
		"Elise: It was so much fun! Budget sheet on… Nebraas: (shared an image: beef and mashed potatoes) She did make it!"
	n, bad := Invented(prose, texts)
	want := []string{"Numbers: Fix the event stream cold start alert threshold.", "Weather: Next step: ask Julia to double-check.", "Elise: It was so much fun!"}
	if n != 10 || !slices.Equal(bad, want) {
		t.Fatalf("Invented: %d sentences, %q; want 10, %q", n, bad, want)
	}
}
