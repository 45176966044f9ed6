package index_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/models/offline"
)

// TestCompact checks that Compact merges an index written in several
// batches into one segment and that searches answer the same after it.
func TestCompact(t *testing.T) {
	ctx := context.Background()
	x := open(t, t.TempDir(), offline.NewEmbedder())
	defer x.Close()
	docs := rankCorpus()
	// Each Sync writes its new documents in one batch: one segment each.
	for _, n := range []int{len(docs) / 4, len(docs) / 2, 3 * len(docs) / 4, len(docs)} {
		if _, err := x.Sync(ctx, false, docs[:n]); err != nil {
			t.Fatal(err)
		}
	}
	queries := []index.Query{
		{Text: "ledger invoice", Level: date.LevelMonth, Parents: []string{"2024", "2025"}, K: 10},
		{Text: "rent studio", Level: date.LevelDay, Parents: []string{"2024-02", "2024-05"}, K: 10},
		{Text: "vet paprika", Level: date.LevelEntry, K: 20},
		{Text: "wifi", Level: date.LevelEntry, Range: date.Range{From: date.MustParse("2024-03-10"), To: date.MustParse("2024-09-20")}, K: 20},
	}
	answers := func() []string {
		var out []string
		for _, q := range queries {
			hits, err := x.Rank(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hits {
				got = append(got, fmt.Sprintf("%s %.6f", h.ID, h.BM25))
			}
			slices.Sort(got) // ties may change order with the documents' numbers
			out = append(out, fmt.Sprint(got))
		}
		return out
	}
	before := answers()
	segs := x.Segments()
	if n, err := x.CompactOver(ctx, segs); err != nil || n != 0 {
		t.Fatalf("CompactOver(%d) of %d segments = %d, %v; want nothing done", segs, segs, n, err)
	}
	n, err := x.CompactOver(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Fatalf("Compact found %d segments after 4 batches, want several", n)
	}
	if got := x.Segments(); got != 1 {
		t.Errorf("after Compact: %d segments, want 1", got)
	}
	// The merged segments' files are gone, not left for the next open.
	store := filepath.Join(x.Dir(), "bleve", "store")
	ents, err := os.ReadDir(store)
	if err != nil {
		t.Fatal(err)
	}
	var zaps []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".zap") {
			zaps = append(zaps, e.Name())
		}
	}
	if len(zaps) != 1 {
		t.Errorf("after Compact: segment files %v, want one", zaps)
	}
	if after := answers(); !slices.Equal(before, after) {
		t.Errorf("answers changed:\nbefore %v\nafter  %v", before, after)
	}
	// Compacting a compact index is a no-op; a closed one is an error.
	if n, err := x.Compact(ctx); err != nil || n != 1 {
		t.Errorf("second Compact = %d, %v; want 1, nil", n, err)
	}
	x.Close()
	if _, err := x.Compact(ctx); err == nil {
		t.Error("Compact of a closed index: no error")
	}
}
