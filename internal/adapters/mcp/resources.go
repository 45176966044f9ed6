package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
)

// The context block as MCP resources and a prompt, for clients that put
// them into the conversation without a tool call.
const (
	contextURI         = "daybook://context"
	contextTemplateURI = "daybook://context/{period}"
	contextPrompt      = "remember-context"
	markdownMIME       = "text/markdown"
)

// loopInstructions tell the agent when to recall and when to remember; the
// server's instructions are the tools' (instructions) and these.
const loopInstructions = `The resource daybook://context is the memory to start from: the foundation,
the summaries from the year down and the latest entries; daybook://context/{period}
(2025, 2025-03, 2025-03-14) leads with that period.
When to recall: at the start of a task, and before answering whenever the user
refers to anything from before (a decision, a person, a project, "last time",
"as we said", a date): call recall, expand what it returns, and cite the ids.
When to remember: when the user states a decision, a preference, a fact about
themselves or their work, a commitment or a todo, and when a task ends with an
outcome worth knowing next time: call remember with one short entry that stands
on its own, with its kind (decision, fact, todo, event, note). Never remember a
secret, a credential, tool output verbatim, or what the user asks to keep out.`

// serverInstructions is what the server tells every client at initialize.
const serverInstructions = instructions + "\n\n" + loopInstructions

// period is a year, a month or a day, as the template's {period} takes it.
var period = regexp.MustCompile(`^\d{4}(-\d{2}(-\d{2})?)?$`)

// contexter builds the context block (daybook.Service.Context).
type contexter interface {
	Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error)
}

// contextResources serves the context block as resources and a prompt.
type contextResources struct {
	b   contexter
	log *slog.Logger
}

// addContextResources registers daybook://context, the template
// daybook://context/{period} and the prompt remember-context on s.
func addContextResources(s *sdk.Server, b contexter, log *slog.Logger) {
	r := contextResources{b: b, log: log}
	s.AddResource(&sdk.Resource{URI: contextURI, Name: "context", Title: "daybook context",
		Description: "The context block to start from: foundation.md, the summaries from the year down and the latest entries, within the configured budget (context.budget).",
		MIMEType:    markdownMIME}, r.read)
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: contextTemplateURI, Name: "context-period", Title: "daybook context of a period",
		Description: "The context block led by what daybook remembers of one period: a year (2025), a month (2025-03) or a day (2025-03-14).",
		MIMEType:    markdownMIME}, r.read)
	s.AddPrompt(&sdk.Prompt{Name: contextPrompt, Title: "Remember context",
		Description: "Puts what daybook remembers about a query into the conversation: the context block led by the query's recall hits.",
		Arguments:   promptArguments()}, r.prompt)
}

// promptWords is how many arguments remember-context declares: the query,
// and its next words. Claude Code splits what follows a prompt's slash
// command at spaces and passes the words as the prompt's arguments in the
// order declared ("/mcp__daybook__remember-context home server upgrade"
// gives query "home", query_2 "server", query_3 "upgrade"); with one
// argument it would pass the first word alone. The prompt joins them all.
const promptWords = 32

// promptArguments declares the query and its next words.
func promptArguments() []*sdk.PromptArgument {
	args := []*sdk.PromptArgument{{Name: "query", Title: "Query",
		Description: "what you are about to work on or ask about; none gives the general context"}}
	for i := 2; i <= promptWords; i++ {
		args = append(args, &sdk.PromptArgument{Name: fmt.Sprintf("query_%d", i), Title: fmt.Sprintf("Query, word %d", i),
			Description: "more of the query, for clients that pass a prompt's words one an argument (Claude Code); they are joined to it"})
	}
	return args
}

// promptQuery joins the query and its next words, in order.
func promptQuery(args map[string]string) string {
	parts := []string{strings.TrimSpace(args["query"])}
	for i := 2; i <= promptWords; i++ {
		if w := strings.TrimSpace(args[fmt.Sprintf("query_%d", i)]); w != "" {
			parts = append(parts, w)
		}
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

// read answers resources/read for the context and a period's context.
func (r contextResources) read(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	var query string
	switch {
	case uri == contextURI:
	case strings.HasPrefix(uri, contextURI+"/"):
		p := strings.TrimPrefix(uri, contextURI+"/")
		if err := checkPeriod(p); err != nil {
			r.log.Debug("resource refused", "uri", uri, "err", err)
			return nil, err
		}
		query = p
	default:
		return nil, sdk.ResourceNotFoundError(uri)
	}
	resp, err := r.b.Context(ctx, daybook.ContextRequest{Query: query})
	if err != nil {
		r.log.Error("resource failed", "uri", uri, "err", err)
		return nil, fmt.Errorf("%s: %w", uri, err)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: markdownMIME, Text: resp.Markdown}}}, nil
}

// checkPeriod refuses a {period} that is not a real year, month or day.
func checkPeriod(p string) error {
	layout := map[int]string{4: "2006", 7: "2006-01", 10: "2006-01-02"}[len(p)]
	if !period.MatchString(p) || layout == "" {
		return fmt.Errorf("period: %q is not a year (2025), a month (2025-03) or a day (2025-03-14)", p)
	}
	if _, err := time.Parse(layout, p); err != nil {
		return fmt.Errorf("period: %q is not a real date: %v", p, err)
	}
	return nil
}

// prompt answers prompts/get for remember-context.
func (r contextResources) prompt(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	query := promptQuery(req.Params.Arguments)
	if err := checkLen("query", query, daybook.MaxQuery); err != nil {
		return nil, err
	}
	resp, err := r.b.Context(ctx, daybook.ContextRequest{Query: query})
	if err != nil {
		r.log.Error("prompt failed", "prompt", contextPrompt, "err", err)
		return nil, fmt.Errorf("%s: %w", contextPrompt, err)
	}
	intro := "Below is what daybook, my long-term memory, holds that bears on what follows."
	if query != "" {
		intro = fmt.Sprintf("Below is what daybook, my long-term memory, holds about: %s.", query)
	}
	text := intro + " Use it, cite the [ids] you rely on, expand an id for its full text, and remember what we decide.\n\n" + resp.Markdown
	return &sdk.GetPromptResult{Description: "daybook context" + map[bool]string{true: " for " + query, false: ""}[query != ""],
		Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}}}, nil
}
