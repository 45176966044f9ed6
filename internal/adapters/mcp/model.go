package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// ModelTool is one of daybook's MCP tools as a model sees it outside MCP
// (the memory proxy offers it through Ollama's tool calling): the name,
// description and input schema an MCP client gets, and Call, which runs it
// as the MCP server does.
type ModelTool struct {
	Name        string
	Description string
	Parameters  *jsonschema.Schema
	// Call runs the tool with the model's JSON arguments and returns the
	// text an MCP client would read; a refused argument or a failed call
	// is an error whose text is for the model.
	Call func(ctx context.Context, args json.RawMessage) (string, error)
}

// ModelTools returns recall and expand over r: the read-only tools a
// model can call in the middle of a chat to look further into memory.
func ModelTools(r Reader, opts Options) []ModelTool {
	t := readTools{r: r, opts: opts}
	return []ModelTool{modelTool(recallTool, t.recall), modelTool(expandTool, t.expand)}
}

func modelTool[In, Out any](def toolDef, fn func(context.Context, In) (Out, error)) ModelTool {
	in, err := inputSchema[In](def.enums, def.ranges)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %s: %v", def.name, err))
	}
	call := func(ctx context.Context, raw json.RawMessage) (string, error) {
		args, err := decodeArgs[In](raw, in)
		if err != nil {
			return "", err
		}
		v, err := fn(ctx, args)
		if err != nil {
			return "", err
		}
		if x, ok := any(v).(texter); ok {
			return x.contentText(), nil
		}
		data, err := json.Marshal(v)
		if err != nil {
			return "", fmt.Errorf("%s: encoding the result: %w", def.name, err)
		}
		return string(data), nil
	}
	return ModelTool{Name: def.name, Description: def.doc, Parameters: in, Call: call}
}
