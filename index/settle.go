package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// openAttempts bounds the attempts openSettled makes while the index's
// files keep changing under it.
const openAttempts = 4

// openSettled opens the index that mk makes, and tells a broken index from
// one caught changing. An error proves the index unreadable only when a
// second attempt fails on the very same files (filesOf: names, sizes, times): one
// that came while another process was still writing them (a daybook
// without the open lock, a write that outlived a Close) goes away once the
// writer is done, and moving 34 s of work aside for it would be a defect.
// It reports broken when the error is that proof; an error of the
// surroundings (permissions, a full disk, too many open files, a busy
// index) never is.
func openSettled(mk func() *Index, want meta, timeout time.Duration) (x *Index, broken bool, err error) {
	var prev fileSet
	for attempt := 1; ; attempt++ {
		x = mk()
		err = x.open(want, timeout)
		if err == nil {
			if attempt > 1 {
				x.log.Info("index opened on a later attempt: its files were changing", "dir", x.dir, "attempts", attempt)
			}
			return x, false, nil
		}
		if !couldBeBroken(err) {
			return nil, false, err
		}
		files := filesOf(x.dir)
		if attempt > 1 && maps.Equal(files, prev) {
			return nil, true, err
		}
		if attempt == openAttempts {
			return nil, false, fmt.Errorf("%w (the files of %s kept changing over %d attempts to open it: another daybook process writing them? it is left as it is)", err, x.dir, attempt)
		}
		x.log.Info("index will not open; trying again in case its files were being written", "dir", x.dir, "attempt", attempt, "err", err)
		prev = files
		time.Sleep(time.Duration(attempt) * 20 * time.Millisecond) // let a writer finish
	}
}

// couldBeBroken reports whether err, from opening an index, may come from
// its files rather than from their surroundings.
func couldBeBroken(err error) bool {
	for _, e := range []error{ErrBusy, context.Canceled, context.DeadlineExceeded, fs.ErrPermission,
		syscall.EMFILE, syscall.ENFILE, syscall.ENOSPC, syscall.EDQUOT, syscall.ENOMEM, syscall.EROFS, syscall.EIO} {
		if errors.Is(err, e) {
			return false
		}
	}
	return true
}

// fileSet is the files of an index folder that only a process creating,
// closing or clearing it writes: path to size and mod time. Bleve's
// segments and root.bolt are left out (root.bolt is only there or not):
// an attempt's own scorch merges and persists change them, and no other
// process writes them without bolt's lock.
type fileSet map[string]fileStamp

type fileStamp struct {
	size    int64
	modTime int64
}

// filesOf returns dir's fileSet; a file that is missing is left out.
func filesOf(dir string) fileSet {
	set := fileSet{}
	for _, name := range []string{metaName, vecBinName, vecLogName, filepath.Join(bleveDir, "index_meta.json"), filepath.Join(bleveDir, "store", "root.bolt")} {
		path := filepath.Join(dir, name)
		fi, err := os.Stat(path)
		switch {
		case err != nil:
		case filepath.Base(name) == "root.bolt":
			set[path] = fileStamp{}
		default:
			set[path] = fileStamp{fi.Size(), fi.ModTime().UnixNano()}
		}
	}
	return set
}
