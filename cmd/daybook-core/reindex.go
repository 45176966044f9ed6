package main

import (
	"context"
	"fmt"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/cli"
)

func cmdReindex() cli.Command {
	return cli.Command{
		Name: "reindex", Args: "[--changed] [--json]",
		Summary: "rebuild the search index from the day files and summaries",
		Help: `The index under DATA/index is derived from the markdown and disposable:
reindex drops it and builds it again. --changed reads only the files that
changed since they were indexed. The daemon, when it runs, owns the index.`,
		Run: runReindex,
	}
}

func runReindex(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("reindex")
	changed := fs.Bool("changed", false, "only the files that changed since they were indexed")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("reindex takes no arguments")
	}
	b, err := e.Reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Reindex(ctx, daybook.ReindexRequest{Changed: *changed})
	if err != nil {
		return fmt.Errorf("reindex: %w", err)
	}
	if *asJSON {
		return e.PrintJSON(resp)
	}
	fmt.Fprintf(e.Stdout, "indexed %d of %d files (%d removed): %d documents, %d vectors (%s), %.1f MiB, in %.1fs\n",
		resp.Indexed, resp.Files, resp.Removed, resp.Documents, resp.Vectors, resp.Embedder,
		float64(resp.Bytes)/(1<<20), resp.Seconds)
	return nil
}
