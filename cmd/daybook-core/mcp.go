package main

import (
	"context"
	"errors"
	"io"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/mcp"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/util/logkey"
)

// version is daybook's version as MCP clients see it; the release build
// sets it with -ldflags "-X main.version=...".
var version = "dev"

func cmdMCP() cli.Command {
	return cli.Command{
		Name: "mcp", Args: "[--dir DIR]",
		Summary: "serve daybook's memory to an AI agent over MCP on stdin and stdout",
		Help: `Speaks the Model Context Protocol over stdin and stdout, for an MCP client
(Claude Desktop, Claude Code, Cursor) to start: tools recall, remember,
expand, find (an RE2 regex, case-sensitive), browse, context and stats. The
daemon answers when it runs for the data dir, else the files do, as for every
command. Logs go to stderr (-v for debug); stdout is the protocol.
See docs/mcp-clients.md for the clients' configuration.`,
		Run: runMCP,
	}
}

func runMCP(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("mcp")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("mcp takes no arguments, only --dir, --config and -v")
	}
	autostart(ctx, e, "mcp")
	b, err := e.Backend(ctx)
	if err != nil {
		return err
	}
	log := e.Logger()
	if _, err := os.Stat(e.AbsDir); errors.Is(err, os.ErrNotExist) {
		// The tools may write (remember creates it), so this is no error;
		// but a mistyped --dir would otherwise answer every read with nothing.
		log.Warn("the data dir does not exist yet: the read tools find nothing until remember creates it (a mistyped --dir?)",
			"dir", e.AbsDir)
	}
	opts := mcp.Options{Version: version, Log: log, IsUserError: isUserError}
	if _, daemon := b.(*api.Client); daemon {
		log.Debug("the daemon answers the tools", logkey.System, "mcp")
	}
	s := mcp.NewServer(b, opts)
	t := &sdk.IOTransport{Reader: io.NopCloser(e.Stdin), Writer: nopWriteCloser{e.Stdout}}
	return mcp.Serve(ctx, s, t)
}

// isUserError tells a caller's mistake from a failure, on the files or over
// the socket: the error's code says.
func isUserError(err error) bool { return daybook.CodeOf(err).UserFault() }

// nopWriteCloser keeps the transport from closing the process's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
