//go:build !unix

package scan

import (
	"io"
	"os"
	"slices"
)

// ReadInto reads the file f into buf, growing it as needed. The size from
// List is a hint: the file may have grown or shrunk since.
func ReadInto(buf []byte, f File) ([]byte, error) {
	fh, err := os.Open(f.Path)
	if err != nil {
		return buf, err
	}
	defer fh.Close()
	if want := int(f.Size) + 4096; cap(buf) < want {
		buf = make([]byte, 0, want+want/4)
	}
	buf = buf[:0]
	for {
		n, err := fh.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
	}
}
