// Package api defines daybook's operations as plain request and response
// types, shared by the CLI, the daemon's Unix-socket HTTP API and the MCP
// server, so that every interface says the same thing in the same words.
package api
