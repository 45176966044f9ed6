package mcp

import (
	"context"
	"log/slog"

	"github.com/daybook/daybook/api"
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
since it was written, hand_edited one a person changed.`
	contextDoc = `Build a context for an agent within a token budget: the foundation, summaries
from the top of the pyramid down and recent entries, as one markdown block, with
the ids placed and what did not fit.`
	statsDoc = `Describe the memory: entries, days, summaries per level, coverage, compression,
top topics and the busiest periods.`
)

// tools holds what the handlers need.
type tools struct {
	b    api.Service
	opts Options
	log  *slog.Logger
}

// RecallInput is the recall tool's arguments.
type RecallInput struct {
	Query string `json:"query" jsonschema:"what to recall, in words; may hold temporal phrases such as last March"`
	From  string `json:"from,omitempty" jsonschema:"first day: YYYY-MM-DD, today, yesterday or -Nd"`
	To    string `json:"to,omitempty" jsonschema:"last day: YYYY-MM-DD, today, yesterday or -Nd"`
	Level string `json:"level,omitempty" jsonschema:"only results of this level: year, month, day, entry or line"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 10)"`
}

func (t tools) recall(ctx context.Context, in RecallInput) (api.RecallResponse, error) {
	if err := firstError(checkText("query", in.Query, api.MaxQuery), checkRange(in.From, in.To),
		checkOneOf("level", in.Level, "", "year", "month", "day", "entry", "line"), checkLimit(in.Limit)); err != nil {
		return api.RecallResponse{}, err
	}
	resp, err := t.b.Recall(ctx, api.RecallRequest{Query: in.Query, From: in.From, To: in.To, Level: in.Level, Limit: in.Limit})
	if resp.Results == nil {
		resp.Results = []api.RecallResult{}
	}
	return resp, err
}

// RememberInput is the remember tool's arguments.
type RememberInput struct {
	Text string   `json:"text" jsonschema:"the entry's text; #tags in it are indexed"`
	Kind string   `json:"kind,omitempty" jsonschema:"fact, decision, note (default), todo or event"`
	Tags []string `json:"tags,omitempty" jsonschema:"tags to add, without #"`
	At   string   `json:"at,omitempty" jsonschema:"when: HH:MM today, YYYY-MM-DD HH:MM or RFC 3339; default now"`
}

func (t tools) remember(ctx context.Context, in RememberInput) (api.RememberResponse, error) {
	if err := firstError(checkText("text", in.Text, 0), checkKind(in.Kind), checkTags(in.Tags), checkAt(in.At)); err != nil {
		return api.RememberResponse{}, err
	}
	return t.b.Remember(ctx, api.RememberRequest{Text: in.Text, Kind: in.Kind, Tags: in.Tags, At: in.At})
}

// ExpandInput is the expand tool's arguments.
type ExpandInput struct {
	ID string `json:"id" jsonschema:"an id from recall, browse or expand: an entry id, DATE:Lnn, day:YYYY-MM-DD, month:YYYY-MM or year:YYYY"`
}

func (t tools) expand(ctx context.Context, in ExpandInput) (api.ExpandResponse, error) {
	if err := checkText("id", in.ID, 200); err != nil {
		return api.ExpandResponse{}, err
	}
	return t.b.Expand(ctx, api.ExpandRequest{ID: in.ID})
}

// FindInput is the find tool's arguments.
type FindInput struct {
	Pattern string `json:"pattern" jsonschema:"a regular expression in RE2 syntax; (?i) makes it case-insensitive"`
	From    string `json:"from,omitempty" jsonschema:"first day: YYYY-MM-DD, today, yesterday or -Nd"`
	To      string `json:"to,omitempty" jsonschema:"last day: YYYY-MM-DD, today, yesterday or -Nd"`
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many matches (default 50)"`
}

func (t tools) find(ctx context.Context, in FindInput) (api.FindResponse, error) {
	if err := firstError(checkText("pattern", in.Pattern, api.MaxQuery), checkRegex(in.Pattern),
		checkRange(in.From, in.To), checkLimit(in.Limit)); err != nil {
		return api.FindResponse{}, err
	}
	limit := in.Limit
	if limit == 0 {
		limit = DefaultFindLimit
	}
	resp, err := t.b.Find(ctx, api.FindRequest{Pattern: in.Pattern, Regex: true, From: in.From, To: in.To, Limit: limit})
	if resp.Matches == nil {
		resp.Matches = []api.Match{}
	}
	return resp, err
}

// BrowseInput is the browse tool's arguments.
type BrowseInput struct {
	Level string `json:"level" jsonschema:"day, month or year"`
	From  string `json:"from,omitempty" jsonschema:"first day: YYYY-MM-DD, today, yesterday or -Nd"`
	To    string `json:"to,omitempty" jsonschema:"last day: YYYY-MM-DD, today, yesterday or -Nd"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many summaries (default 50)"`
}

func (t tools) browse(ctx context.Context, in BrowseInput) (api.BrowseResponse, error) {
	if err := firstError(checkOneOf("level", in.Level, "day", "month", "year"), checkRange(in.From, in.To),
		checkLimit(in.Limit)); err != nil {
		return api.BrowseResponse{}, err
	}
	resp, err := t.b.Browse(ctx, api.BrowseRequest{Level: in.Level, From: in.From, To: in.To, Limit: in.Limit})
	if resp.Summaries == nil {
		resp.Summaries = []api.SummaryInfo{}
	}
	return resp, err
}

// ContextInput is the context tool's arguments.
type ContextInput struct {
	Query        string `json:"query,omitempty" jsonschema:"what the agent is about to work on; favours related memories"`
	BudgetTokens int    `json:"budget_tokens,omitempty" jsonschema:"the most tokens the context may take (default from the config)"`
}

func (t tools) context(ctx context.Context, in ContextInput) (api.ContextResponse, error) {
	if err := firstError(checkLen("query", in.Query, api.MaxQuery), checkNonNegative("budget_tokens", in.BudgetTokens)); err != nil {
		return api.ContextResponse{}, err
	}
	resp, err := t.b.Context(ctx, api.ContextRequest{Query: in.Query, Budget: in.BudgetTokens})
	if resp.Items == nil {
		resp.Items = []api.ContextItem{}
	}
	return resp, err
}

// StatsInput is the stats tool's arguments: none.
type StatsInput struct{}

func (t tools) stats(ctx context.Context, _ StatsInput) (api.StatsResponse, error) {
	resp, err := t.b.Stats(ctx, api.StatsRequest{})
	// Maps are objects in the output schema: never null.
	if resp.Summaries == nil {
		resp.Summaries = map[string]int{}
	}
	if resp.Coverage == nil {
		resp.Coverage = map[string]float64{}
	}
	if resp.Busiest == nil {
		resp.Busiest = map[string][]api.Count{}
	}
	return resp, err
}
