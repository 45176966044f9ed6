package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

func cmdImport() command {
	return command{
		name: "import", args: "FILE|- [--strict]",
		summary: "bulk-load entries from JSON lines",
		help: `Each line is {"at": "2023-05-08T13:56:00", "text": "...", "kind": "...", "tags": [...]};
"at" is local time in the configured zone, or RFC 3339 with an offset.
Bad lines are reported with their line numbers and skipped; with --strict
any bad line stops the import before anything is written. An entry its day
file already has (the same time to the minute and the same text) is not
written again: importing a file twice adds nothing the second time.`,
		run: runImport,
	}
}

func runImport(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("import")
	strict := fs.Bool("strict", false, "reject the whole input if any line is bad")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if err := exactArgs("import", pos, 1, "one FILE, or - for standard input"); err != nil {
		return err
	}
	var r io.Reader = e.stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		r = f
	}
	b, err := e.backend(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Import(ctx, r, *strict)
	if *asJSON && err == nil {
		return e.printJSON(resp)
	}
	for _, rej := range resp.Rejected {
		fmt.Fprintf(e.stderr, "%s:%d: %s\n", pos[0], rej.Line, rej.Error)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "imported %d entries into %d days", resp.Added, resp.Days)
	if resp.Skipped > 0 {
		fmt.Fprintf(e.stdout, "; %d were there already", resp.Skipped)
	}
	fmt.Fprintln(e.stdout)
	if n := len(resp.Rejected); n > 0 {
		// The good lines are kept; a script still learns that some were not.
		return fmt.Errorf("import: rejected %d bad lines (listed above); the other %d entries were imported", n, resp.Added)
	}
	return nil
}
