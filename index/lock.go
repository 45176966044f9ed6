package index

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
)

// lockWrite takes x.mu for writing and starts a new generation: what the
// cache holds of the contents (orphans, counts) is older from then on. Every
// write to what x.mu guards goes through it, paired with unlockWrite.
func (x *Index) lockWrite() {
	x.mu.Lock()
	x.gen++
}

// unlockWrite lets go of what lockWrite took.
func (x *Index) unlockWrite() { x.mu.Unlock() }

// openForWrites returns an error once Close ran: a write that was embedding
// when Close came (Close does not wait for writeMu) must not append to the
// vector log or replace the image after Close let go of the open lock,
// when another process may be reading them. The caller holds lockWrite.
func (x *Index) openForWrites() error {
	if x.closed {
		return fmt.Errorf("writing to the index %s: %w", x.dir, bleve.ErrorIndexClosed)
	}
	return nil
}
