package proxy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// The kernel's tables of TCP sockets: one line per socket with its local
// and remote address and the uid that owns it (proc_net(5)). They are read
// by hand: the lookup is one scan for one line, and a library (procfs,
// netlink's sock_diag) would bring a dependency for twenty lines of parsing.
var tcpTables = []string{"/proc/net/tcp", "/proc/net/tcp6"}

// uidCheckable returns nil when peerUID can tell who owns a connection on
// ln: a loopback TCP listener and a readable /proc/net/tcp.
func uidCheckable(ln net.Listener) error {
	ta, ok := ln.Addr().(*net.TCPAddr)
	if !ok || !ta.IP.IsLoopback() {
		return fmt.Errorf("%s is not a loopback TCP address", ln.Addr())
	}
	for _, t := range tcpTables {
		f, err := os.Open(t)
		if err != nil {
			return err
		}
		f.Close()
	}
	return nil
}

// peerUID returns the uid that owns the other end of the loopback
// connection c: the socket whose local address is c's remote one and whose
// remote address is c's local one, as the kernel lists it. An IPv4 peer may
// be in /proc/net/tcp, or in tcp6 as ::ffff:a.b.c.d when its socket is
// dual-stack.
func peerUID(c net.Conn) (int, error) {
	local, lok := c.LocalAddr().(*net.TCPAddr)
	remote, rok := c.RemoteAddr().(*net.TCPAddr)
	if !lok || !rok {
		return -1, fmt.Errorf("not a TCP connection: %s", c.RemoteAddr())
	}
	peer, us := remote.AddrPort(), local.AddrPort()
	for _, t := range tcpTables {
		v6 := strings.HasSuffix(t, "6")
		if !v6 && !peer.Addr().Unmap().Is4() {
			continue
		}
		uid, err := findUID(t, procAddr(peer, v6), procAddr(us, v6))
		if err == nil {
			return uid, nil
		}
		if !errors.Is(err, errNoSocket) {
			return -1, err
		}
	}
	return -1, fmt.Errorf("no socket %s -> %s in /proc/net/tcp or tcp6", peer, us)
}

var errNoSocket = errors.New("no such socket")

// Socket states of proc_net(5) that stand for no process's socket: a
// listener, and TIME_WAIT, which the kernel lists with uid 0.
const (
	stateTimeWait = "06"
	stateListen   = "0A"
)

// findUID scans the table for the socket local -> remote and returns the
// uid column of its line.
func findUID(table, local, remote string) (int, error) {
	f, err := os.Open(table)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
		fs := strings.Fields(sc.Text())
		if len(fs) < 8 || fs[1] != local || fs[2] != remote || fs[3] == stateTimeWait || fs[3] == stateListen {
			continue
		}
		uid, err := strconv.Atoi(fs[7])
		if err != nil {
			return -1, fmt.Errorf("%s: uid %q: %w", table, fs[7], err)
		}
		return uid, nil
	}
	if err := sc.Err(); err != nil {
		return -1, fmt.Errorf("reading %s: %w", table, err)
	}
	return -1, errNoSocket
}

// procAddr writes ap as the kernel prints it in /proc/net/tcp (v6 false:
// %08X of the address's 32 bits as they lie in memory) or tcp6 (four such
// words), then ':' and the port in %04X.
func procAddr(ap netip.AddrPort, v6 bool) string {
	var b []byte
	if v6 {
		a := ap.Addr().As16()
		b = a[:]
	} else {
		a := ap.Addr().Unmap().As4()
		b = a[:]
	}
	var sb strings.Builder
	for i := 0; i < len(b); i += 4 {
		fmt.Fprintf(&sb, "%08X", binary.NativeEndian.Uint32(b[i:i+4]))
	}
	fmt.Fprintf(&sb, ":%04X", ap.Port())
	return sb.String()
}
