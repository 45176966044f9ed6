package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// statsName is the file beside a cached corpus that says what gen wrote; its
// presence says the corpus is whole.
const statsName = "gen-stats.json"

// corpusEnd is the last day of every generated corpus: the 31 December
// before now, so that every day, month and year is closed and a rerun on
// the same day reuses the cache.
func corpusEnd(today date.Date) date.Date {
	return date.Date{Year: today.Year - 1, Month: 12, Day: 31}
}

// cachedCorpus returns the corpus of years and seed under cache, generating
// it when missing. Only days/ and facts.jsonl are kept there; the benchmarks
// work on a copy.
func cachedCorpus(cache string, years int, seed uint64, end date.Date) (dir string, st gen.Stats, reused bool, err error) {
	dir = filepath.Join(cache, fmt.Sprintf("corpus-y%d-s%d-%s", years, seed, end))
	if data, err := os.ReadFile(filepath.Join(dir, statsName)); err == nil {
		if err := json.Unmarshal(data, &st); err != nil {
			return "", st, false, fmt.Errorf("reading %s: %w", filepath.Join(dir, statsName), err)
		}
		return dir, st, true, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", st, false, fmt.Errorf("creating cache: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil { // a generation cut short: no stats file
		return "", st, false, fmt.Errorf("removing a partial corpus: %w", err)
	}
	tmp, err := os.MkdirTemp(cache, "gen-*")
	if err != nil {
		return "", st, false, fmt.Errorf("creating cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	if st, err = gen.Write(tmp, gen.Options{Years: years, Seed: seed, End: end}); err != nil {
		return "", st, false, fmt.Errorf("generating %d years: %w", years, err)
	}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(tmp, statsName), data, 0o644); err != nil {
		return "", st, false, fmt.Errorf("writing corpus stats: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", st, false, fmt.Errorf("moving the corpus into the cache: %w", err)
	}
	return dir, st, false, nil
}

// cloneDays makes dst/days a copy of src/days: hard links where the file
// system allows (no day file is written by the benchmarks), else copies.
func cloneDays(src, dst string) error {
	from := filepath.Join(src, dayfiles.DaysDir)
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if err := os.Link(path, to); err == nil {
			return nil
		}
		return copyFile(path, to)
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", from, err)
	}
	return out.Close()
}

// writeConfig writes the config the children use: offline models, UTC, the
// socket at socket, no consolidation on edits (nothing is edited).
func writeConfig(path, socket string) error {
	cfg := fmt.Sprintf(`timezone: UTC
socket:
  path: %q
ollama:
  enabled: false
consolidate:
  on_edit: false
log:
  level: warn
`, socket)
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		return fmt.Errorf("writing bench config: %w", err)
	}
	return nil
}

// dirSize sums the sizes of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

var errNoFacts = errors.New("the corpus has no planted facts to ask")
