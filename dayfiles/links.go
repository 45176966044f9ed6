package dayfiles

import (
	"fmt"
	"os"
	"path/filepath"
)

// checkNoLinks returns an error when the day file at path, its month folder
// or its year folder is a symbolic link. daybook does not follow links below
// days/, so that nothing outside the data dir is read or written through one
// (the data dir and days/ themselves may be links: where the store lives is
// the user's choice). A part that does not exist is no error.
func checkNoLinks(path string) error {
	p := path
	for range 3 {
		if isLink(p) {
			return fmt.Errorf("%s is a symbolic link; daybook does not follow links below days/ (move the file or folder into place instead)", p)
		}
		p = filepath.Dir(p)
	}
	return nil
}

// isLink reports whether p is a symbolic link.
func isLink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}

// ReadFile reads the day file at path as os.ReadFile does, but refuses a
// day file, month or year folder that is a symbolic link, and a file over
// MaxFileSize before reading it.
func ReadFile(path string) ([]byte, error) {
	if err := checkNoLinks(path); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil {
		if err := CheckSize(path, fi.Size()); err != nil {
			return nil, err
		}
	}
	return os.ReadFile(path)
}

// OpenFile opens the day file at path for reading, refusing a day file,
// month or year folder that is a symbolic link, as ReadFile does.
func OpenFile(path string) (*os.File, error) {
	if err := checkNoLinks(path); err != nil {
		return nil, err
	}
	return os.Open(path)
}
