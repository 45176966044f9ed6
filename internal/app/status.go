package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/merge"
)

// StatusHook fills in a part's fields of a status answer: the index its
// size, consolidation its summary counts and stale periods, the daemon its
// jobs. A hook that cannot tell leaves its fields at their zero values.
type StatusHook = func(ctx context.Context, resp *daybook.StatusResponse)

// StatusBoard answers status: the days and entries of the data dir, and
// whatever each part registered with OnStatus fills in (the summaries, the
// index, the models, the daemon's jobs).
type StatusBoard struct {
	*env
	counts entryCounts // each day's entry count, kept between answers
	hooks  hooks[StatusHook]
}

// OnStatus registers fn to fill in its part of every full status answer.
func (sb *StatusBoard) OnStatus(fn StatusHook) {
	sb.hooks.add(fn)
}

// Status says how the data dir stands: how many days and entries it holds,
// and whatever the registered parts add. A brief request reads nothing and
// names only the data dir. Whether a daemon answers is for the socket server
// to say; the App leaves Daemon at its zero value.
func (sb *StatusBoard) Status(ctx context.Context, req daybook.StatusRequest) (daybook.StatusResponse, error) {
	resp := daybook.StatusResponse{DataDir: sb.dir}
	if req.Brief {
		return resp, nil
	}
	files, err := dayfiles.List(sb.dir, date.Range{}, sb.log)
	if err != nil {
		return resp, err
	}
	resp.Days = len(files)
	counts, conflicted, err := sb.counts.of(ctx, files, sb.log)
	if err != nil {
		return resp, err
	}
	resp.Zone = sb.Loc().String()
	resp.Conflicted = conflicted
	resp.Merge = merge.Notices(sb.dir)
	for _, n := range counts {
		if n < 0 {
			resp.Unreadable++
			continue
		}
		resp.Entries += n
	}
	for _, h := range sb.hooks.list() {
		h(ctx, &resp)
	}
	return resp, nil
}

// entryCounts keeps each day file's entry count, keyed by its size and
// modification time, so that a daemon's status parses only the days that
// changed since the last one (what parsing them all cost is in
// BENCHMARKS.md, "Figures behind the code"). About 40 bytes a day; nothing
// is written to disk.
type entryCounts struct {
	mu     sync.Mutex
	byPath map[string]entryCount
}

type entryCount struct {
	size  int64
	mtime time.Time
	n     int // -1: the file does not parse
	// conflict is the line of the file's first conflict marker, 0 for none.
	conflict int
}

// of returns the entry count of each of files, -1 for one that does not
// parse; a file that cannot be read counts as not parsing and is read
// again next time.
// The second result names the files holding conflict markers, with the
// line of the first.
func (c *entryCounts) of(ctx context.Context, files []dayfiles.File, log *slog.Logger) ([]int, []string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.byPath
	c.byPath = make(map[string]entryCount, len(files))
	out := make([]int, len(files))
	var conflicted []string
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			c.byPath = old
			return nil, nil, err
		}
		if e, ok := old[f.Path]; ok && e.size == f.Size && e.mtime.Equal(f.ModTime) {
			c.byPath[f.Path], out[i] = e, e.n
			if e.conflict > 0 {
				conflicted = append(conflicted, fmt.Sprintf("%s:%d", dayfiles.RelPath(f.Date), e.conflict))
			}
			continue
		}
		e := entryCount{size: f.Size, mtime: f.ModTime}
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		var ce *dayfiles.ConflictError
		if errors.As(err, &ce) {
			e.conflict = ce.Line
			conflicted = append(conflicted, fmt.Sprintf("%s:%d", dayfiles.RelPath(f.Date), ce.Line))
		}
		if err != nil {
			e.n = -1
			log.Debug("counting entries", "path", f.Path, "err", err)
		} else {
			e.n = len(day.Entries)
		}
		out[i] = e.n
		var pe *fs.PathError
		if err == nil || !errors.As(err, &pe) { // unreadable: not kept, read again
			c.byPath[f.Path] = e
		}
	}
	return out, conflicted, nil
}
