// Package atomicfile replaces a file so that a reader, or the next start
// after a crash, sees its old content or its new content, never a part: the
// data goes to a temp file in the same folder, is synced, and is renamed over
// the file; then the folder is synced so that the rename itself lasts.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// TempPattern names the temp files Write uses. Only a process killed in the
// middle of a Write leaves one behind; TempPattern lets its owner find them.
const TempPattern = ".daybook-tmp-*"

// Write replaces path with data, creating its folder if needed, with mode
// perm. On any error the temp file is removed and path is untouched.
func Write(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating folder for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, TempPattern)
	if err != nil {
		return fmt.Errorf("creating temp file for %s: %w", path, err)
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
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("renaming %s to %s: %w", tmp, path, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
