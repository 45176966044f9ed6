package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// CmdVersion is "daybook version", also "daybook --version".
func CmdVersion() Command {
	return Command{
		Name: "version", Args: "", Summary: "print daybook's version: the module version and the source revision",
		Help: `The module version is what "go install ...@VERSION" installed, or
"(devel)" for a build from a clone; the revision is the commit it was built
from, with "+dirty" when the tree had changes, when the build recorded it.`,
		Run: func(ctx context.Context, e *Env, args []string) error {
			pos, err := e.Parse(e.NewFlags("version"), args)
			if err != nil {
				return err
			}
			if err := ExactArgs("version", pos, 0, "no arguments"); err != nil {
				return err
			}
			fmt.Fprintln(e.Stdout, Version())
			return nil
		},
	}
}

// Version is "daybook MODULE-VERSION (REVISION[+dirty], TIME)" from the
// build information the go command records in the binary.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "daybook (no build information)"
	}
	v := "daybook " + bi.Main.Version
	var rev, when string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		if dirty {
			rev += "+dirty"
		}
		if when != "" {
			rev += ", " + when
		}
		v += " (" + rev + ")"
	}
	return v + " " + bi.GoVersion
}
