package index

import (
	"context"
	"testing"
)

// A caller that still holds an Index another goroutine closed (a recall in
// flight during a reindex) gets an error, never a panic.
func TestUseAfterCloseIsAnError(t *testing.T) {
	x := openTest(t, t.TempDir(), &countingEmbedder{})
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Stats(); err == nil {
		t.Error("Stats on a closed index: no error")
	}
	if _, err := x.Search(context.Background(), Query{Text: "anything", K: 5}); err == nil {
		t.Error("Search on a closed index: no error")
	}
	if err := x.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}
