package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/cli"
)

func cmdStatus() cli.Command {
	return cli.Command{
		Name: "status", Args: "[--json]",
		Summary: "say whether a daemon answers, and what the data dir holds",
		Help: `Tells whether a daemon answers on the socket for this data dir (its pid and
uptime) or the files are used directly, where the socket and the data dir
are, how the daemon was started (autostart by a hook, mcp or chat; the
service; by hand) and the command that stops it, how many days and entries
there are, and what the daemon's parts report:
summaries per level, periods whose summary is stale, the last and next run of
each job, the size of the index, the summarizer and embedder in use.`,
		Run: runStatus,
	}
}

func runStatus(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("status")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("status", pos, 0, "no arguments"); err != nil {
		return err
	}
	if err := e.MustExist(); err != nil {
		return err
	}
	var b daybook.Service
	c, why, err := cli.DialDaemon(ctx, e)
	if err != nil {
		return err
	}
	if c != nil {
		b = c
	} else if b, err = local(e); err != nil {
		return err
	}
	resp, err := b.Status(ctx, daybook.StatusRequest{})
	if err != nil {
		return err
	}
	resp.Socket = e.OSEnv.SocketPath(e.Cfg, e.AbsDir)
	if *asJSON {
		return e.PrintJSON(resp)
	}
	printStatus(e.Stdout, resp, why, e.Cfg.Location())
	return nil
}

// printStatus writes resp as aligned lines; parts that reported nothing are
// left out.
func printStatus(w io.Writer, resp daybook.StatusResponse, why string, loc *time.Location) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	if resp.Daemon.Running {
		line("daemon", "running, pid %d, up %s", resp.Daemon.PID, resp.Daemon.Uptime)
		if d := resp.Daemon; d.StartedBy != "" {
			line("started", "%s; stop it with %q", d.StartedBy, d.Stop)
		}
	} else {
		line("daemon", "not running (%s): the files are used directly", why)
	}
	line("socket", "%s", resp.Socket)
	line("data dir", "%s", resp.DataDir)
	entries := "entries"
	if resp.Entries == 1 {
		entries = "entry"
	}
	days := fmt.Sprintf("%d (%d %s", resp.Days, resp.Entries, entries)
	switch resp.Unreadable {
	case 0:
	case 1:
		days += "; 1 day file does not parse, see \"daybook days\""
	default:
		days += fmt.Sprintf("; %d day files do not parse, see \"daybook days\"", resp.Unreadable)
	}
	line("days", "%s)", days)
	if resp.Zone != "" {
		line("zone", "%s (every entry's day and time)", resp.Zone)
	}
	for _, c := range resp.Conflicted {
		line("conflict", "%s: conflict markers; resolve them by hand (the day is left out of recall and summaries until then)", c)
	}
	for _, m := range resp.Merge {
		line("merge", "%s", m)
	}
	s := resp.Summaries
	line("summaries", "%d daily, %d monthly, %d yearly", s.Day, s.Month, s.Year)
	if len(resp.Stale) > 0 {
		more := ""
		if n := resp.StaleCount - len(resp.Stale); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		line("stale", "%d: %s%s", resp.StaleCount, strings.Join(resp.Stale, ", "), more)
	}
	if ix := resp.Index; ix.Bytes > 0 || ix.Documents > 0 {
		line("index", "%s, %d documents, %d vectors", humanBytes(ix.Bytes), ix.Documents, ix.Vectors)
	}
	if resp.Summarizer != "" {
		line("summarizer", "%s", resp.Summarizer)
	}
	if resp.Embedder != "" {
		line("embedder", "%s", resp.Embedder)
	}
	for _, j := range resp.Jobs {
		line("job "+j.Name, "%s", describeJob(j, loc))
	}
	tw.Flush()
}

// describeJob says when a job ran, how that went, and when it runs next.
func describeJob(j daybook.JobStatus, loc *time.Location) string {
	var parts []string
	if j.Spec != "" {
		parts = append(parts, fmt.Sprintf("%q", j.Spec))
	}
	switch {
	case j.Running:
		parts = append(parts, "running now")
	case j.LastRun.IsZero():
		parts = append(parts, "not run yet")
	case j.LastError != "":
		parts = append(parts, fmt.Sprintf("last %s failed: %s", j.LastRun.In(loc).Format("2006-01-02 15:04"), j.LastError))
	default:
		parts = append(parts, fmt.Sprintf("last %s ok", j.LastRun.In(loc).Format("2006-01-02 15:04")))
	}
	if !j.NextRun.IsZero() {
		parts = append(parts, "next "+j.NextRun.In(loc).Format("2006-01-02 15:04"))
	}
	return strings.Join(parts, "; ")
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
