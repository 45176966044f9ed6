package reliability

import (
	"os/exec"
	"strings"
	"testing"
)

// badConfigs are configs a person gets wrong, each with what its error must
// name.
var badConfigs = []struct {
	name, yaml string
	want       []string
}{
	{"unknown key", "consolidat:\n  daily: \"0 2 * * *\"\n", []string{"line 1", "consolidat"}},
	{"unknown nested key", "recall:\n  limt: 5\n", []string{"line 2", "limt"}},
	{"wrong type", "recall:\n  limit: ten\n", []string{"line 2", "ten"}},
	{"wrong duration", "consolidate:\n  debounce: soon\n", []string{"line 2", "soon"}},
	{"bad cron", "consolidate:\n  daily: \"61 * * * *\"\n", []string{"consolidate.daily", "61 * * * *"}},
	{"cron with too many fields", "consolidate:\n  monthly: \"0 0 3 1 * * *\"\n", []string{"consolidate.monthly"}},
	{"no such time zone", "timezone: Mars/Olympus_Mons\n", []string{"timezone", "Mars/Olympus_Mons"}},
	{"not YAML", "timezone: [UTC\n", []string{"config.yaml"}},
	{"binary", "\x00\x01\xff\xfe", []string{"config.yaml"}},
}

// TestBadConfig runs the CLI and the daemon over each bad config: each must
// exit 1 with an error that names the file and what is wrong, and never
// panic.
func TestBadConfig(t *testing.T) {
	for _, c := range badConfigs {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, c.yaml)
			for _, args := range [][]string{{"status"}, {"remember", "x"}, {"daemon"}} {
				cmd := r.cmd(args...)
				out, err := cmd.CombinedOutput()
				msg := string(out)
				ee, ok := err.(*exec.ExitError)
				if !ok || ee.ExitCode() != 1 {
					t.Errorf("daybook %s: %v, want exit 1\n%s", args[0], err, msg)
				}
				if strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine ") {
					t.Errorf("daybook %s panicked:\n%s", args[0], msg)
				}
				for _, w := range append(c.want, r.cfgPath) {
					if !strings.Contains(msg, w) {
						t.Errorf("daybook %s: error %q does not name %q", args[0], strings.TrimSpace(msg), w)
					}
				}
			}
		})
	}
}

// TestConfigBrokenUnderRunningDaemon breaks the config while a daemon runs:
// a CLI run refuses with an error naming the config, and the daemon, which
// read its config at start, goes on serving.
func TestConfigBrokenUnderRunningDaemon(t *testing.T) {
	r := newRig(t, "recall:\n  limit: 5\n")
	d := r.startDaemon()
	defer d.stop()
	r.must("remember", "before the config broke")
	for _, c := range badConfigs {
		r.writeConfig(c.yaml)
		if _, err := r.daybook("remember", "with a broken config"); err == nil || !strings.Contains(err.Error(), r.cfgPath) {
			t.Errorf("%s: remember with a broken config: %v, want an error naming %s", c.name, err, r.cfgPath)
		}
		if code, body, err := r.rawPost("/v1/remember", `{"text":"through the socket while the config is broken"}`); err != nil || code != 200 {
			t.Fatalf("%s: the daemon stopped answering: %d %v %s\n%s", c.name, code, err, body, d.logText())
		}
	}
}
