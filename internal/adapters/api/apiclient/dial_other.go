//go:build !unix

package apiclient

import (
	"context"
	"net"
	"time"
)

// dial connects to the Unix socket at path.
func dial(ctx context.Context, path string, timeout time.Duration) (conn, error) {
	d := net.Dialer{Timeout: timeout}
	return d.DialContext(ctx, "unix", path)
}

// alive reports whether an idle connection may carry another request;
// where it cannot be told cheaply, none is kept.
func alive(c conn) bool { return false }
