package index

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// brokenInfix names a folder that Open moved aside: DATA/index.broken-TIMESTAMP.
const brokenInfix = ".broken-"

// Aside is a folder Open moved aside because the index in it would not open.
type Aside struct {
	Path    string
	Bytes   int64
	ModTime time.Time
}

// AsideDirs lists the folders Open moved aside from the index folder dir
// (dir.broken-TIMESTAMP), oldest first, with the bytes each holds.
func AsideDirs(dir string) []Aside {
	dir = filepath.Clean(dir)
	paths, _ := filepath.Glob(dir + brokenInfix + "*")
	var out []Aside
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() || !strings.HasPrefix(filepath.Base(p), filepath.Base(dir)+brokenInfix) {
			continue
		}
		out = append(out, Aside{Path: p, Bytes: DiskBytes(p), ModTime: fi.ModTime()})
	}
	// The timestamp in the name sorts as time does; a name alone breaks ties.
	slices.SortFunc(out, func(a, b Aside) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// pruneAside removes every folder moved aside from dir but keep, the one
// just made: an index is rebuilt from the day files, so a broken copy is
// worth keeping only to look at what broke last, and a machine killed often
// would otherwise pile them up. It returns what it removed.
func pruneAside(dir, keep string) []string {
	var removed []string
	for _, a := range AsideDirs(dir) {
		if a.Path == filepath.Clean(keep) {
			continue
		}
		if err := os.RemoveAll(a.Path); err == nil {
			removed = append(removed, a.Path)
		}
	}
	return removed
}
