package offline_test

import (
	"context"
	"math"
	"testing"

	"github.com/daybook/daybook/internal/models/offline"
)

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestEmbedder(t *testing.T) {
	e := offline.NewEmbedder()
	vs, err := e.Embed(context.Background(), []string{
		"Deployed the billing service to production",
		"deploying billing services",
		"Lunch with Maria at the harbour",
		"",
		"Deployed the billing service to production",
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs[:3] {
		if len(v) != offline.EmbedDim {
			t.Fatalf("vector %d has dimension %d", i, len(v))
		}
		if n := cos(v, v); math.Abs(n-1) > 1e-5 {
			t.Fatalf("vector %d has norm² %f", i, n)
		}
	}
	if cos(vs[3], vs[3]) != 0 {
		t.Fatal("the empty text is not the zero vector")
	}
	if c := cos(vs[0], vs[4]); math.Abs(c-1) > 1e-6 {
		t.Fatalf("the same text embeds differently: cosine %f", c)
	}
	same, other := cos(vs[0], vs[1]), cos(vs[0], vs[2])
	if same < 0.5 || other > 0.3 || same <= other {
		t.Fatalf("word forms: cosine %.3f; unrelated: %.3f", same, other)
	}
	if e.Name() != "offline/hash-v1" {
		t.Fatalf("name %q", e.Name())
	}
}

func BenchmarkEmbed(b *testing.B) {
	e := offline.NewEmbedder()
	texts := []string{"Chose Argon2 over bcrypt for password hashing after the review with Dana #auth"}
	for b.Loop() {
		e.Embed(context.Background(), texts)
	}
}
