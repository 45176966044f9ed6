package offline

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/daybook/daybook/internal/util/words"
)

// EmbedDim is the dimension of the offline embedder's vectors.
const EmbedDim = 256

// Weights of the features, relative to a word's.
const (
	bigramWeight = 0.6
)

// Embedder is daybook's offline embedder: deterministic feature hashing, no
// model and no network. A text becomes the Porter stems of its words (the same
// stemmer bleve's English analyzer uses, after dropping common English stop
// words), and every stem and every pair of neighbouring stems is hashed into
// one of EmbedDim signed buckets, weighted by 1+ln(tf).
//
// What it captures: texts that share words or forms of a word ("deploy",
// "deployed", "deploying"), and short phrases ("rate limit" near "rate
// limiting"), so cosine similarity is a smoothed, order-aware cousin of a
// word-overlap score. What it cannot capture: synonyms ("car" and
// "automobile" are unrelated to it), paraphrase without shared words,
// negation ("chose Postgres" and "did not choose Postgres" look alike),
// and anything of meaning beyond the words; with 256 buckets unrelated words
// also collide now and then. Use an Ollama embedding model for meaning.
type Embedder struct{}

// NewEmbedder returns the offline embedder.
func NewEmbedder() *Embedder { return &Embedder{} }

// Name identifies the embedder and its version; changing the features or the
// dimension must change it, so that an index re-embeds.
func (*Embedder) Name() string { return "offline/hash-v1" }

// Dim returns the dimension of the vectors.
func (*Embedder) Dim() int { return EmbedDim }

// Embed returns one normalised vector per text; an empty or stop-word-only
// text gets the zero vector. Many texts (an index build asks for 256 at a
// time) are embedded by as many goroutines as there are cores: a build's
// bleve batch leaves a core idle while its embedding ran alone, a tenth of
// a 5-year reindex.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts)/parallelMin)
	if workers <= 1 {
		return out, embedInto(ctx, out, texts)
	}
	errs := make([]error, workers)
	var wg sync.WaitGroup
	per := (len(texts) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*per, min((w+1)*per, len(texts))
		wg.Go(func() { errs[w] = embedInto(ctx, out[lo:hi], texts[lo:hi]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, ctx.Err()
	}
	return out, nil
}

// parallelMin is the fewest texts a goroutine of Embed takes on.
const parallelMin = 32

// embedInto embeds texts into out, checking ctx now and then.
func embedInto(ctx context.Context, out [][]float32, texts []string) error {
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		out[i] = EmbedText(t)
	}
	return nil
}

// EmbedText returns the normalised feature-hashing vector of one text.
func EmbedText(text string) []float32 {
	stems := words.Stems(text)
	counts := make(map[string]float64, len(stems)*2)
	for i, s := range stems {
		counts[s]++
		if i > 0 {
			counts[stems[i-1]+" "+s] += bigramWeight
		}
	}
	v := make([]float32, EmbedDim)
	for f, tf := range counts {
		w := 1 + math.Log(tf)
		if strings.IndexByte(f, ' ') >= 0 {
			w = bigramWeight * (1 + math.Log(tf/bigramWeight))
		}
		h := fnv.New64a()
		h.Write([]byte(f))
		sum := h.Sum64()
		b := int(sum % EmbedDim)
		if sum>>63 == 1 {
			w = -w
		}
		v[b] += float32(w)
	}
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if norm > 0 {
		inv := float32(1 / math.Sqrt(norm))
		for i := range v {
			v[i] *= inv
		}
	}
	return v
}
