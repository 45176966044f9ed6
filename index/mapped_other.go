//go:build !linux

package index

import (
	"context"
	"time"
)

func (x *Index) dropMappedEvery(context.Context, time.Duration) func() { return func() {} }

// DropMapped does nothing where the index's mappings cannot be listed: the
// kernel reclaims their pages under memory pressure, as it does anywhere.
func (x *Index) DropMapped() int64 { return 0 }
