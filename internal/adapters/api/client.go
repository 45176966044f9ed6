package api

import "github.com/daybook/daybook/internal/adapters/api/apiclient"

// Client is the socket API's one client (package apiclient, which the
// front links without this package's server).
type Client = apiclient.Client

// NewClient returns a client of the daemon listening on socket.
func NewClient(socket string) *Client { return apiclient.New(socket) }

// NoListener reports whether err, from connecting to a socket, says that
// no one listens there (apiclient.NoListener).
func NoListener(err error) bool { return apiclient.NoListener(err) }

// DialTimeout bounds connecting to the socket (apiclient.DialTimeout).
const DialTimeout = apiclient.DialTimeout
