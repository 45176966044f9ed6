package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/blevesearch/bleve/v2"
	bolterrors "go.etcd.io/bbolt/errors"
)

// CheckResult is what Check found in a readable index.
type CheckResult struct {
	Docs     uint64
	Vectors  int
	Embedder string
	Dim      int
	Bytes    int64
}

// ErrOldFormat is what Check returns for an index an earlier or a later
// daybook wrote: not broken, but Open rebuilds it (or moves it aside).
var ErrOldFormat = errors.New("index of another format")

// ErrBehind is what Check returns for an index that reads but holds
// fewer documents than vectors: its catch-up indexes the files again.
var ErrBehind = errors.New("index behind its vectors")

// checkLockTimeout is how long Check waits for another process to let go
// of the index before it reports ErrBusy.
const checkLockTimeout = 200 * time.Millisecond

// Check reads the index in dir (DATA/index) as Open would, without
// changing, moving or rebuilding anything: meta.json, the bleve index
// (opened read-only, counted and asked one query, which reads a stored
// document) and the vector store with its log (checksums). An error names
// the file and what is wrong with it: Open would move such an index aside
// and rebuild it. It returns ErrBusy when another process (the daemon)
// holds the index: that one opened it, so it reads.
func Check(ctx context.Context, dir string) (CheckResult, error) {
	var r CheckResult
	lock, err := takeOpenLock(dir, checkLockTimeout)
	if err != nil {
		return r, err
	}
	defer lock.Close()
	metaPath := filepath.Join(dir, metaName)
	data, err := os.ReadFile(metaPath)
	if err != nil {
		return r, fmt.Errorf("reading %s: %w", metaPath, err)
	}
	var m meta
	if err := json.Unmarshal(data, &m); err != nil {
		return r, fmt.Errorf("%s: %w", metaPath, err)
	}
	if m.Format != Format {
		return r, fmt.Errorf("%w: %s says format %d, this daybook reads %d", ErrOldFormat, metaPath, m.Format, Format)
	}
	r.Embedder, r.Dim = m.Embedder, m.Dim
	path := filepath.Join(dir, bleveDir)
	if _, err := os.Stat(path); err != nil {
		return r, fmt.Errorf("bleve index: %w", err)
	}
	bl, err := bleve.OpenUsing(path, map[string]any{"read_only": true, "bolt_timeout": checkLockTimeout.String()})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return r, fmt.Errorf("%w (%s)", ErrBusy, path)
	}
	if err != nil {
		return r, fmt.Errorf("opening the bleve index %s: %w", path, err)
	}
	defer bl.Close()
	if r.Docs, err = bl.DocCount(); err != nil {
		return r, fmt.Errorf("counting the documents of %s: %w", path, err)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 1, 0, false)
	req.Fields = []string{"*"}
	res, err := bl.SearchInContext(ctx, req)
	if err != nil {
		return r, fmt.Errorf("searching %s: %w", path, err)
	}
	if r.Docs > 0 && len(res.Hits) == 0 {
		return r, fmt.Errorf("%s counts %d documents but a search finds none", path, r.Docs)
	}
	if _, err := readManifest(bl); err != nil {
		return r, fmt.Errorf("reading the manifest of %s: %w", path, err)
	}
	if m.Embedder != "" {
		v, err := readVectors(dir, m.Embedder, m.Dim)
		if err != nil {
			return r, err
		}
		r.Vectors = v.len()
	}
	// Scorch opens an older snapshot, or none, when the newest one's
	// segments will not load, and only logs it; a write cut short between
	// the vector log and the bleve batch leaves the same: vectors of
	// documents the bleve index does not hold. The manifest is as old as
	// the documents, so the next catch-up indexes those files again.
	if uint64(r.Vectors) > r.Docs {
		return r, fmt.Errorf("%w: %s holds %d documents, fewer than the %d vectors of %s (its newest segments in %s did not load, or a write was cut short)",
			ErrBehind, path, r.Docs, r.Vectors, filepath.Join(dir, vecBinName), filepath.Join(path, "store"))
	}
	r.Bytes = DiskBytes(dir)
	return r, nil
}
