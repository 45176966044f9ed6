package reliability

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// nobody is the uid and gid the tests run other users' processes as.
const nobody = 65534

// Exit codes of dialProbe.
const (
	probeConnected = 0
	probeDenied    = 3
	probeOther     = 4
)

// dialProbe connects to the Unix socket at path and says how it went in its
// exit code. TestMain runs it when this binary is started as a probe.
func dialProbe(path string) int {
	c, err := net.Dial("unix", path)
	switch {
	case err == nil:
		c.Close()
		return probeConnected
	case errors.Is(err, fs.ErrPermission):
		return probeDenied
	default:
		fmt.Fprintln(os.Stderr, err)
		return probeOther
	}
}

// asOtherUser returns a command that runs as uid nobody, or skips the test
// when this process cannot switch users.
func asOtherUser(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot run a process as another uid to check permissions (the mode checks still run)")
	}
	c := exec.Command(name, args...)
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return c
}

// probeBinary copies this test binary where uid nobody can run it.
func probeBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(binDir, "probe")
	if _, err := os.Stat(dst); err == nil {
		return dst
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestSocketOnlyForItsUser checks the socket's and its folder's modes, for
// both places the socket can live ($XDG_RUNTIME_DIR/daybook, and the data
// dir when there is no runtime dir), and that a process of another uid
// cannot connect while the owner can.
func TestSocketOnlyForItsUser(t *testing.T) {
	for _, where := range []string{"runtime dir", "data dir"} {
		t.Run(where, func(t *testing.T) {
			r := newRig(t, "")
			if where == "data dir" {
				var env []string
				for _, kv := range r.env {
					if !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") {
						env = append(env, kv)
					}
				}
				r.env = env
				short, err := os.MkdirTemp("", "dbd") // a short data dir: the socket path must fit
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.RemoveAll(short) })
				os.Chmod(short, 0o755)
				r.dir = short
				for i, kv := range r.env {
					if strings.HasPrefix(kv, "DAYBOOK_DIR=") {
						r.env[i] = "DAYBOOK_DIR=" + short
					}
				}
			}
			d := r.startDaemonAt(where)
			defer d.stop()
			sock := r.socket()
			if where == "data dir" {
				sock = filepath.Join(r.dir, "daybook.sock")
			}
			fi, err := os.Lstat(sock)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
				t.Errorf("socket %s has mode %v, want a socket with 0600", sock, fi.Mode())
			}
			if where == "runtime dir" {
				di, _ := os.Stat(filepath.Dir(sock))
				if di.Mode().Perm() != 0o700 {
					t.Errorf("socket folder %s has mode %v, want 0700", filepath.Dir(sock), di.Mode().Perm())
				}
			}
			probe := probeBinary(t)
			own := exec.Command(probe)
			own.Env = []string{"DAYBOOK_RELIABILITY_DIAL=" + sock}
			if out, err := own.CombinedOutput(); err != nil {
				t.Fatalf("the owner cannot connect to its socket: %v %s", err, out)
			}
			other := asOtherUser(t, probe)
			other.Env = []string{"DAYBOOK_RELIABILITY_DIAL=" + sock}
			out, err := other.CombinedOutput()
			var ee *exec.ExitError
			if err == nil {
				t.Fatalf("uid %d connected to the socket %s", nobody, sock)
			} else if !errors.As(err, &ee) || ee.ExitCode() != probeDenied {
				t.Fatalf("uid %d: %v %s, want permission denied", nobody, err, out)
			}
			t.Logf("%s: socket %v, uid %d refused with permission denied", where, fi.Mode(), nobody)
		})
	}
}

// startDaemonAt starts the daemon and waits until the socket, wherever the
// environment puts it, answers a CLI.
func (r *rig) startDaemonAt(where string) *proc {
	r.t.Helper()
	if where != "data dir" {
		return r.startDaemon()
	}
	p := r.spawnDaemon()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		c := api.NewClient(filepath.Join(r.dir, "daybook.sock"))
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := c.Status(ctx, daybook.StatusRequest{})
		cancel()
		c.Close()
		if err == nil {
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.t.Fatalf("the daemon did not answer\n%s", p.logText())
	return nil
}

// TestSecretsNeverLeak puts a password in the Ollama URL of the config and
// runs the daemon with debug logging through remember, consolidation,
// recall, status and doctor (the Ollama server is down, so daybook falls
// back to its offline models and says so). The password must appear in no
// log line, no output, no summary and no index file.
func TestSecretsNeverLeak(t *testing.T) {
	t.Run("server down", func(t *testing.T) { checkNoLeak(t, "127.0.0.1:9") })
	t.Run("server up", func(t *testing.T) {
		s := ollamatest.New(t, "llama3.2", "nomic-embed-text")
		defer s.Close()
		checkNoLeak(t, strings.TrimPrefix(s.URL, "http://"))
		t.Logf("the fake Ollama server answered %d chat and %d embed calls", s.Calls("/api/chat"), s.Calls("/api/embed"))
		if s.Calls("/api/chat")+s.Calls("/api/embed") == 0 {
			t.Errorf("daybook never called the Ollama server: the check proved less than it says")
		}
	})
}

func checkNoLeak(t *testing.T, hostport string) {
	const secret = "hunter2secretpw"
	r := newRig(t, "ollama:\n  enabled: true\n  url: http://alice:"+secret+"@"+hostport+"/\n  timeout: 2s\n  embed_timeout: 2s\nlog:\n  level: debug\n")
	corpus(t, r.dir, mustDate("2025-01-10"), 3, 4, "sec")
	var outputs []string
	run := func(args ...string) {
		c := r.cmd(append([]string{"-v"}, args...)...)
		out, _ := c.CombinedOutput()
		outputs = append(outputs, fmt.Sprintf("daybook %s:\n%s", strings.Join(args, " "), out))
	}
	d := r.startDaemon()
	run("remember", "a secret-free entry")
	run("consolidate", "--force")
	run("recall", "deploy")
	run("status")
	run("doctor")
	run("reindex")
	d.stop()
	run("recall", "deploy") // without the daemon: the CLI's own logs
	outputs = append(outputs, "daemon log:\n"+d.logText())
	for _, o := range outputs {
		if strings.Contains(o, secret) {
			t.Errorf("the config's password shows up in %s", firstLines(o, secret))
		}
	}
	leaked := 0
	files := 0
	filepath.WalkDir(r.dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return nil
		}
		files++
		data, _ := os.ReadFile(p)
		if strings.Contains(string(data), secret) {
			leaked++
			t.Errorf("the config's password is written in %s", p)
		}
		return nil
	})
	t.Logf("checked %d outputs (%d bytes of daemon log) and %d files of the data dir: the password appears in none (%d leaks)",
		len(outputs), len(d.logText()), files, leaked)
}

func firstLines(s, secret string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, secret) {
			return strings.SplitN(s, "\n", 2)[0] + " … " + l
		}
	}
	return s
}

// TestRootWarnsOnForeignDataDir runs daybook as root on a data dir owned
// by another user: it must warn, and still work.
func TestRootWarnsOnForeignDataDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("not root")
	}
	r := newRig(t, "")
	if err := os.Chown(r.dir, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	c := r.cmd("remember", "as root")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("remember as root: %v %s", err, out)
	}
	if !strings.Contains(string(out), "warning: running as root") || !strings.Contains(string(out), fmt.Sprint(nobody)) {
		t.Errorf("no warning naming the owner when root writes to uid %d's data dir:\n%s", nobody, out)
	}
	// On its own data dir root gets no warning.
	r2 := newRig(t, "")
	if out, _ := r2.cmd("remember", "as root").CombinedOutput(); strings.Contains(string(out), "warning") {
		t.Errorf("a warning on root's own data dir: %s", out)
	}
}
