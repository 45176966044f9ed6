package proxy

import (
	"encoding/binary"
	"net"
	"net/netip"
	"os"
	"testing"
)

// procAddr writes addresses as the kernel does in /proc/net/tcp and tcp6
// (proc_net(5)'s example: 0100007F:0050 is 127.0.0.1:80 on little-endian
// machines).
func TestProcAddr(t *testing.T) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		t.Skip("skipping: the expected strings are a little-endian machine's")
	}
	for _, c := range []struct {
		ap   string
		v6   bool
		want string
	}{
		{"127.0.0.1:80", false, "0100007F:0050"},
		{"127.0.0.1:11435", true, "0000000000000000FFFF00000100007F:2CAB"},
		{"[::1]:11435", true, "00000000000000000000000001000000:2CAB"},
	} {
		if got := procAddr(netip.MustParseAddrPort(c.ap), c.v6); got != c.want {
			t.Errorf("procAddr(%s, v6 %v) = %s, want %s", c.ap, c.v6, got, c.want)
		}
	}
}

// BenchmarkPeerUID is what the owner check adds to each accepted
// connection: one scan of /proc/net/tcp.
func BenchmarkPeerUID(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for b.Loop() {
		uid, err := peerUID(s)
		if err != nil || uid != os.Getuid() {
			b.Fatalf("uid %d, %v", uid, err)
		}
	}
}
