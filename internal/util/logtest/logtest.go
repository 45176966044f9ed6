// Package logtest holds what tests use to read the logs of the code they
// drive: a buffer that the logger writes to while the test reads it.
package logtest

import (
	"bytes"
	"sync"
)

// Buffer is an io.Writer for a slog handler that a test may read while
// other goroutines log to it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
