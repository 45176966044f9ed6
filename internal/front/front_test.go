package front

import "testing"

func TestTakes(t *testing.T) {
	for _, tc := range []struct {
		args        []string
		takes, hook bool
	}{
		{[]string{"recall", "x"}, true, false},
		{[]string{"remember", "x"}, true, false},
		{[]string{"hook", "prompt"}, true, true},
		{[]string{"hook", "session-start"}, true, true},
		{[]string{"hook", "capture"}, true, true},
		// daybook-core's: it writes settings, or is not a hook the daemon runs.
		{[]string{"hook", "install", "claude-code"}, false, false},
		{[]string{"hook", "prompt", "-v"}, false, false},
		{[]string{"hook"}, false, false},
		{[]string{"status"}, false, false},
		{nil, false, false},
	} {
		if got := Takes(tc.args); got != tc.takes {
			t.Errorf("Takes(%q) = %v, want %v", tc.args, got, tc.takes)
		}
		if got := Hook(tc.args); got != tc.hook {
			t.Errorf("Hook(%q) = %v, want %v", tc.args, got, tc.hook)
		}
	}
}
