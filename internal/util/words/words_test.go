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

func TestIsFiller(t *testing.T) {
	for _, w := range []string{"the", "yeah", "haha", "hahahaha", "lolll", "amazing", "thanks", "im"} {
		if !IsFiller(w) {
			t.Errorf("IsFiller(%q) = false", w)
		}
	}
	for _, w := range []string{"waterpark", "paintball", "hawaii", "latte", "hello123", "hole", "lolita"} {
		if IsFiller(w) {
			t.Errorf("IsFiller(%q) = true", w)
		}
	}
	if Stem("skiing") != "ski" || Stem("plans") != "plan" {
		t.Errorf("Stem: skiing %q, plans %q", Stem("skiing"), Stem("plans"))
	}
}
