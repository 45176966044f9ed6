package reliability

import (
	"os/exec"
	"strings"
	"testing"
)

// rememberTZ runs "daybook remember" with the shell's TZ set to tz.
func (r *rig) rememberTZ(tz, at, text string) string {
	r.t.Helper()
	c := exec.Command(r.bin, "remember", "--at", at, text)
	for _, kv := range r.env {
		if !strings.HasPrefix(kv, "TZ=") {
			c.Env = append(c.Env, kv)
		}
	}
	c.Env = append(c.Env, "TZ="+tz)
	c.Dir = r.dir
	out, err := c.CombinedOutput()
	if err != nil {
		r.t.Fatalf("remember in %s: %v\n%s", tz, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestOneZoneWhicheverProcessWrites: an instant lands on the same day and
// line whether the CLI writes it (from a Tokyo shell) or a daemon started
// in UTC does (for a New York shell): the data dir's zone decides.
func TestOneZoneWhicheverProcessWrites(t *testing.T) {
	r := newRig(t, "")
	p1 := r.rememberTZ("Asia/Tokyo", "2026-11-24T03:30:00Z", "no daemon, Tokyo shell")
	d := r.startDaemon() // TZ=UTC
	p2 := r.rememberTZ("America/New_York", "2026-11-24T03:31:00Z", "through the UTC daemon, New York shell")
	text := readFile(t, r.dayFile())
	if !strings.Contains(text, "- 12:30 no daemon, Tokyo shell") || !strings.Contains(text, "- 12:31 through the UTC daemon, New York shell") {
		t.Errorf("wrote %s and %s:\n%s\n%s", p1, p2, text, d.logText())
	}
	st, err := r.status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Zone != "Asia/Tokyo" {
		t.Errorf("status zone %q, want the pinned Asia/Tokyo", st.Zone)
	}
}
