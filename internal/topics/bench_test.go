package topics_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
	"github.com/daybook/daybook/internal/topics"
)

// BenchmarkLoad measures loading the topics of a generated year: cold (no
// cache: every day file parsed) and warm (nothing changed: the cache only).
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	if _, err := gen.Write(dir, gen.Options{Years: 1, Seed: 3, End: date.MustParse("2026-03-10")}); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	cache := filepath.Join(dir, filepath.FromSlash(topics.CacheFile))
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			os.Remove(cache)
			if _, _, err := topics.Load(ctx, dir, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		if _, _, err := topics.Load(ctx, dir, nil); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			ix, st, err := topics.Load(ctx, dir, nil)
			if err != nil || st.Parsed != 0 {
				b.Fatal(st, err)
			}
			ix.Topics()
		}
	})
}
