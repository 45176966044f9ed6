package index

import (
	"context"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

// TestLongerWordsFollowWrites checks that the longer words a query word
// finds are kept only until the next write: a word written after a first
// search ("argon2" after "argon" was searched) is found by the next.
func TestLongerWordsFollowWrites(t *testing.T) {
	root := t.TempDir()
	x := openTest(t, root, &countingEmbedder{})
	ctx := context.Background()
	rank := func() []Hit {
		t.Helper()
		hits, err := x.Rank(ctx, Query{Text: "argon", Level: date.LevelEntry, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	syncPath(t, x, root, writeFile(t, root, "2026-03-14", "# 2026-03-14\n\n- 09:00 Hashed the passwords with argon\n"))
	if got := rank(); len(got) != 1 {
		t.Fatalf("first search: %d hits, want the one entry with argon", len(got))
	}
	syncPath(t, x, root, writeFile(t, root, "2026-03-15", "# 2026-03-15\n\n- 09:00 Moved the hashes to Argon2id\n"))
	if got := rank(); len(got) != 2 {
		t.Fatalf("after writing a longer word: %d hits, want both entries: %+v", len(got), got)
	}
}
