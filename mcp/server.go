// Package mcp serves daybook over the Model Context Protocol, with the
// official SDK: tools with typed inputs and structured outputs to recall,
// remember, expand ids, find patterns, browse summaries, build an agent's
// context and report statistics.
//
// The server takes an api.Service: *app.App on the files, or the daemon's
// socket client; "daybook mcp" picks one as the CLI does. Bad arguments come
// back as tool errors (results with IsError set) whose message names the argument,
// never as protocol failures; a panic in a tool is recovered into a tool
// error. Nothing here writes to stdout: on the stdio transport it is the
// protocol.
package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook/api"
)

// Options configures a server. The zero value serves every tool with a
// discarding logger.
type Options struct {
	// Version is reported to clients in the initialize handshake.
	Version string
	// Log receives a line per failed tool call and per recovered panic; it
	// must not write to the protocol's stdout.
	Log *slog.Logger
	// IsUserError tells a caller's mistake (logged at debug) from a failure
	// of daybook's (logged as an error); both are returned as tool errors.
	IsUserError func(error) bool
}

// NewServer returns an MCP server with daybook's tools over b. Run it with
// Serve, or connect it to any SDK transport.
func NewServer(b api.Service, opts Options) *sdk.Server {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.IsUserError == nil {
		opts.IsUserError = func(error) bool { return false }
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	log := opts.Log.With("system", "mcp")
	s := sdk.NewServer(&sdk.Implementation{Name: "daybook", Title: "daybook long-term memory", Version: opts.Version},
		&sdk.ServerOptions{Instructions: instructions, Logger: log, Capabilities: &sdk.ServerCapabilities{}})
	t := tools{b: b, opts: opts, log: log}
	addTool(t, s, toolRecall, recallDoc, t.recall)
	addTool(t, s, toolRemember, rememberDoc, t.remember)
	addTool(t, s, toolExpand, expandDoc, t.expand)
	addTool(t, s, toolFind, findDoc, t.find)
	addTool(t, s, toolBrowse, browseDoc, t.browse)
	addTool(t, s, toolContext, contextDoc, t.context)
	addTool(t, s, toolStats, statsDoc, t.stats)
	return s
}

// Serve runs the server on transport until the client goes away or ctx is
// cancelled; a client closing the session is not an error.
func Serve(ctx context.Context, s *sdk.Server, transport sdk.Transport) error {
	err := s.Run(ctx, transport)
	if ctx.Err() != nil {
		return nil // interrupted: the client is gone or the user stopped us
	}
	return err
}

// addTool registers one typed tool whose handler cannot crash the server:
// an error or a panic becomes a tool error.
func addTool[In, Out any](t tools, s *sdk.Server, name, doc string, fn func(context.Context, In) (Out, error)) {
	h := func(ctx context.Context, _ *sdk.CallToolRequest, in In) (_ *sdk.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				t.log.Error("tool panicked", "tool", name, "panic", p, "stack", string(debug.Stack()))
				var zero Out
				out, err = zero, fmt.Errorf("%s: internal error: %v", name, p)
			}
		}()
		out, err = fn(ctx, in)
		if err != nil {
			if t.opts.IsUserError(err) || isArgError(err) {
				t.log.Debug("tool refused its arguments", "tool", name, "err", err)
			} else {
				t.log.Error("tool failed", "tool", name, "err", err)
			}
			var zero Out
			return nil, zero, err
		}
		return nil, out, nil
	}
	sdk.AddTool(s, &sdk.Tool{Name: name, Description: doc}, h)
}
