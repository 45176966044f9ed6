package config

import (
	"net"
	"testing"
)

// splitHostPort stands in for net.SplitHostPort: it must agree with it on
// what it accepts and what it returns.
func TestSplitHostPortAsNet(t *testing.T) {
	for _, s := range []string{"127.0.0.1:7717", "localhost:80", ":7717", "[::1]:7717", "[::1]", "::1:80",
		"host", "host:", "[fe80::1%lo]:1", "a[b]:1", "[a:1", "", ":"} {
		h, p, err := splitHostPort(s)
		nh, np, nerr := net.SplitHostPort(s)
		if (err == nil) != (nerr == nil) || h != nh && err == nil || p != np && err == nil {
			t.Errorf("splitHostPort(%q) = %q, %q, %v; net.SplitHostPort: %q, %q, %v", s, h, p, err, nh, np, nerr)
		}
	}
	for host, want := range map[string]bool{"127.0.0.1": true, "127.1.2.3": true, "::1": true, "LocalHost": true,
		"::ffff:127.0.0.1": true, "10.0.0.1": false, "": false, "example.com": false, "::1%lo": false} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
