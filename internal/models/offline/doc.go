// Package offline holds daybook's built-in models, which need no network and
// no model files: an extractive Summarizer that picks a period's most salient
// sentences, and a hashing Embedder. They are deterministic: the same input
// gives the same output on every machine.
package offline
