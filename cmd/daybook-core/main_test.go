package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/internal/util/filelock"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as daybook when a script runs it: the
// scripts call "daybook" and get run() in a child process of their own.
//
// Autostart is off ($DAYBOOK_AUTOSTART=0) for every test of the package and
// the programs they run, so that mcp and chat work on the files as these
// tests expect, and no test leaves a daemon behind; plugin_test.go turns it
// on for its own runs, and stops what they start.
func TestMain(m *testing.M) {
	os.Setenv("DAYBOOK_AUTOSTART", "0")
	testscript.Main(m, map[string]func(){
		"daybook": func() { os.Exit(mainCode()) },
	})
}

// TestScripts runs the transcripts in testdata/script. Each starts in its
// own $WORK with DAYBOOK_DIR=$WORK/data, no config file, the runtime and
// config folders under $WORK, TZ=UTC, and $TODAY and $YESTERDAY set.
// "exits N daybook ARGS..." checks the exact exit code.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			today := time.Now().UTC()
			env.Setenv("DAYBOOK_DIR", env.WorkDir+"/data")
			env.Setenv("DAYBOOK_CONFIG", "")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/config")
			env.Setenv("XDG_RUNTIME_DIR", env.WorkDir+"/run")
			env.Setenv("XDG_DATA_HOME", env.WorkDir+"/xdg-data")
			env.Setenv("TZ", "UTC")
			env.Setenv("DAYBOOK_AUTOSTART", "0")
			env.Setenv("TODAY", today.Format(time.DateOnly))
			env.Setenv("YESTERDAY", today.AddDate(0, 0, -1).Format(time.DateOnly))
			return nil
		},
		// [systemd]: systemd runs as the init system, so that "service
		// install" would install rather than say what to run.
		Condition: func(cond string) (bool, error) {
			if cond != "systemd" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, err := os.Stat("/run/systemd/system")
			return err == nil, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":       cmdExits,
			"mcp-session": cmdMCPSession,
		},
	})
}

// cmdExits runs "exits CODE PROGRAM ARGS..." and fails unless the program
// exits with CODE.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: running %s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// A consolidation while another runs (the daemon's backfill at its start,
// say) is not a usage error: exit 1, saying so.
func TestConsolidateBusyExitsOne(t *testing.T) {
	var out, errOut bytes.Buffer
	e, dir := chatEnv(t, "", &out, &errOut)
	if code := runEnv(context.Background(), e, []string{"remember", "--at", "2026-03-02 18:00", "The garage door code is 4417."}); code != 0 {
		t.Fatalf("remember: %d %s", code, errOut.String())
	}
	held, err := filelock.LockPID(filepath.Join(dir, consolidate.LockFile), os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	e, _ = chatEnv(t, "", &out, &errOut)
	e.OSEnv.Getenv = func(k string) string { return map[string]string{"DAYBOOK_DIR": dir}[k] }
	errOut.Reset()
	if code := runEnv(context.Background(), e, []string{"consolidate"}); code != 1 || !strings.Contains(errOut.String(), "already running") {
		t.Fatalf("consolidate beside a running one: exit %d %q; want 1 and \"already running\"", code, errOut.String())
	}
}
