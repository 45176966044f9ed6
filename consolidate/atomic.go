package consolidate

import (
	"fmt"
	"os"
	"path/filepath"
)

// tempPattern names the temp files writeAtomic leaves only while it runs.
const tempPattern = ".daybook-tmp-*"

// writeAtomic writes data to path so that a reader sees the old content or
// the new, never a part: a temp file in the same folder, fsync, rename over
// path, fsync of the folder. On any error the temp file is removed.
func writeAtomic(path string, data []byte) (os.FileInfo, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating folder for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return nil, fmt.Errorf("creating temp file for %s: %w", path, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return nil, fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := f.Chmod(0o644); err != nil {
		return nil, fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("syncing %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("closing %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("renaming %s to %s: %w", tmp, path, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return os.Stat(path)
}
