package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/daybook/daybook/internal/adapters/api"
)

func cmdStatus() command {
	return command{
		name: "status", args: "[--json]",
		summary: "say whether a daemon answers, and what the data dir holds",
		help: `Tells whether a daemon answers on the socket for this data dir (its pid and
uptime) or the files are used directly, where the socket and the data dir
are, how many days and entries there are, and what the daemon's parts report:
summaries per level, periods whose summary is stale, the last and next run of
each job, the size of the index, the summarizer and embedder in use.`,
		run: runStatus,
	}
}

func runStatus(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("status")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if err := exactArgs("status", pos, 0, "no arguments"); err != nil {
		return err
	}
	if err := e.mustExist(); err != nil {
		return err
	}
	var b api.Service
	c, why, err := dialDaemon(ctx, e)
	if err != nil {
		return err
	}
	if c != nil {
		b = c
	} else if b, err = e.local(); err != nil {
		return err
	}
	resp, err := b.Status(ctx, api.StatusRequest{})
	if err != nil {
		return err
	}
	resp.Socket = e.osEnv.SocketPath(e.cfg, e.absDir)
	if *asJSON {
		return e.printJSON(resp)
	}
	printStatus(e.stdout, resp, why, e.cfg.Location())
	return nil
}

// printStatus writes resp as aligned lines; parts that reported nothing are
// left out.
func printStatus(w io.Writer, resp api.StatusResponse, why string, loc *time.Location) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	if resp.Daemon.Running {
		line("daemon", "running, pid %d, up %s", resp.Daemon.PID, resp.Daemon.Uptime)
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
func describeJob(j api.JobStatus, loc *time.Location) string {
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

// answerTimeout bounds waiting for the daemon's brief status once the
// socket accepted the connection. The daemon answers it without reading
// anything, so only a machine starved of CPU makes it slow; a daemon that
// is there is waited for rather than bypassed, since writing to the files
// behind a running daemon's back is what the socket exists to avoid.
var answerTimeout = 30 * time.Second

// dialDaemon returns a client of the daemon on the configured socket when
// one answers for e's data dir. It returns nil and why not when no daemon
// listens there, or when the daemon there serves another data dir: two
// data dirs may share $XDG_RUNTIME_DIR's socket, and the daemon of the other
// must not be written to. A daemon that accepts the connection but does not
// answer is an error. e must be loaded; cancelling ctx (Ctrl-C) stops the
// wait for an answer.
func dialDaemon(ctx context.Context, e *env) (*api.Client, string, error) {
	path := e.osEnv.SocketPath(e.cfg, e.absDir)
	log := e.logger()
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != os.ModeSocket {
		return nil, "no socket at " + path, nil
	}
	c := api.NewClient(path)
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, answerTimeout)
	defer cancel()
	var st api.StatusResponse
	var err error
	for {
		st, err = c.Status(ctx, api.StatusRequest{Brief: true})
		if err == nil || !busy(err) || ctx.Err() != nil {
			break
		}
		// A full listen queue, or a connection reset as a daemon stops:
		// ask again until it answers or is gone.
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		c.Close()
		switch {
		case api.NoListener(err):
			log.Debug("no daemon answers; using the files", "socket", path, "err", err)
			return nil, "no daemon answers on " + path, nil
		case parent.Err() != nil:
			return nil, "", fmt.Errorf("asking the daemon on %s for its status: %w", path, parent.Err())
		case ctx.Err() != nil:
			return nil, "", fmt.Errorf("the daemon on %s took the connection but did not answer in %s "+
				"(is it stuck? restart it, with \"daybook service restart\" if it runs as a service, and try again)", path, answerTimeout)
		}
		return nil, "", fmt.Errorf("asking the daemon on %s for its status: %w (is a daybook daemon of this version listening there?)", path, err)
	}
	if !sameDir(st.DataDir, e.absDir) {
		c.Close()
		log.Debug("the daemon on the socket serves another data dir; using the files",
			"socket", path, "daemon_dir", st.DataDir, "dir", e.absDir)
		return nil, fmt.Sprintf("the daemon on %s serves %s", path, st.DataDir), nil
	}
	log.Debug("using the daemon", "socket", path, "pid", st.Daemon.PID)
	return c, "", nil
}

// busy reports whether err is worth asking again: the daemon's listen queue
// is full, or it reset the connection (as it does while it stops).
func busy(err error) bool {
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.ECONNRESET)
}

// sameDir reports whether a and b name the same folder, through symbolic
// links too.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
