package consolidate

import (
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
)

// removeStaleTemps removes the temp files that writeAtomic calls killed
// mid-write (SIGKILL, power loss) left under the summaries folder. Run calls
// it while it holds the consolidation lock, when no write can be under way.
func removeStaleTemps(root string, log *slog.Logger) {
	dir := filepath.Join(root, SummariesDir)
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if ok, _ := filepath.Match(tempPattern, d.Name()); ok {
			if err := os.Remove(p); err == nil {
				log.Info("removed a temp file left by an interrupted run", "path", p)
			}
		}
		return nil
	})
}
