package index

import (
	"log/slog"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// TextIndex is the text side of an Index: the bleve index of every
// document, with the manifest of the source files it was built from,
// which is written in the same bleve batch as their documents. It ranks
// by BM25 and reads documents back (search.go, rank.go, located.go), and
// owns its own lock; the Index writes to it (write.go).
type TextIndex struct {
	dir  string
	root string // Options.Root: what located documents' paths are relative to
	log  *slog.Logger
	// boltTimeout is how long opening bleve waits for its lock, kept for
	// reopening it after a failed batch (reopen).
	boltTimeout time.Duration

	// held is what the write path knows of the documents of the sources
	// written lately (diff.go); the Index's writeMu guards it.
	held held

	mu       sync.RWMutex               // guards what follows; lockWrite, not mu.Lock, to write
	gen      uint64                     // counts lockWrite calls: what counts caches is of one gen
	counts   genCache[countKey, uint64] // Count's answers
	longer   genCache[string, []string] // the longer words of query words (expand.go)
	closed   bool                       // Close ran
	bl       bleve.Index
	manifest map[string]string // source path → stamp (size and mod time) it was indexed at
	// What bleve holds of the manifest (manifest.go): delta, the paths
	// written since the full one, whose fingerprint is base; stale says
	// the full one is older than manifest at paths not in delta (a bulk
	// build under way), so the next write writes it whole.
	delta map[string]string
	base  string
	stale bool
}

// lockWrite takes t.mu for writing and starts a new generation: the counts
// kept are older from then on. Every write to what t.mu guards goes
// through it, paired with unlockWrite.
func (t *TextIndex) lockWrite() {
	t.mu.Lock()
	t.gen++
}

// unlockWrite lets go of what lockWrite took.
func (t *TextIndex) unlockWrite() { t.mu.Unlock() }

// stamp returns the stamp the manifest holds for path.
func (t *TextIndex) stamp(path string) (string, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	s, ok := t.manifest[path]
	return s, ok
}
