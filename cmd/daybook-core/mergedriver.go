package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/merge"
	"github.com/daybook/daybook/internal/util/atomicfile"
)

func cmdMergeDriver() cli.Command {
	return cli.Command{
		Name: "merge-driver", Args: "BASE OURS THEIRS [PATH]",
		Summary: "merge two versions of a day file by entry, as git's merge driver",
		Help: `git runs it for day files, given in .gitattributes
  days/**/*.md merge=daybook
and in the git config
  git config merge.daybook.driver "daybook merge-driver %O %A %B %P"
Entries either side added are kept once, entries either side removed stay
removed; text outside entries that both sides changed is kept from both.
The result replaces OURS, and it exits 0. A version that holds conflict
markers or does not parse is left to git: exit 1, OURS untouched. PATH is the
day file's path in the repository (%P), for the day's date. See docs/sync.md.`,
		Run: runMergeDriver,
	}
}

func runMergeDriver(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("merge-driver")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 3 && len(pos) != 4 {
		return cli.Usagef("merge-driver takes BASE OURS THEIRS [PATH] (git's %%O %%A %%B %%P), got %d arguments", len(pos))
	}
	d := date.Date{Year: 2000, Month: 1, Day: 1} // ids need a day; any is the same on all three sides
	if len(pos) == 4 {
		if i := strings.LastIndex(filepath.ToSlash(pos[3]), dayfiles.DaysDir+"/"); i >= 0 {
			if dd, ok := dayfiles.DateOfRel(filepath.ToSlash(pos[3])[i:]); ok {
				d = dd
			}
		}
	}
	var vs [3][]byte
	for i, p := range pos[:3] {
		if vs[i], err = os.ReadFile(p); err != nil {
			return fmt.Errorf("merge-driver: %w", err)
		}
	}
	out, err := merge.Three(d, vs[0], vs[1], vs[2])
	if err != nil {
		return err
	}
	fi, err := os.Stat(pos[1])
	if err != nil {
		return fmt.Errorf("merge-driver: %w", err)
	}
	return atomicfile.Write(pos[1], out, fi.Mode().Perm())
}
