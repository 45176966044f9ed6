package consolidate

import (
	"os"

	"github.com/daybook/daybook/internal/util/atomicfile"
)

// tempPattern names the temp files an interrupted write leaves behind.
const tempPattern = atomicfile.TempPattern

// writeFile replaces a summary atomically and returns what is now on disk.
func writeFile(path string, data []byte) (os.FileInfo, error) {
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return nil, err
	}
	return os.Stat(path)
}
