package index

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// holdVectors and holdText take one part's write lock, as a write of that
// part alone holds it (FillVectors folding the vector log into the image,
// an outage recorded); each returns the function that lets go of it.
func holdVectors(x *Index) func() { x.VectorStore.lockWrite(); return x.VectorStore.unlockWrite }
func holdText(x *Index) func()    { x.TextIndex.lockWrite(); return x.TextIndex.unlockWrite }

// answers runs read in the background while the test holds a lock, which
// release lets go of, and fails t unless read returns, with no error,
// before it is let go of. The deadline is only there so that a read that
// waits for the lock fails the test instead of hanging it.
func answers(t *testing.T, what string, release func(), read func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		release()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(20 * time.Second):
		release()
		<-done
		t.Fatalf("%s waited for the other part's write lock", what)
	}
}

// The text index and the vector store each have their own lock: a write
// of one part does not hold up the reads of the other (a recall's BM25
// side goes on while FillVectors writes vectors, its vector side while
// bleve is written).
func TestPartsReadWhileTheOtherIsWritten(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	rel := writeFile(t, root, editDay, dayBefore)
	x := openTest(t, root, &countingEmbedder{})
	syncPath(t, x, root, rel)
	q := Query{Text: "cedar fence", Level: date.LevelEntry, K: 5}

	answers(t, "the text index, while the vector store is written", holdVectors(x), func() error {
		n, err := x.Count(ctx, date.LevelEntry, date.Range{})
		if err != nil || n == 0 {
			return fmt.Errorf("count %d, %v", n, err)
		}
		hits, err := x.Rank(ctx, q)
		if err != nil || len(hits) == 0 {
			return fmt.Errorf("%d hits for %q, %v", len(hits), q.Text, err)
		}
		return nil
	})

	vec, err := x.EmbedQuery(ctx, q.Text)
	if err != nil || len(vec) == 0 {
		t.Fatalf("no query vector: %v", err)
	}
	answers(t, "the vector store, while the text index is written", holdText(x), func() error {
		if hits := x.Nearest(q, vec); len(hits) == 0 {
			return fmt.Errorf("no vector hits for %q", q.Text)
		}
		if vs := x.VectorStatus(); vs.Dim == 0 {
			return fmt.Errorf("vector status %+v", vs)
		}
		if o := x.Orphans(date.LevelEntry, date.Range{}); len(o) != 1 || o[0] != editDay {
			return fmt.Errorf("orphan days %v, want [%s]: it has entries and no daily summary", o, editDay)
		}
		return nil
	})
}
