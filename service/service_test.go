package service

import (
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func spec(user bool) Spec {
	return Spec{Name: "daybook", Exe: "/opt/day book/daybook", DataDir: "/home/ann/.local/share/daybook",
		ConfigPath: "/home/ann/.config/daybook/config.yaml", User: user, LogDir: "/home/ann/Library/Logs"}
}

func TestSystemdUserUnitIsWantedByDefaultTarget(t *testing.T) {
	u := SystemdUnit(spec(true))
	for _, want := range []string{
		"WantedBy=default.target\n",
		`ExecStart="/opt/day book/daybook" "daemon" "--dir" "/home/ann/.local/share/daybook" "--config" "/home/ann/.config/daybook/config.yaml"`,
		"Restart=on-failure\n",
	} {
		if !strings.Contains(u, want) {
			t.Errorf("user unit lacks %q:\n%s", want, u)
		}
	}
	for _, bad := range []string{"multi-user.target", "User=", "{{"} {
		if strings.Contains(u, bad) {
			t.Errorf("user unit holds %q:\n%s", bad, u)
		}
	}
}

func TestSystemdSystemUnit(t *testing.T) {
	s := spec(false)
	s.RunAs = "ann"
	u := SystemdUnit(s)
	for _, want := range []string{"WantedBy=multi-user.target\n", "User=ann\n", "After=local-fs.target\n"} {
		if !strings.Contains(u, want) {
			t.Errorf("system unit lacks %q:\n%s", want, u)
		}
	}
}

func TestSystemdQuoteEscapesSpecifiers(t *testing.T) {
	for in, want := range map[string]string{
		`/a b`:     `"/a b"`,
		`100%`:     `"100%%"`,
		`$HOME`:    `"$$HOME"`,
		`say "hi"`: `"say \"hi\""`,
		`c:\x`:     `"c:\\x"`,
	} {
		if got := systemdQuote(in); got != want {
			t.Errorf("systemdQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestLaunchdPlistIsWellFormed(t *testing.T) {
	s := spec(true)
	s.DataDir = "/Users/a&b/<daybook>"
	p := LaunchdPlist(s)
	var doc struct {
		Dict struct {
			Keys    []string `xml:"key"`
			Strings []string `xml:"string"`
			Array   struct {
				Strings []string `xml:"string"`
			} `xml:"array"`
		} `xml:"dict"`
	}
	if err := xml.Unmarshal([]byte(p), &doc); err != nil {
		t.Fatalf("plist does not parse: %v\n%s", err, p)
	}
	want := append([]string{s.Exe}, s.Args()...)
	if fmt.Sprint(doc.Dict.Array.Strings) != fmt.Sprint(want) {
		t.Errorf("ProgramArguments = %q, want %q", doc.Dict.Array.Strings, want)
	}
	if !strings.Contains(p, "<key>RunAtLoad</key><true/>") || !strings.Contains(p, "<key>Label</key><string>daybook</string>") {
		t.Errorf("plist lacks RunAtLoad or Label:\n%s", p)
	}
}

func fakeRun(fail map[string]bool) func(string, ...string) (string, error) {
	return func(name string, args ...string) (string, error) {
		cmd := name + " " + strings.Join(args, " ")
		if fail[cmd] {
			return "Failed to connect to bus: No medium found", errors.New("exit status 1")
		}
		return "", nil
	}
}

func TestNoServiceManagerSaysHowToRunTheDaemon(t *testing.T) {
	for _, platform := range []string{"", "unix-systemv", "linux-openrc"} {
		m := &Manager{Spec: spec(true), Platform: platform, Run: fakeRun(nil)}
		_, err := m.Do(Install)
		if !errors.Is(err, ErrNoManager) {
			t.Fatalf("%q: err = %v, want ErrNoManager", platform, err)
		}
		for _, want := range []string{"no systemd, launchd or Windows service manager is running",
			"daemon --dir /home/ann/.local/share/daybook", "nohup",
			">>/home/ann/.local/share/daybook/daybook.log 2>&1 &", "'/opt/day book/daybook' daemon"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: error lacks %q: %v", platform, want, err)
			}
		}
		if platform != "" && strings.Contains(err.Error(), platform) {
			t.Errorf("%q: the error names the library's platform as if it were a manager: %v", platform, err)
		}
	}
}

// With a daemon already running on the data dir, the hint says so, with its
// pid, instead of telling to start one now.
func TestNoServiceManagerWithADaemonRunning(t *testing.T) {
	sp := spec(true)
	sp.RunningPID = 4242
	m := &Manager{Spec: sp, Platform: "", Run: fakeRun(nil)}
	_, err := m.Do(Install)
	if !errors.Is(err, ErrNoManager) {
		t.Fatalf("err = %v, want ErrNoManager", err)
	}
	for _, want := range []string{"a daemon already runs on /home/ann/.local/share/daybook (pid 4242)", "nothing needs starting now"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "in a terminal or tmux") {
		t.Errorf("error says to start a daemon in a terminal while one runs: %v", err)
	}
}

func TestUserManagerMissingMentionsLinger(t *testing.T) {
	m := &Manager{Spec: spec(true), Platform: "linux-systemd", Run: fakeRun(map[string]bool{"systemctl --user show-environment": true})}
	_, err := m.Do(Install)
	if err == nil || !strings.Contains(err.Error(), "loginctl enable-linger") || !strings.Contains(err.Error(), "No medium found") {
		t.Fatalf("err = %v, want the bus error and the linger hint", err)
	}
}

func TestSystemServiceNeedsRoot(t *testing.T) {
	m := &Manager{Spec: spec(false), Platform: "linux-systemd", Euid: 1000, Run: fakeRun(nil)}
	for _, a := range []Action{Install, Uninstall, Start, Stop, Restart} {
		if _, err := m.Do(a); err == nil || !strings.Contains(err.Error(), "needs root") {
			t.Errorf("%s as uid 1000: err = %v, want a needs-root error", a, err)
		}
	}
}

// On this machine (a container without a running service manager, or a real
// host) NewManager must never claim an install it cannot do.
func TestThisMachineNeverPretends(t *testing.T) {
	m := NewManager(spec(true))
	if supported[m.Platform] {
		t.Skipf("a supported service manager (%s) runs here", m.Platform)
	}
	if _, err := m.Do(Install); !errors.Is(err, ErrNoManager) {
		t.Fatalf("install on %q: err = %v, want ErrNoManager", m.Platform, err)
	}
}
