package dayfiles

import (
	"errors"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

func TestConflictCopyDay(t *testing.T) {
	for rel, want := range map[string]bool{
		"days/2026/11/24.sync-conflict-20261124-101500-ABCDEFG.md": true,
		"days/2026/11/24 (Ana's conflicted copy 2026-11-24).md":    true,
		"days/2026/11/24 (conflicted copy 2026-11-24 101500).md":   true,
		"days/2026/11/24_conflict-20261124-101500.md":              true,
		"days/2026/11/24 (conflict).md":                            true,
		"days/2026/11/24.md.orig":                                  true,
		"days/2026/11/24_LOCAL_1234.md":                            true,
		"days/2026/11/24.md":                                       false,
		"days/2026/11/notes-conflict.md":                           false,
		"days/2026/11/24.md.swp":                                   false,
		"days/2026/02/30.sync-conflict-x.md":                       false,
		"summaries/2026/11/24.sync-conflict-x.md":                  false,
	} {
		d, ok := ConflictCopyDay(rel)
		if ok != want || (ok && d.String() != "2026-11-24") {
			t.Errorf("%s: %v %v, want %v", rel, d, ok, want)
		}
	}
}

func TestConflictMarkersAreNotContent(t *testing.T) {
	marked := "# 2026-11-24\n\n- 08:00 a\n<<<<<<< HEAD\n- 09:00 ours\n=======\n- 09:00 theirs\n>>>>>>> origin/main\n"
	_, err := Parse("d.md", date.MustParse("2026-11-24"), []byte(marked))
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Line != 4 {
		t.Fatalf("err = %v, want a ConflictError at line 4", err)
	}
	// A setext heading's underline alone is no marker.
	if _, err := Parse("d.md", date.MustParse("2026-11-24"), []byte("Title\n=======\n\n- 08:00 a\n")); err != nil {
		t.Fatal(err)
	}
}
