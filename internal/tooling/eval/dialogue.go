package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/recall"
)

// DialogueCategories names the question categories of LoCoMo-format sets.
var DialogueCategories = map[int]string{1: "fact", 2: "date", 3: "infer", 4: "open", 5: "adv"}

// ConversationFiles returns the LoCoMo-format files at path: the file
// itself, or the .json files of a folder, in name order.
func ConversationFiles(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	files, err := filepath.Glob(filepath.Join(path, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no .json conversation files", path)
	}
	slices.Sort(files)
	return files, nil
}

// BuildDialogue writes conversation c of the LoCoMo file path into a new
// data dir at dir, as "daybook import --from locomo" would (each message
// "Speaker: text" at its time, the zone UTC), consolidates every closed
// period and indexes it. It returns the App on dir (Close it) and c's
// questions with their gold days: the days of their evidence messages.
// Questions whose evidence names no message are left out.
func BuildDialogue(ctx context.Context, dir, path string, c importer.Conversation) (*app.App, []Question, error) {
	return buildDialogue(ctx, dir, path, c, nil)
}

// buildDialogue is BuildDialogue with extra entries written beside the
// conversation's messages (captured agent traffic, CapturedEval).
func buildDialogue(ctx context.Context, dir, path string, c importer.Conversation, extra []daybook.ImportLine) (*app.App, []Question, error) {
	a, err := importDialogue(ctx, dir, path, c, config.Default(), extra...)
	if err != nil {
		return a, nil, err
	}
	if _, err := a.Reindex(ctx, daybook.ReindexRequest{}); err != nil {
		return a, nil, fmt.Errorf("%s: reindex: %w", c.ID, err)
	}
	day := map[string]date.Date{}
	for _, s := range c.Sessions {
		for _, m := range s.Messages {
			if !m.At.IsZero() {
				day[m.DiaID] = date.Of(m.At)
			}
		}
	}
	var qs []Question
	for _, x := range c.QA {
		var gold []date.Date
		for _, id := range x.Evidence {
			if d, ok := day[id]; ok && !slices.Contains(gold, d) {
				gold = append(gold, d)
			}
		}
		if len(gold) > 0 && strings.TrimSpace(x.Question) != "" {
			qs = append(qs, NewQuestion(x.Question, gold, x.Category))
		}
	}
	return a, qs, nil
}

// importDialogue writes conversation c of the LoCoMo file path into a new
// data dir at dir with config cfg (its zone set to UTC), as "daybook import
// --from locomo" would, and consolidates every closed period. It returns the
// App on dir (Close it).
func importDialogue(ctx context.Context, dir, path string, c importer.Conversation, cfg config.Config, extra ...daybook.ImportLine) (*app.App, error) {
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := app.New(dir, cfg, nil)
	var res importer.Result
	c.AddEntries(path, &res)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, e := range res.Entries {
		if err := enc.Encode(daybook.ImportLine{At: e.AtString(), Text: e.Text, Kind: e.Kind, Tags: e.Tags}); err != nil {
			return a, err
		}
	}
	for _, l := range extra {
		if err := enc.Encode(l); err != nil {
			return a, err
		}
	}
	resp, err := a.Import(ctx, &buf, daybook.ImportOptions{})
	if err != nil {
		return a, fmt.Errorf("%s: import: %w", c.ID, err)
	}
	if len(resp.Rejected) > 0 {
		return a, fmt.Errorf("%s: import rejected %d messages, first: %s", c.ID, len(resp.Rejected), resp.Rejected[0].Error)
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		return a, fmt.Errorf("%s: consolidate: %w", c.ID, err)
	}
	return a, nil
}

// Askers returns every way of recalling that an eval compares on a's data
// dir: the default drill, its levels, the drill with each summary level
// switched off, the flat modes, and the flat BM25-over-days baseline.
func Askers(ctx context.Context, a *app.App) ([]Asker, error) {
	base, err := NewDayBM25(a.Dir())
	if err != nil {
		return nil, err
	}
	out := []Asker{
		RecallAsker("recall (drill)", a, daybook.RecallRequest{}),
		RecallAsker("recall --level day", a, daybook.RecallRequest{Level: "day"}),
		RecallAsker("recall --level entry", a, daybook.RecallRequest{Level: "entry"}),
	}
	x, err := a.Index(ctx)
	if err != nil {
		return nil, err
	}
	for _, off := range []date.Level{date.LevelYear, date.LevelMonth, date.LevelDay} {
		opts := recall.Options{Root: a.Dir(), Now: a.Now, Loc: a.Loc(), Limit: a.Config().Recall.Limit, Without: []date.Level{off}}
		out = append(out, Asker{Name: "drill without " + string(off) + "s", Ask: func(ctx context.Context, q string, limit int) ([]daybook.RecallResult, error) {
			resp, err := recall.Recall(ctx, x, daybook.RecallRequest{Query: q, Limit: limit}, opts)
			return resp.Results, err
		}})
	}
	out = append(out,
		RecallAsker("recall --mode bm25", a, daybook.RecallRequest{Mode: recall.ModeBM25}),
		RecallAsker("recall --mode vector", a, daybook.RecallRequest{Mode: recall.ModeVector}),
		RecallAsker("recall --mode linear", a, daybook.RecallRequest{Mode: recall.ModeLinear}),
		BaselineAsker(base),
	)
	return out, nil
}

// Dialogue runs the eval over LoCoMo-format files: each conversation built
// into its own data dir under tmp (its days first moved spread days apart
// when spread > 0, see Spread), every asker over its questions.
func Dialogue(ctx context.Context, files []string, tmp string, limit, spread int, progress func(name string, questions int)) (*Tally, error) {
	t := NewTally()
	err := eachConversation(files, tmp, func(dir, path string, c importer.Conversation) error {
		a, qs, err := BuildDialogue(ctx, dir, path, Spread(c, spread))
		return useApp(a, err, c.ID, progress, func(a *app.App) (int, error) {
			askers, err := Askers(ctx, a)
			if err == nil {
				err = t.Ask(ctx, askers, qs, limit)
			}
			return len(qs), err
		})
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// useApp runs f on a, built with error err (f is not run when it failed),
// closes a, and gives progress the count f returns for conversation id.
func useApp(a *app.App, err error, id string, progress func(name string, n int), f func(a *app.App) (int, error)) error {
	n := 0
	if err == nil {
		n, err = f(a)
	}
	if a != nil {
		a.Close()
	}
	if err == nil && progress != nil {
		progress(id, n)
	}
	return err
}

// eachConversation calls f with every conversation of the LoCoMo-format
// files, in order, each with a data dir of its own under tmp (conv01,
// conv02...), and stops at f's first error.
func eachConversation(files []string, tmp string, f func(dir, path string, c importer.Conversation) error) error {
	n := 0
	for _, path := range files {
		convs, err := importer.ReadLoCoMo(path)
		if err != nil {
			return err
		}
		for _, c := range convs {
			n++
			if err := f(filepath.Join(tmp, fmt.Sprintf("conv%02d", n)), path, c); err != nil {
				return err
			}
		}
	}
	return nil
}
