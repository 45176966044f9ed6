package scan

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// DaysDir is the folder under the data dir that holds the day files.
const DaysDir = "days"

// RelPath returns the path of d's day file relative to the data dir,
// "days/2026/11/22.md", with forward slashes on every OS.
func RelPath(d date.Date) string {
	return fmt.Sprintf("%s/%04d/%02d/%02d.md", DaysDir, d.Year, int(d.Month), d.Day)
}

// Path returns the path of d's day file under the data dir root.
func Path(root string, d date.Date) string {
	return filepath.Join(root, filepath.FromSlash(RelPath(d)))
}

// DateOfRel returns the day of a path relative to the data dir such as
// "days/2026/11/22.md"; ok is false for any other path.
func DateOfRel(rel string) (date.Date, bool) {
	rel = filepath.ToSlash(rel)
	if len(rel) != len("days/2006/01/02.md") || rel[:5] != DaysDir+"/" || rel[9] != '/' || rel[12] != '/' || rel[15:] != ".md" {
		return date.Date{}, false
	}
	d, err := date.Parse(rel[5:9] + "-" + rel[10:12] + "-" + rel[13:15])
	return d, err == nil
}

// File is a day file on disk.
type File struct {
	Date    date.Date
	Path    string // absolute, or relative to the working directory like root
	Size    int64
	ModTime time.Time
}

// List returns the day files under root whose day is in r (an open Range for
// all), oldest first. It opens only the year and month folders that overlap r.
// Anything else in days/ (notes.md, editor swap files, a folder named misc) is
// skipped with a debug log line. A missing days/ folder is an empty list.
func List(root string, r date.Range, log *slog.Logger) ([]File, error) {
	return list(root, r, log, true)
}

// ListPaths is List without Size and ModTime: it saves a stat of every file,
// which a scan that reads each file anyway does not need.
func ListPaths(root string, r date.Range, log *slog.Logger) ([]File, error) {
	return list(root, r, log, false)
}

func list(root string, r date.Range, log *slog.Logger, stat bool) ([]File, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	daysDir := filepath.Join(root, DaysDir)
	years, err := readDirNames(daysDir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing day files: %w", err)
	}
	var out []File
	for _, y := range years {
		year, ok := number(y, 4)
		if !ok {
			log.Debug("ignoring entry in days/", "path", filepath.Join(daysDir, y))
			continue
		}
		if !r.Overlaps(date.YearRange(year)) {
			continue
		}
		if isLink(filepath.Join(daysDir, y)) {
			log.Debug("ignoring symbolic link in days/", "path", filepath.Join(daysDir, y))
			continue
		}
		months, err := readDirNames(filepath.Join(daysDir, y))
		if err != nil {
			log.Debug("ignoring unreadable year folder", "path", filepath.Join(daysDir, y), "err", err)
			continue
		}
		for _, m := range months {
			month, ok := number(m, 2)
			if !ok || month < 1 || month > 12 {
				log.Debug("ignoring entry in days/", "path", filepath.Join(daysDir, y, m))
				continue
			}
			mo := date.Month{Year: year, Month: time.Month(month)}
			if !r.Overlaps(mo.Range()) {
				continue
			}
			dir := filepath.Join(daysDir, y, m)
			if isLink(dir) {
				log.Debug("ignoring symbolic link in days/", "path", dir)
				continue
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				log.Debug("ignoring unreadable month folder", "path", dir, "err", err)
				continue
			}
			for _, e := range ents {
				d, ok := DateOfRel(DaysDir + "/" + y + "/" + m + "/" + e.Name())
				if !ok || !e.Type().IsRegular() {
					log.Debug("ignoring entry in days/", "path", filepath.Join(dir, e.Name()))
					continue
				}
				if !r.Contains(d) {
					continue
				}
				f := File{Date: d, Path: filepath.Join(dir, e.Name())}
				if stat {
					fi, err := e.Info()
					if err != nil {
						continue // removed since ReadDir
					}
					f.Size, f.ModTime = fi.Size(), fi.ModTime()
				}
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, func(a, b File) int { return a.Date.Compare(b.Date) })
	return out, nil
}

func readDirNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	slices.Sort(names)
	return names, err
}

func number(s string, width int) (int, bool) {
	if len(s) != width {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// isLink reports whether p is a symbolic link.
func isLink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&os.ModeSymlink != 0
}
