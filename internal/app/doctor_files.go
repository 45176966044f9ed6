package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/spool"
)

// maxDayProblems is how many day files doctor names one by one; the rest
// are counted on one more line.
const maxDayProblems = 5

// checkDayFiles reports what makes remember refuse a day, or the index and
// recall leave it out: a day file, month or year folder below days/ that is
// a symbolic link (daybook does not follow them), and a day file that does
// not parse (not UTF-8, over the size limit). Conflict markers are
// checkMerges' to report.
func (ck *Checkup) checkDayFiles(ctx context.Context) []daybook.Check {
	const name = "day files"
	var bad []daybook.Check
	days := filepath.Join(ck.dir, dayfiles.DaysDir)
	// The trailing separator follows days/ itself when it is a link: where
	// the store lives is the user's choice.
	filepath.WalkDir(days+string(filepath.Separator), func(path string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return nil // unreadable folders are the data dir check's
		}
		rel, _ := filepath.Rel(ck.dir, path)
		if d.Type()&fs.ModeSymlink != 0 {
			bad = append(bad, fail(name,
				fmt.Sprintf(`replace the link with what it points to: t=$(readlink -f %s) && rm %s && cp -a "$t" %s`, path, path, path),
				"%s is a symbolic link: daybook does not follow links below days/, so remember to its days is refused and recall leaves them out", rel))
			return nil
		}
		if d.IsDir() && strings.Count(rel, string(filepath.Separator)) >= 3 {
			return fs.SkipDir // days/YYYY/MM holds the files
		}
		return nil
	})
	files, err := dayfiles.List(ck.dir, date.Range{}, ck.log)
	if err != nil {
		return []daybook.Check{fail(name, "check the permissions of the days/ folders", "listing day files: %v", err)}
	}
	var full []daybook.Check
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		if c, ok := dayFullness(f); ok {
			full = append(full, c)
		}
		_, err := dayfiles.ParseFile(f.Path, f.Date)
		var ce *dayfiles.ConflictError
		if err == nil || errors.As(err, &ce) {
			continue
		}
		rel := dayfiles.RelPath(f.Date)
		fix := fmt.Sprintf("convert it to UTF-8 (written as Latin-1? iconv -f LATIN1 -t UTF-8 %s > %s.new && mv %s.new %s) or remove the bad bytes at the line named", f.Path, f.Path, f.Path, f.Path)
		if !strings.Contains(err.Error(), "UTF-8") {
			fix = "edit or split the file so that it reads as a day file"
		}
		bad = append(bad, fail(name, fix, "%s: remember to %s is refused, and recall leaves it out: %v", rel, f.Date, trimPath(err, ck.dir)))
	}
	if len(full) > maxDayProblems {
		full = full[:maxDayProblems]
	}
	bad = append(bad, full...)
	switch {
	case len(bad) == 0:
		return []daybook.Check{ok(name, "%d day files read as UTF-8 text, none near its size limit, no symbolic links below days/", len(files))}
	case len(bad) > maxDayProblems:
		more := len(bad) - maxDayProblems
		return append(bad[:maxDayProblems], fail(name, "as above", "and %d more day files or links like these", more))
	}
	return bad
}

// trimPath shortens the data dir out of an error's text: the detail names
// days/... as the other checks do.
func trimPath(err error, dir string) string {
	return strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
}

// checkAside lists the index folders moved aside because they would not
// open (index.broken-*): the index was rebuilt from the day files, so they
// are kept only to look at what broke, and only the newest is kept when
// another breaks.
func (ck *Checkup) checkAside() daybook.Check {
	const name = "old index"
	aside := index.AsideDirs(filepath.Join(ck.dir, IndexDir))
	if len(aside) == 0 {
		return ok(name, "no broken index moved aside")
	}
	var parts, paths []string
	var total int64
	for _, x := range aside {
		parts = append(parts, fmt.Sprintf("%s (%.1f MB, %s)", filepath.Base(x.Path), float64(x.Bytes)/1e6, x.ModTime.Format("2006-01-02 15:04")))
		paths = append(paths, x.Path)
		total += x.Bytes
	}
	return warn(name, "rm -rf "+strings.Join(paths, " "),
		"%d broken index folders moved aside, %.1f MB: %s; the index was rebuilt from the day files, so they are only of use to see what broke",
		len(aside), float64(total)/1e6, strings.Join(parts, ", "))
}

// dayFullness says when day file f is near its size limit or full
// (dayfiles.NearFull, dayfiles.FullAt): a full day still takes entries, as
// stubs whose text is in rest/.
func dayFullness(f dayfiles.File) (daybook.Check, bool) {
	const name = "day files"
	rel := dayfiles.RelPath(f.Date)
	mib := float64(f.Size) / (1 << 20)
	switch {
	case f.Size > dayfiles.MaxFileSize:
		return daybook.Check{}, false // ParseFile's error says it
	case f.Size >= dayfiles.FullAt:
		return warn(name, "move old entries of the day to a file of your own, or leave it: nothing is lost",
			"%s is full (%.1f of %d MiB): its new entries are stubs that link to their text in %s/", rel, mib,
			dayfiles.MaxFileSize>>20, dayfiles.RestDir), true
	case f.Size >= dayfiles.NearFull:
		return warn(name, "nothing to do yet; a full day keeps each new entry's text in "+dayfiles.RestDir+"/ and links to it",
			"%s is near its size limit (%.1f of %d MiB; full at %d MiB)", rel, mib, dayfiles.MaxFileSize>>20, dayfiles.FullAt>>20), true
	}
	return daybook.Check{}, false
}

// checkSpool reports what waits in the spool (internal/spool) and what
// can never be written (its dead letters), with the command for them.
func (ck *Checkup) checkSpool() daybook.Check {
	const name = "spool"
	sp := spool.New(ck.dir)
	waiting, err := sp.Len()
	if err != nil {
		return fail(name, "check the permissions of "+spool.Dir, "reading the spool: %v", err)
	}
	dead, err := sp.DeadItems()
	if err != nil {
		return fail(name, "check the permissions of "+spool.Dir, "reading the spool's dead letters: %v", err)
	}
	if len(dead) > 0 {
		last := dead[len(dead)-1]
		return warn(name, "daybook spool shows them; mend what the error says, then daybook spool --requeue, or daybook spool --drop",
			"%d items can never be written as they are (%s/dead.jsonl; the last: %s); %d wait to be written",
			len(dead), spool.Dir, last.Error, waiting)
	}
	if waiting > 0 {
		return warn(name, "start the daemon (daybook daemon): it writes the spool at its start and every minute",
			"%d items wait in %s/spool.jsonl to be written", waiting, spool.Dir)
	}
	return ok(name, "nothing waits to be written")
}
