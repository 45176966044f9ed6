package index

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// VectorStore is the vector side of an Index: a vector for each document
// (vectors.go), the log its changes are appended to and the image it is
// folded into (vecfile.go), meta.json (the embedder and its dimension), and
// while the embedder is unavailable the documents that wait for a vector
// (pending.go). It ranks by cosine similarity (Nearest), finds the parents
// with no summary of their own (Orphans), and owns its own lock; the Index
// writes to it (write.go).
type VectorStore struct {
	dir string
	emb Embedder
	log *slog.Logger
	now func() time.Time

	// compactFloor is the size under which vectors.log is never folded into
	// the image; 0 means minCompact. Tests lower it. The Index's writeMu
	// guards it.
	compactFloor int64

	mu      sync.RWMutex // guards what follows; lockWrite, not mu.Lock, to write
	orphans orphanCache  // Orphans' answers, for the shape of the store they were found at
	closed  bool         // Close ran
	vec     *vectors
	vlog    vecLog
	meta    meta // Dim 0: the embedder has not answered yet, no vectors

	// While the embedder is unavailable (see pending.go): the documents in
	// bleve without a vector, counted by group for Orphans.
	pending       map[string]vecMeta
	pendingGroups map[groupKey]int
	pendingShape  uint64    // as vectors.shape, of pending and pendingGroups
	scan          bool      // bleve may hold documents without vectors that pending does not list
	offErr        error     // why vectors are off; nil when they are on
	offSince      time.Time // when they went off
	retryAt       time.Time // when to ask the embedder again
}

// lockWrite takes v.mu for writing. Every write to what v.mu guards goes
// through it, paired with unlockWrite.
func (v *VectorStore) lockWrite() { v.mu.Lock() }

// unlockWrite lets go of what lockWrite took.
func (v *VectorStore) unlockWrite() { v.mu.Unlock() }

// openForWrites returns an error once Close ran: a write that was embedding
// when Close came (Close does not wait for writeMu) must not append to the
// vector log or replace the image after Close let go of the open lock,
// when another process may be reading them. The caller holds lockWrite.
func (v *VectorStore) openForWrites() error {
	if v.closed {
		return fmt.Errorf("writing to the index %s: %w", v.dir, bleve.ErrorIndexClosed)
	}
	return nil
}

// Embedder returns the store's embedder.
func (v *VectorStore) Embedder() Embedder { return v.emb }
