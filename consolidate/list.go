package consolidate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// File is a summary file on disk.
type File struct {
	Period  Period
	Path    string // under the root given to List
	Rel     string // summaries/2026/11/22.md
	Size    int64
	ModTime time.Time
}

// List returns the summary files of level (all levels for "") whose period
// overlaps r (an open Range for all), days first, then months, then years,
// each oldest first. It opens only the year folders that overlap r; names
// that are not summaries (temp files, the state file, notes) are skipped.
func List(root string, level date.Level, r date.Range) ([]File, error) {
	if _, err := ParseLevel(string(level)); err != nil {
		return nil, err
	}
	dir := filepath.Join(root, SummariesDir)
	years, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing summaries: %w", err)
	}
	var out []File
	add := func(level date.Level, s, path string, e os.DirEntry) {
		p, err := ParsePeriod(level, s)
		if err != nil || !e.Type().IsRegular() || !r.Overlaps(p.Range()) {
			return
		}
		if fi, err := e.Info(); err == nil {
			out = append(out, File{Period: p, Path: path, Rel: p.Rel(), Size: fi.Size(), ModTime: fi.ModTime()})
		}
	}
	for _, y := range years {
		name := y.Name()
		if yr, ok := strings.CutSuffix(name, ".md"); ok {
			if level == "" || level == date.LevelYear {
				add(date.LevelYear, yr, filepath.Join(dir, name), y)
			}
			continue
		}
		yp, err := ParsePeriod(date.LevelYear, name)
		if err != nil || !y.IsDir() || !r.Overlaps(yp.Range()) || level == date.LevelYear {
			continue
		}
		months, err := os.ReadDir(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("listing summaries: %w", err)
		}
		for _, m := range months {
			if mo, ok := strings.CutSuffix(m.Name(), ".md"); ok {
				if level == "" || level == date.LevelMonth {
					add(date.LevelMonth, name+"-"+mo, filepath.Join(dir, name, m.Name()), m)
				}
				continue
			}
			if level == date.LevelMonth || !m.IsDir() {
				continue
			}
			mp, err := ParsePeriod(date.LevelMonth, name+"-"+m.Name())
			if err != nil || !r.Overlaps(mp.Range()) {
				continue
			}
			days, err := os.ReadDir(filepath.Join(dir, name, m.Name()))
			if err != nil {
				return nil, fmt.Errorf("listing summaries: %w", err)
			}
			for _, d := range days {
				if dd, ok := strings.CutSuffix(d.Name(), ".md"); ok {
					add(date.LevelDay, name+"-"+m.Name()+"-"+dd, filepath.Join(dir, name, m.Name(), d.Name()), d)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b File) int { return comparePeriods(a.Period, b.Period) })
	return out, nil
}
