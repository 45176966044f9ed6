// Package mcp serves daybook over the Model Context Protocol, with the
// official SDK: tools with typed inputs and structured outputs to recall,
// remember, expand ids, find patterns, browse summaries, build an agent's
// context and report statistics; and that context block without a tool
// call, as the resources daybook://context and daybook://context/{period}
// and the prompt remember-context (resources.go), with instructions that
// tell the agent when to recall and when to remember.
//
// The server takes a Memory, the seven operations its tools and resources
// call: *app.App on the files, or the daemon's socket client; "daybook mcp" picks one as the CLI does. Bad arguments come
// back as tool errors (results with IsError set) whose message names the argument,
// never as protocol failures; a panic in a tool is recovered into a tool
// error. Nothing here writes to stdout: on the stdio transport it is the
// protocol.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook/internal/util/logkey"
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
func NewServer(b Memory, opts Options) *sdk.Server {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.IsUserError == nil {
		opts.IsUserError = func(error) bool { return false }
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	log := opts.Log.With(logkey.System, "mcp")
	s := sdk.NewServer(&sdk.Implementation{Name: "daybook", Title: "daybook long-term memory", Version: opts.Version},
		&sdk.ServerOptions{Instructions: serverInstructions, Logger: log, Capabilities: &sdk.ServerCapabilities{}})
	t := tools{readTools: readTools{r: b, opts: opts}, b: b, log: log}
	addTool(t, s, recallTool, t.recall)
	addTool(t, s, rememberTool, t.remember)
	addTool(t, s, expandTool, t.expand)
	addTool(t, s, findTool, t.find)
	addTool(t, s, browseTool, t.browse)
	addTool(t, s, contextTool, t.context)
	addTool(t, s, statsTool, t.stats)
	addContextResources(s, b, log)
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
// the arguments are checked here (errors in one shape, "ARG: what is
// wrong"), and an error or a panic becomes a tool error. The result is the
// output as structured content and, for clients that read only text, as
// text: the output's own text when it has one (expand's page, sent once),
// else its JSON.
func addTool[In, Out any](t tools, s *sdk.Server, def toolDef, fn func(context.Context, In) (Out, error)) {
	in, err := inputSchema[In](def.enums, def.ranges)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %s: %v", def.name, err))
	}
	out, err := jsonschema.For[Out](forOptions)
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %s: %v", def.name, err))
	}
	h := func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			if p := recover(); p != nil {
				t.log.Error("tool panicked", "tool", def.name, "panic", p, "stack", string(debug.Stack()))
				res, err = toolError(fmt.Errorf("%s: internal error: %v", def.name, p)), nil
			}
		}()
		args, err := decodeArgs[In](req.Params.Arguments, in)
		if err != nil {
			t.log.Debug("tool refused its arguments", "tool", def.name, "err", err)
			return toolError(err), nil
		}
		v, err := fn(ctx, args)
		if err != nil {
			if t.opts.IsUserError(err) || isArgError(err) {
				t.log.Debug("tool refused its arguments", "tool", def.name, "err", err)
			} else {
				t.log.Error("tool failed", "tool", def.name, "err", err)
			}
			return toolError(err), nil
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding the result: %w", def.name, err)
		}
		text := string(data)
		if x, ok := any(v).(texter); ok {
			text = x.contentText()
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(data)}, nil
	}
	s.AddTool(&sdk.Tool{Name: def.name, Title: def.title, Description: def.doc, InputSchema: in, OutputSchema: out,
		Annotations: def.annotations()}, h)
}

// texter is an output with a text of its own for the content, so that the
// text is not sent twice (once inside the JSON).
type texter interface{ contentText() string }

func toolError(err error) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: err.Error()}}}
}
