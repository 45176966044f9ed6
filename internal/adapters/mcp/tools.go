package mcp

import (
	"context"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/daybook/daybook"
)

// Tool names.
const (
	toolRecall   = "recall"
	toolRemember = "remember"
	toolExpand   = "expand"
	toolFind     = "find"
	toolBrowse   = "browse"
	toolContext  = "context"
	toolStats    = "stats"
)

// DefaultFindLimit is how many matches find returns when the call gives no
// limit: a common word over years of days would otherwise flood the client.
const DefaultFindLimit = 50

const instructions = `daybook is a long-term memory: markdown day files of timestamped entries,
consolidated into daily, monthly and yearly summaries. Use "recall" to ask what
is remembered (it drills year → month → day → entry), "expand" on any id it
returns for the full text and the ids one level down, "browse" to read the
summaries of a level, "find" for an exact regular expression over the day files,
and "remember" to write a new entry. Ids: day:YYYY-MM-DD, month:YYYY-MM,
year:YYYY, an entry id (2026-11-22T09:14-3fa2b1c4d5e6) or a line (2026-11-22:L12).`

const (
	recallDoc = `Recall what daybook remembers about a query, best first. Temporal phrases in the
query ("last March", "in 2025", "yesterday") narrow the search like from/to.
Each result has an id to pass to expand, its level, period, path and line.`
	rememberDoc = `Remember one entry: append it to its day file. Returns its id, date, path and line.`
	expandDoc   = `Return the full text behind an id from recall, browse or expand: an entry's exact
lines, a day file with its daily summary, or a month's or a year's summary;
related lists the ids one level down (a year's months, a month's days, a day's
entries), so every entry is reachable.`
	findDoc = `Scan the day files for a regular expression (RE2 syntax), newest first; each
match is a path, a line and its text. Returns at most limit matches (default 50);
truncated says there were more.`
	browseDoc = `List the summaries of one level (day, month or year) whose period overlaps
from..to, newest first, with their prose; stale marks one whose inputs changed
since it was written, hand_edited one a person changed. The answer fits
budget_tokens (default 4000): left_out counts the older summaries that did not
fit, and next_to is the "to" that lists them.`
	contextDoc = `Build a context for an agent within a token budget: the foundation, summaries
from the top of the pyramid down and recent entries, as one markdown block that
fits the budget (the text of the answer); the structured result lists the ids
placed and counts what did not fit.`
	statsDoc = `Describe the memory: entries, days, summaries per level, coverage, compression,
top topics and the busiest periods.`
)

// toolDef is what a client sees of a tool besides its schemas.
type toolDef struct {
	name, title, doc string
	readOnly         bool                // reads only: clients may run it without asking
	enums            map[string][]string // the allowed values of string arguments
	ranges           map[string][2]int   // the least and most of integer arguments (0 is the default)
}

// annotations are the hints clients use to decide what needs approval:
// every tool but remember only reads; remember adds an entry (never
// changing or deleting one), and twice adds it twice.
func (d toolDef) annotations() *sdk.ToolAnnotations {
	no := false
	a := &sdk.ToolAnnotations{Title: d.title, ReadOnlyHint: d.readOnly, OpenWorldHint: &no}
	if d.readOnly {
		a.IdempotentHint = true
	} else {
		a.DestructiveHint = &no
	}
	return a
}

// The allowed values of the enumerated arguments.
var (
	recallLevels = []string{"year", "month", "day", "entry", "line"}
	browseLevels = []string{"day", "month", "year"}
	entryKinds   = []string{"fact", "decision", "note", "todo", "event"}
)

var (
	recallTool = toolDef{name: toolRecall, title: "Recall memories", doc: recallDoc, readOnly: true,
		enums: map[string][]string{"level": recallLevels}, ranges: map[string][2]int{"limit": {0, maxRecallLimit}}}
	rememberTool = toolDef{name: toolRemember, title: "Remember an entry", doc: rememberDoc,
		enums: map[string][]string{"kind": entryKinds}}
	expandTool = toolDef{name: toolExpand, title: "Expand an id", doc: expandDoc, readOnly: true,
		ranges: map[string][2]int{"budget_tokens": {0, maxExpandBudget}, "from_line": {0, maxFromLine}}}
	findTool = toolDef{name: toolFind, title: "Find a pattern in the day files", doc: findDoc, readOnly: true,
		ranges: map[string][2]int{"limit": {0, maxFindLimit}}}
	browseTool = toolDef{name: toolBrowse, title: "Browse summaries", doc: browseDoc, readOnly: true,
		enums: map[string][]string{"level": browseLevels}, ranges: map[string][2]int{"limit": {0, maxBrowseLimit}, "budget_tokens": {0, maxBrowseBudget}}}
	contextTool = toolDef{name: toolContext, title: "Build an agent's context", doc: contextDoc, readOnly: true,
		ranges: map[string][2]int{"budget_tokens": {0, maxContextBudget}}}
	statsTool = toolDef{name: toolStats, title: "Memory statistics", doc: statsDoc, readOnly: true}
)

// Reader is what the read-only tools a model calls in a chat run on:
// recall and expand (ModelTools).
type Reader interface {
	Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error)
	Expand(ctx context.Context, req daybook.ExpandRequest) (daybook.ExpandResponse, error)
}

// Memory is what the server's tools and resources run on: *app.App on the
// files, or the daemon's socket client.
type Memory interface {
	Reader
	Remember(ctx context.Context, req daybook.RememberRequest) (daybook.RememberResponse, error)
	Find(ctx context.Context, req daybook.FindRequest) (daybook.FindResponse, error)
	Browse(ctx context.Context, req daybook.BrowseRequest) (daybook.BrowseResponse, error)
	Context(ctx context.Context, req daybook.ContextRequest) (daybook.ContextResponse, error)
	Stats(ctx context.Context, req daybook.StatsRequest) (daybook.StatsResponse, error)
}

// readTools holds what the read-only tools need: recall and expand.
type readTools struct {
	r    Reader
	opts Options
}

// tools holds what the server's handlers need.
type tools struct {
	readTools
	b   Memory
	log *slog.Logger
}

// RecallInput is the recall tool's arguments.
type RecallInput struct {
	Query string `json:"query" jsonschema:"what to recall, in words; may hold temporal phrases such as last March"`
	From  string `json:"from,omitempty" jsonschema:"first day: YYYY-MM-DD, today, yesterday, tomorrow, -Nd (N days ago) or -Nw (N weeks ago)"`
	To    string `json:"to,omitempty" jsonschema:"last day: YYYY-MM-DD, today, yesterday, tomorrow, -Nd (N days ago) or -Nw (N weeks ago)"`
	Level string `json:"level,omitempty" jsonschema:"only results of this level"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results, 1 to 1000; 0 or none: the default (10)"`
}

func (t readTools) recall(ctx context.Context, in RecallInput) (daybook.RecallResponse, error) {
	if err := firstError(checkText("query", in.Query, daybook.MaxQuery), checkRange(in.From, in.To),
		checkOneOf("level", in.Level, append([]string{""}, recallLevels...)...), checkLimit(in.Limit, maxRecallLimit)); err != nil {
		return daybook.RecallResponse{}, err
	}
	resp, err := t.r.Recall(ctx, daybook.RecallRequest{Query: in.Query, From: in.From, To: in.To, Level: in.Level, Limit: in.Limit})
	if resp.Results == nil {
		resp.Results = []daybook.RecallResult{}
	}
	return resp, err
}

// RememberInput is the remember tool's arguments.
type RememberInput struct {
	Text string   `json:"text" jsonschema:"the entry's text; #tags in it are indexed"`
	Kind string   `json:"kind,omitempty" jsonschema:"the kind of entry; default note"`
	Tags []string `json:"tags,omitempty" jsonschema:"tags to add, without #, as a list: [\"garden\",\"ops/certs\"]"`
	At   string   `json:"at,omitempty" jsonschema:"when: HH:MM today, YYYY-MM-DD HH:MM or RFC 3339; default now"`
}

func (t tools) remember(ctx context.Context, in RememberInput) (daybook.RememberResponse, error) {
	if err := firstError(checkText("text", in.Text, 0), checkKind(in.Kind), checkTags(in.Tags), checkAt(in.At)); err != nil {
		return daybook.RememberResponse{}, err
	}
	resp, err := t.b.Remember(ctx, daybook.RememberRequest{Text: in.Text, Kind: in.Kind, Tags: in.Tags, At: in.At})
	// The date window is the backend's to check (it knows today); its
	// refusal, on the files or over the socket, is about at.
	if daybook.CodeOf(err) == daybook.CodeOutsideWindow {
		err = &ArgError{Arg: "at", Err: err}
	}
	return resp, err
}

// FindInput is the find tool's arguments.
type FindInput struct {
	Pattern string `json:"pattern" jsonschema:"a regular expression in RE2 syntax; (?i) makes it case-insensitive"`
	From    string `json:"from,omitempty" jsonschema:"first day: YYYY-MM-DD, today, yesterday, tomorrow, -Nd (N days ago) or -Nw (N weeks ago)"`
	To      string `json:"to,omitempty" jsonschema:"last day: YYYY-MM-DD, today, yesterday, tomorrow, -Nd (N days ago) or -Nw (N weeks ago)"`
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many matches, 1 to 10000; 0 or none: the default (50)"`
}

func (t tools) find(ctx context.Context, in FindInput) (daybook.FindResponse, error) {
	if err := firstError(checkText("pattern", in.Pattern, daybook.MaxQuery), checkRegex(in.Pattern),
		checkRange(in.From, in.To), checkLimit(in.Limit, maxFindLimit)); err != nil {
		return daybook.FindResponse{}, err
	}
	limit := in.Limit
	if limit == 0 {
		limit = DefaultFindLimit
	}
	resp, err := t.b.Find(ctx, daybook.FindRequest{Pattern: in.Pattern, Regex: true, From: in.From, To: in.To, Limit: limit})
	if resp.Matches == nil {
		resp.Matches = []daybook.Match{}
	}
	return resp, err
}

// BrowseInput is the browse tool's arguments.
type BrowseInput struct {
	Level string `json:"level" jsonschema:"the level of summaries to list"`
	From  string `json:"from,omitempty" jsonschema:"first day: YYYY-MM-DD, today, yesterday, tomorrow, -Nd (N days ago) or -Nw (N weeks ago)"`
	To    string `json:"to,omitempty" jsonschema:"last day: YYYY-MM-DD, today, yesterday, tomorrow, -Nd (N days ago) or -Nw (N weeks ago)"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many summaries, 1 to 1000; 0 or none: the default (50)"`
	// BudgetTokens bounds what the model reads: a day listing of 50
	// summaries runs to some 11,000 tokens.
	BudgetTokens int `json:"budget_tokens,omitempty" jsonschema:"the most tokens the answer may take, 1 to 32000; 0 or none: 4000. Older summaries past it are left out (left_out, next_to)"`
}

func (t tools) browse(ctx context.Context, in BrowseInput) (BrowseOutput, error) {
	if err := firstError(checkOneOf("level", in.Level, browseLevels...), checkRange(in.From, in.To),
		checkLimit(in.Limit, maxBrowseLimit), checkRangeInt("budget_tokens", in.BudgetTokens, 1, maxBrowseBudget)); err != nil {
		return BrowseOutput{}, err
	}
	resp, err := t.b.Browse(ctx, daybook.BrowseRequest{Level: in.Level, From: in.From, To: in.To, Limit: in.Limit})
	if err != nil {
		return BrowseOutput{}, err
	}
	budget := in.BudgetTokens
	if budget == 0 {
		budget = DefaultBrowseBudget
	}
	return fitBrowse(resp.Summaries, budget), nil
}

// ContextInput is the context tool's arguments.
type ContextInput struct {
	Query        string `json:"query,omitempty" jsonschema:"what the agent is about to work on; favours related memories"`
	BudgetTokens int    `json:"budget_tokens,omitempty" jsonschema:"the most tokens the context may take; 0 or none: the default from the config (4000)"`
}

func (t tools) context(ctx context.Context, in ContextInput) (ContextOutput, error) {
	if err := firstError(checkLen("query", in.Query, daybook.MaxQuery), checkRangeInt("budget_tokens", in.BudgetTokens, 1, maxContextBudget)); err != nil {
		return ContextOutput{}, err
	}
	return t.contextWithin(ctx, in)
}

// StatsInput is the stats tool's arguments: none.
type StatsInput struct{}

func (t tools) stats(ctx context.Context, _ StatsInput) (daybook.StatsResponse, error) {
	resp, err := t.b.Stats(ctx, daybook.StatsRequest{})
	// Maps are objects in the output schema: never null.
	if resp.Summaries == nil {
		resp.Summaries = map[string]int{}
	}
	if resp.Coverage == nil {
		resp.Coverage = map[string]float64{}
	}
	if resp.Busiest == nil {
		resp.Busiest = map[string][]daybook.Count{}
	}
	return resp, err
}
