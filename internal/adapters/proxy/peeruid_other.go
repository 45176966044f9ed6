//go:build !linux

package proxy

import (
	"errors"
	"net"
)

// uidCheckable: only Linux lists who owns a TCP socket where a process of
// another user can read it (/proc/net/tcp); elsewhere the token decides.
func uidCheckable(net.Listener) error {
	return errors.New("the owner of a TCP connection is known on Linux only")
}

func peerUID(net.Conn) (int, error) { return -1, errors.New("unsupported") }
