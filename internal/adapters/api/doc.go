// Package api is daybook's operations over HTTP: the Server that serves a
// daybook.Service on the daemon's Unix socket, versioned endpoints under
// /v1/, and the one Client that calls them. The request and response types,
// the Service contract and the error codes are the root package's.
package api
