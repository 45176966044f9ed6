package main

import (
	"context"
	"errors"
	"io"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/mcp"
)

// version is daybook's version as MCP clients see it; the release build
// sets it with -ldflags "-X main.version=...".
var version = "dev"

func cmdMCP() command {
	return command{
		name: "mcp", args: "[--dir DIR]",
		summary: "serve daybook's memory to an AI agent over MCP on stdin and stdout",
		help: `Speaks the Model Context Protocol over stdin and stdout, for an MCP client
(Claude Desktop, Claude Code, Cursor) to start: tools recall, remember,
expand, find (an RE2 regex, case-sensitive), browse, context and stats. The
daemon answers when it runs for the data dir, else the files do, as for every
command. Logs go to stderr (-v for debug); stdout is the protocol.
See docs/mcp-clients.md for the clients' configuration.`,
		run: runMCP,
	}
}

func runMCP(ctx context.Context, e *env, args []string) error {
	fs := e.newFlags("mcp")
	pos, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("mcp takes no arguments, only --dir, --config and -v")
	}
	b, err := e.backend(ctx)
	if err != nil {
		return err
	}
	log := e.logger()
	if _, err := os.Stat(e.absDir); errors.Is(err, os.ErrNotExist) {
		// The tools may write (remember creates it), so this is no error;
		// but a mistyped --dir would otherwise answer every read with nothing.
		log.Warn("the data dir does not exist yet: the read tools find nothing until remember creates it (a mistyped --dir?)",
			"dir", e.absDir)
	}
	opts := mcp.Options{Version: version, Log: log, IsUserError: isUserError}
	if _, daemon := b.(*api.Client); daemon {
		log.Debug("the daemon answers the tools", "system", "mcp")
	}
	s := mcp.NewServer(b, opts)
	t := &sdk.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}}
	return mcp.Serve(ctx, s, t)
}

// isUserError tells a caller's mistake from a failure, on the files or over
// the socket: the error's code says.
func isUserError(err error) bool { return api.CodeOf(err).UserFault() }

// nopWriteCloser keeps the transport from closing the process's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
