package words

import (
	"slices"
	"testing"
)

func TestKeywords(t *testing.T) {
	got := Keywords("Yeah, I didn't play the Fortnite tournament in 2024 with Kate's friends!")
	want := []string{"play", "fortnite", "tournament", "kates", "friends"}
	if !slices.Equal(got, want) {
		t.Errorf("Keywords = %q, want %q", got, want)
	}
	if !IsStop("the") || IsStop("fortnite") {
		t.Error("IsStop is wrong about 'the' or 'fortnite'")
	}
}
