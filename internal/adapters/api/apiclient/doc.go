// Package apiclient is the one client of the daemon's socket API (its
// server is package api): every operation of daybook.Service as a request
// over the Unix socket, with the same results and errors as the App's. It
// speaks HTTP/1.1 itself, over a socket it opens with the system calls, so
// that the front (cmd/daybook), which asks the daemon on every command,
// links neither net/http nor the net package and starts about as fast as a
// Go hello-world.
package apiclient
