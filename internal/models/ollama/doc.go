// Package ollama writes summaries and embeddings with an Ollama server, through
// the official client (github.com/ollama/ollama/api) built from the configured
// URL, and falls back to the offline summarizer when Ollama is down, slow past
// its timeout, or missing the model.
//
// Summaries: a Summarizer prompts per level (a day, a month, a year), splits
// an input larger than the model's context into parts and combines their
// summaries (map-reduce), and rejects empty, overlong or malformed answers
// with a bounded number of retries. WithFallback wraps it with the offline
// summarizer, logs one warning per outage and reports which one is in use.
//
// Embeddings: an Embedder batches texts to /api/embed, normalises the vectors
// and refuses a change of dimension within one run. Vectors of two models are
// never mixed: GuardEmbedder turns an outage into errors matching
// ErrUnavailable, which the index treats as "retry later" (the items stay in
// the text index without vectors until Ollama answers again), instead of
// switching to another vector space.
//
// Upgrade redoes offline-made summaries once Ollama is back, newest first,
// one at a time with a pause between. Upgrader is the daemon's background
// loop around it: it finds the summaries to redo and the vectors an outage
// left missing, and asks again when Ollama said to.
package ollama
