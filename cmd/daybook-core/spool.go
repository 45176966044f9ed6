package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/spool"
)

func cmdSpool() cli.Command {
	return cli.Command{
		Name: "spool", Args: "[--requeue | --drop] [--json]",
		Summary: "show what waits to be written, and what never can be (the dead letters)",
		Help: `What could not be written when it came (a chat turn through the memory
proxy or daybook chat, an agent's captured turn without a daemon) waits in
DATA_DIR/` + spool.Dir + `/spool.jsonl; the daemon writes it at its start and
every minute. An item that can never be written as it is (a date outside
the accepted window, a text the day files refuse, a line that is not an
item) goes once to ` + spool.Dir + `/dead.jsonl and is not tried again;
doctor reports it. With no flag, spool prints how many items wait and each
dead letter: when it died, where it came from, its time, the start of its
text and why. --requeue puts the dead letters back in the spool, for the
daemon to try again once what the error names is mended (the config's
dates, a day file); --drop deletes them.`,
		Run: runSpool,
	}
}

func runSpool(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("spool")
	requeue := fs.Bool("requeue", false, "put the dead letters back in the spool, to be written again")
	drop := fs.Bool("drop", false, "delete the dead letters")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("spool", pos, 0, "no arguments"); err != nil {
		return err
	}
	if *requeue && *drop {
		return cli.Usagef("spool: --requeue and --drop exclude each other")
	}
	if err := e.Load(); err != nil {
		return err
	}
	sp := spool.New(e.AbsDir)
	switch {
	case *requeue:
		n, err := sp.Requeue(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stdout, "requeued %d items; the daemon writes them at its next try (within a minute, or at its start)\n", n)
		return nil
	case *drop:
		n, err := sp.Drop(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stdout, "dropped %d items\n", n)
		return nil
	}
	waiting, err := sp.Len()
	if err != nil {
		return err
	}
	dead, err := sp.DeadItems()
	if err != nil {
		return err
	}
	if *asJSON {
		if dead == nil {
			dead = []spool.Dead{}
		}
		return e.PrintJSON(struct {
			Waiting int          `json:"waiting"`
			Dead    []spool.Dead `json:"dead"`
		}{waiting, dead})
	}
	fmt.Fprintf(e.Stdout, "%d items wait to be written (%s); %d can never be written as they are (%s)\n",
		waiting, sp.Path(), len(dead), sp.DeadPath())
	for _, d := range dead {
		text := d.Text
		if d.Line != "" {
			text = d.Line
		}
		text = strings.Join(strings.Fields(text), " ")
		if r := []rune(text); len(r) > 60 {
			text = string(r[:60]) + "…"
		}
		fmt.Fprintf(e.Stdout, "%s  %-5s  %s  %q: %s\n", d.When, d.From, d.At, text, d.Error)
	}
	return nil
}
