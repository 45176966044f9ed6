package index

import (
	"runtime"
	"unsafe"

	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"golang.org/x/sys/unix"
)

// DropMapped tells the kernel that this process no longer needs the pages
// of the index's files it has mapped (bleve's segments, the vector codes:
// read-only shared mappings), and returns how many bytes of mappings it
// did that for. The pages stay in the page cache, where the kernel keeps
// or reclaims them as it keeps any cached file; the next search maps back
// the pages it reads, a minor fault each. Without it a daemon's resident
// set holds every page its searches ever touched, most of the index after
// a hundred recalls (BENCHMARKS.md, issue 16).
//
// MADV_DONTNEED on memory that is no longer the file's (unmapped since
// /proc/self/maps was read, and the addresses reused) would zero it, so
// only mappings that cannot go away meanwhile are dropped: the segments of
// a snapshot it holds open (scorch unmaps a segment only once no snapshot
// has it), by their file, not deleted; and the vector store's own mapping,
// by its address, the store kept alive. Only mappings without write
// permission are dropped: they hold nothing that is not in the file.
func (x *Index) DropMapped() int64 {
	x.TextIndex.mu.RLock()
	closed, bl := x.TextIndex.closed, x.bl
	x.TextIndex.mu.RUnlock()
	x.VectorStore.mu.RLock()
	v := x.vec
	x.VectorStore.mu.RUnlock()
	if closed || bl == nil {
		return 0
	}
	dir, err := filepath.Abs(x.dir)
	if err != nil {
		return 0
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	segs := map[string]bool{} // the paths of the held snapshot's segments
	if adv, err := bl.Advanced(); err == nil {
		if s, ok := adv.(*scorch.Scorch); ok {
			if r, err := s.Reader(); err == nil {
				defer r.Close()
				if snap, ok := r.(*scorch.IndexSnapshot); ok {
					for _, ss := range snap.Segments() {
						if p, ok := ss.Segment().(interface{ Path() string }); ok {
							segs[filepath.Join(dir, bleveDir, "store", filepath.Base(p.Path()))] = true
						}
					}
				}
			}
		}
	}
	var vecAt uintptr
	if v != nil && len(v.mapped) > 0 {
		vecAt = uintptr(unsafe.Pointer(&v.mapped[0]))
		defer runtime.KeepAlive(v)
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0
	}
	defer f.Close()
	var n int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// start-end perms offset dev inode path [(deleted)]
		fs := bytes.Fields(sc.Bytes())
		if len(fs) < 6 || len(fs[1]) < 2 || fs[1][1] != '-' {
			continue
		}
		lo, hi, ok := strings.Cut(string(fs[0]), "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		path := string(fs[5])
		if !(len(fs) == 6 && segs[path]) && !(vecAt != 0 && uintptr(start) == vecAt && strings.HasPrefix(path, dir+string(filepath.Separator))) {
			continue
		}
		_, _, errno := unix.Syscall(unix.SYS_MADVISE, uintptr(start), uintptr(end-start), unix.MADV_DONTNEED)
		if errno == 0 {
			n += int64(end - start)
		}
	}
	return n
}

// dropMappedEvery calls DropMapped every interval until the function it
// returns is called (which waits for the last call to end) or ctx ends.
func (x *Index) dropMappedEvery(ctx context.Context, every time.Duration) func() {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				x.DropMapped()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
