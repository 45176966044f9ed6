package proxy

import (
	"context"
	"encoding/json"

	"github.com/ollama/ollama/api"
)

// offerTools adds recall and expand to the request's tools, beside the
// client's own, unless memory is off or the client has tools of those
// names. It returns the names added.
func (p *Proxy) offerTools(req *api.ChatRequest, x *exchange) map[string]bool {
	if !x.inject || p.opts.ToolRounds < 1 || len(p.tools) == 0 {
		return nil
	}
	taken := map[string]bool{}
	for _, t := range req.Tools {
		taken[t.Function.Name] = true
	}
	ours := map[string]bool{}
	for _, mt := range p.tools {
		if taken[mt.Name] {
			continue
		}
		var params api.ToolFunctionParameters
		data, err := json.Marshal(mt.Parameters)
		if err == nil {
			err = json.Unmarshal(data, &params)
		}
		if err != nil {
			p.log.Error("offering a tool failed", "tool", mt.Name, "err", err)
			continue
		}
		req.Tools = append(req.Tools, api.Tool{Type: "function",
			Function: api.ToolFunction{Name: mt.Name, Description: mt.Description, Parameters: params}})
		ours[mt.Name] = true
	}
	return ours
}

// runTools answers the model's calls of our tools: a tool message each,
// holding the result, or the error for the model to read.
func (p *Proxy) runTools(ctx context.Context, calls []api.ToolCall) []api.Message {
	out := make([]api.Message, 0, len(calls))
	for _, call := range calls {
		text := "no such tool: " + call.Function.Name
		for _, mt := range p.tools {
			if mt.Name != call.Function.Name {
				continue
			}
			args, err := json.Marshal(call.Function.Arguments)
			if err == nil {
				text, err = mt.Call(ctx, args)
			}
			if err != nil {
				text = "error: " + err.Error()
				p.log.Debug("a tool call the model made failed", "tool", mt.Name, "err", err)
			}
		}
		out = append(out, api.Message{Role: "tool", Content: text, ToolName: call.Function.Name, ToolCallID: call.ID})
	}
	return out
}
