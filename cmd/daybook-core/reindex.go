package main

import (
	"context"
	"fmt"

	"github.com/daybook/daybook/internal/adapters/api"
)

func cmdReindex() command {
	return command{
		name: "reindex", args: "[--changed] [--json]",
		summary: "rebuild the search index from the day files and summaries",
		help: `The index under DATA/index is derived from the markdown and disposable:
reindex drops it and builds it again. --changed reads only the files that
changed since they were indexed. The daemon, when it runs, owns the index.`,
		run: runReindex,
	}
}

func runReindex(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("reindex")
	changed := fs.Bool("changed", false, "only the files that changed since they were indexed")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("reindex takes no arguments")
	}
	b, err := e.reader(ctx)
	if err != nil {
		return err
	}
	resp, err := b.Reindex(ctx, api.ReindexRequest{Changed: *changed})
	if err != nil {
		return fmt.Errorf("reindex: %w", err)
	}
	if *asJSON {
		return e.printJSON(resp)
	}
	fmt.Fprintf(e.stdout, "indexed %d of %d files (%d removed): %d documents, %d vectors (%s), %.1f MiB, in %.1fs\n",
		resp.Indexed, resp.Files, resp.Removed, resp.Documents, resp.Vectors, resp.Embedder,
		float64(resp.Bytes)/(1<<20), resp.Seconds)
	return nil
}
