package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// workDir is one corpus copy the children work on: the data dir and the
// config file written for it.
type workDir struct {
	exe    string // the daybook binary
	dir    string // data dir
	config string // config file
	socket string
}

// globals are the flags every child gets, so that nothing of the caller's
// own data dir, config or daemon is touched.
func (w workDir) globals() []string { return []string{"--dir", w.dir, "--config", w.config} }

// command returns the daybook child for args, with the caller's DAYBOOK_*
// variables left out.
func (w workDir) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, w.exe, append(w.globals(), args...)...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "DAYBOOK_") })
	return cmd
}

// run runs one daybook child to its end and returns its stdout and usage.
func (w workDir) run(ctx context.Context, args ...string) ([]byte, Proc, error) {
	return runCmd(w.command(ctx, args...), true)
}

// runCmd runs cmd; keep says whether its stdout is wanted (else discarded,
// as a terminal-less user would pipe it away).
func runCmd(cmd *exec.Cmd, keep bool) ([]byte, Proc, error) {
	var out, errb bytes.Buffer
	cmd.Stdout = io.Discard
	if keep {
		cmd.Stdout = &out
	}
	cmd.Stderr = &errb
	t0 := time.Now()
	err := cmd.Run()
	p := Proc{Seconds: time.Since(t0).Seconds()}
	if st := cmd.ProcessState; st != nil {
		p.CPUSeconds = (st.UserTime() + st.SystemTime()).Seconds()
		p.PeakRSS = maxRSS(st)
		p.MinorFaults = minorFaults(st)
	}
	if err != nil {
		// grep and rg exit 1 when nothing matched: not a failure here.
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && errb.Len() == 0 {
			return out.Bytes(), p, nil
		}
		return out.Bytes(), p, fmt.Errorf("running %s: %w: %s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), p, nil
}
