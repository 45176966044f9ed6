package cli

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/launch"
	"github.com/daybook/daybook/internal/spool"
)

// hookFixture reads a hook input of the hooks package's fixtures (Claude
// Code's documented shapes) for the transcript and project given.
func hookFixture(t *testing.T, name, transcript, project string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "adapters", "hooks", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.NewReplacer("$TRANSCRIPT", transcript, "$PROJECT", project).Replace(string(b)))
}

// TestHookNeverOpensTheFiles runs the hooks as daybook-core does, with the
// App on the files at hand (Local), where no daemon answers: no socket, or
// one left by a daemon that died. A hook must not fall back to the files
// (that would build an index before the agent's prompt): the context hooks
// print nothing, a capture goes to the spool, and each exits 0.
func TestHookNeverOpensTheFiles(t *testing.T) {
	work := t.TempDir()
	transcript := filepath.Join(work, "session.jsonl")
	if err := os.WriteFile(transcript, hookFixture(t, "transcript.jsonl", transcript, work), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(work, "stale.sock")
	ln, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // the socket stays, no one listens: connection refused

	for _, socket := range []string{filepath.Join(work, "none.sock"), stale} {
		data := filepath.Join(t.TempDir(), "data")
		if err := os.Mkdir(data, 0o700); err != nil {
			t.Fatal(err)
		}
		cfg := config.Default()
		cfg.Socket.Path = socket
		run := func(event, input string) (stdout, stderr string) {
			t.Helper()
			var o, e bytes.Buffer
			env := NewEnv(bytes.NewReader(hookFixture(t, input, transcript, work)), &o, &e)
			// Autostart off: this is the hooks without a daemon.
			env.OSEnv = config.Env{Getenv: func(k string) string {
				if k == launch.EnvAutostart {
					return "0"
				}
				return ""
			}, HomeDir: func() (string, error) { return work, nil }}
			env.SetLoaded(data, cfg)
			env.Local = func(*Env) (daybook.Service, error) {
				t.Errorf("hook %s (socket %s) opened the files", event, socket)
				return nil, os.ErrInvalid
			}
			code, err := Run(context.Background(), env, []Command{CmdHook()}, []string{"hook", event}, Unanswered)
			if code != 0 || err != nil {
				t.Errorf("hook %s (socket %s): exit %d, %v; want 0 and no fall-through\nstderr: %s", event, socket, code, err, e.String())
			}
			return o.String(), e.String()
		}
		for _, ev := range [][2]string{{"session-start", "session-start-startup.json"}, {"prompt", "prompt.json"}} {
			if out, _ := run(ev[0], ev[1]); out != "" {
				t.Errorf("hook %s without a daemon (socket %s) printed %q, want nothing", ev[0], socket, out)
			}
		}
		run("capture", "stop.json")
		b, err := os.ReadFile(spool.New(data).Path())
		if err != nil || strings.Count(string(b), "\n") != 4 {
			t.Errorf("capture without a daemon (socket %s): spool %v\n%s", socket, err, b)
		}
		if _, err := os.Stat(filepath.Join(data, "days")); err == nil {
			t.Errorf("capture without a daemon (socket %s) wrote day files", socket)
		}
	}
}
