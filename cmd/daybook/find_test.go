package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestFindInFront builds daybook and daybook-core and runs find with each
// on the same data dir, no daemon running: the front runs find on the
// files itself, and must print what daybook-core prints, to the byte, with
// the same exit code, for matches, limits, ranges, a day holding conflict
// markers and usage errors alike. A front without daybook-core beside it
// answers find itself with a config file it reads, and hands a config file
// it does not read over to daybook-core.
func TestFindInFront(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the front's find is compared on Unix")
	}
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	work := t.TempDir()
	bin, alone := binaries(t), filepath.Join(work, "alone")
	if err := os.Mkdir(alone, 0o755); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.ReadFile(filepath.Join(bin, "daybook"))
	if err := os.WriteFile(filepath.Join(alone, "daybook"), exe, 0o755); err != nil {
		t.Fatal(err)
	}

	data := filepath.Join(work, "data")
	today := time.Now().UTC()
	day := func(t time.Time) string { return t.Format("2006-01-02") }
	files := map[string]string{
		"2024-02-03": "# 2024-02-03 Saturday\n\n- 09:00 the zeppelin review moved to March\n- 10:30 Zeppelin budget, in capitals\n",
		"2024-03-15": "# 2024-03-15 Friday\n\n- 08:00 zeppelin review held\r\n  a continuation line about the zeppelin\r\n- 23:59 naïve café notes, ÜBER the zeppelin\n",
		"2025-07-01": "# 2025-07-01 Tuesday\n\n- 07:00 a line with an escape \x1b[31mred\x1b[0m and a zeppelin\n- 07:05 nothing here\n",
		// Conflict markers: the day is not searched, and find says so.
		"2025-07-02": "# 2025-07-02 Wednesday\n\n<<<<<<< ours\n- 09:00 zeppelin ours\n=======\n- 09:00 zeppelin theirs\n>>>>>>> theirs\n",
		// A setext underline alone is no marker.
		"2025-07-03":                  "# 2025-07-03 Thursday\n\nA heading\n=======\n\n- 11:00 zeppelin after a heading\n",
		day(today.AddDate(0, 0, -10)): "# recent\n\n- 12:00 a recent zeppelin sighting\n",
		day(today.AddDate(0, 0, -60)): "# older\n\n- 12:00 an older zeppelin sighting\n",
	}
	for d, text := range files {
		p := filepath.Join(data, "days", d[:4], d[5:7], d[8:]+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Not day files: skipped by both.
	for _, p := range []string{"days/notes.md", "days/2024/02/xx.md", "days/2024/13/01.md"} {
		p = filepath.Join(data, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("zeppelin\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfgHome := filepath.Join(work, "config")
	env := append(os.Environ(), "DAYBOOK_DIR="+data, "DAYBOOK_CONFIG=", "XDG_CONFIG_HOME="+cfgHome,
		"XDG_RUNTIME_DIR="+filepath.Join(work, "run"), "TZ=UTC")
	run := func(exe string, args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(exe, args...)
		cmd.Env, cmd.Dir = env, work
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %v: %v", exe, args, err)
		}
		return o.String(), e.String(), code
	}

	cases := [][]string{
		{"find", "zeppelin"},
		{"find", "Zeppelin"},
		{"find", "ZEPPELIN"},
		{"find", "café"},
		{"find", "über"},
		{"find", "the", "zeppelin"},
		{"find", "zeppelin", "--limit", "2"},
		{"find", "--limit", "1", "zeppelin"},
		{"find", "zeppelin", "--limit", "100"},
		{"find", "--from", "2024-02-01", "--to", "2024-03-31", "zeppelin"},
		{"find", "--from", "2025-07-02", "--to", "2025-07-02", "zeppelin"},
		{"find", "--from", "-30d", "zeppelin"},
		{"find", "--to", "2024-12-31", "--json", "zeppelin"},
		{"find", "--json", "zeppelin"},
		{"find", "--json", "--limit", "1", "zeppelin"},
		{"find", "--regex", `^- \d\d:\d\d .*zeppelin$`},
		{"find", "--regex", `(?i)ZEPPELIN (review|budget)`},
		{"find", "--regex", "escape"},
		{"find", "no such words anywhere"},
		{"find", "--from", "2026-13-01", "zeppelin"},
		{"find", "--from", "2025-01-01", "--to", "2024-01-01", "zeppelin"},
		{"find", "--regex", "("},
		{"find", "--regex", ""},
		{"find", ""},
		{"find"},
		{"find", "--limit", "-1", "zeppelin"},
		{"find", "--bogus", "zeppelin"},
		{"find", strings.Repeat("z", 5000)},
		{"find", "-h"},
		{"--dir", filepath.Join(work, "nowhere"), "find", "zeppelin"},
		{"--dir", "data", "find", "zeppelin", "--limit", "3"},
		{"find", "--", "-1 zeppelin"},
	}
	var conflictSeen, usageSeen bool
	for _, args := range cases {
		fo, fe, fc := run(filepath.Join(bin, "daybook"), args...)
		co, ce, cc := run(filepath.Join(bin, "daybook-core"), args...)
		if fo != co || fe != ce || fc != cc {
			t.Errorf("daybook %q: the front and daybook-core differ:\nfront: exit %d\n%s--- stderr\n%s\ncore: exit %d\n%s--- stderr\n%s",
				args, fc, fo, fe, cc, co, ce)
		}
		// The front alone (no daybook-core to hand over to) answered too.
		if ao, ae, ac := run(filepath.Join(alone, "daybook"), args...); ao != co || ae != ce || ac != cc {
			t.Errorf("daybook %q from the front alone: exit %d %q %q; want daybook-core's exit %d %q %q", args, ac, ao, ae, cc, co, ce)
		}
		conflictSeen = conflictSeen || cc == 1 && strings.Contains(ce, "days/2025/07/02.md:3")
		usageSeen = usageSeen || cc == 2
	}
	if !conflictSeen || !usageSeen {
		t.Errorf("the cases met no conflict-marker day (%v) or no usage error (%v)", conflictSeen, usageSeen)
	}
	if out, _, _ := run(filepath.Join(bin, "daybook"), "find", "zeppelin"); !strings.Contains(out, `\x1b[31mred`) ||
		!strings.Contains(out, "days/2025/07/03.md:6: - 11:00 zeppelin after a heading") {
		t.Errorf("find's output lacks the escaped line or the day with a heading:\n%s", out)
	}

	// A socket no daemon listens on (one left behind by a daemon that was
	// killed): the front alone still runs find on the files.
	sock := filepath.Join(work, "run", "daybook", "daybook.sock")
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if fi, err := os.Lstat(sock); err != nil || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("the stale socket is not there: %v", err)
	}
	co, ce, cc := run(filepath.Join(bin, "daybook-core"), "find", "zeppelin")
	if ao, ae, ac := run(filepath.Join(alone, "daybook"), "find", "zeppelin"); ao != co || ae != ce || ac != cc {
		t.Errorf("find with a stale socket from the front alone: exit %d %q %q; want daybook-core's exit %d %q %q", ac, ao, ae, cc, co, ce)
	}
	os.Remove(sock)

	// A config file: one the front reads, it answers alone; one it does
	// not (YAML's flow style), daybook-core answers, and the front alone
	// says it needs daybook-core.
	cfg := filepath.Join(cfgHome, "daybook", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		yaml  string
		front bool
	}{
		{"timezone: Asia/Tokyo\nrecall:\n  limit: 3 # plain\n", true},
		{"recall: {limit: 3}\n", false},
	} {
		if err := os.WriteFile(cfg, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"find", "--from", "-30d", "zeppelin"}
		co, ce, cc := run(filepath.Join(bin, "daybook-core"), args...)
		if fo, fe, fc := run(filepath.Join(bin, "daybook"), args...); fo != co || fe != ce || fc != cc || cc != 0 {
			t.Errorf("find with the config %q: front exit %d %q %q, daybook-core exit %d %q %q", c.yaml, fc, fo, fe, cc, co, ce)
		}
		ao, ae, ac := run(filepath.Join(alone, "daybook"), args...)
		if c.front && (ac != 0 || ao != co) || !c.front && (ac != 1 || !strings.Contains(ae, "no daybook-core beside")) {
			t.Errorf("find from the front alone with the config %q: exit %d %q %q; want it answered by the front: %v", c.yaml, ac, ao, ae, c.front)
		}
	}
}
