package index

import "context"

// Embedder turns texts into vectors for the vector side of the index.
type Embedder interface {
	// Name identifies the model and its version, "offline/hash-v1" or
	// "ollama/nomic-embed-text". The index records it with the dimension of
	// the vectors; a change of either re-embeds everything.
	Name() string
	// Embed returns one vector per text, all of the same dimension. They need
	// not be normalised: the index normalises them.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
