//go:build !linux

package index

// DropMapped does nothing where the index's mappings cannot be listed: the
// kernel reclaims their pages under memory pressure, as it does anywhere.
func (x *Index) DropMapped() int64 { return 0 }
