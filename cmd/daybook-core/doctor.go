package main

import (
	"context"
	"fmt"

	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/config/configfile"
)

func cmdDoctor() cli.Command {
	return cli.Command{
		Name: "doctor", Args: "[--json]",
		Summary: "check the data dir, config, index, socket and Ollama; say how to fix each",
		Help: `Prints one line per check: ok, warn or fail, what was found, and for
anything not ok a one-line fix. The checks: the data dir exists, is
writable and private; the config loads (when it does not, the other
checks run on the defaults); every day file reads as UTF-8 text and none
below days/ is a symbolic link (remember refuses such a day: each is named,
with its line, and how to fix it); no day holds conflict markers; the
index reads as opening it would (meta.json, a count and a query of the
bleve index, the vectors' checksums; one a running daemon holds is not
checked); the index folders moved aside as broken (index.broken-*: only
the newest is kept) are listed with their sizes and the command that
removes them; a day file near or at its size limit; the spool's items
waiting and its dead letters (with daybook spool); the socket is absent, stale or answered by a daemon; with
ollama.enabled, the server answers, both models are pulled (/api/tags)
and one embedding comes back (its dimension is shown). Works without a
daemon and changes nothing. Exits 1 when any check fails.`,
		Run: runDoctor,
	}
}

func runDoctor(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("doctor")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("doctor", pos, 0, "no arguments"); err != nil {
		return err
	}
	// Not e.Load: a config that does not load is a finding, not the end.
	dir, path, required, err := e.Paths()
	if err != nil {
		return err
	}
	in := app.DoctorInput{ConfigPath: path}
	cfg, err := configfile.Load(path, required)
	if err != nil {
		in.ConfigErr = err
		cfg = config.Default()
		if err := cfg.Validate(); err != nil {
			return err
		}
	}
	in.Socket = e.OSEnv.SocketPath(cfg, dir)
	a := app.New(dir, cfg, e.Logger())
	defer a.Close()
	resp := a.Doctor(ctx, in)
	if *asJSON {
		if err := e.PrintJSON(resp); err != nil {
			return err
		}
	} else {
		for _, c := range resp.Checks {
			line := fmt.Sprintf("%-4s  %-9s  %s", c.Status, c.Name, c.Detail)
			if c.Fix != "" {
				line += "  (fix: " + c.Fix + ")"
			}
			fmt.Fprintln(e.Stdout, line)
		}
	}
	if resp.Failed > 0 {
		return fmt.Errorf("doctor: %d of %d checks failed", resp.Failed, len(resp.Checks))
	}
	return nil
}
