package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/tooling/eval"
)

func cmdEval() cli.Command {
	return cli.Command{
		Name: "eval", Args: "FILE.jsonl [--limit K] [--modes drill,bm25,vector,linear] [--now T] [--misses] [--json] | --dialogue PATH [--spread DAYS] [--context [--context-misses FILE] | --captured N,N,...] | --summaries PATH | --updates FILE [--now T] [--misses] [--json]",
		Summary: "measure recall against a question set, mode by mode",
		Help: `FILE.jsonl holds one question per line, with the days that answer it:
  {"q": "in June 2025 who did I meet about the migration?", "days": ["2025-06-12"]}
Every question is asked in every mode; one table shows per mode hit@1, hit@5,
hit@10 (the share of questions answered within the first 1, 5, 10 results),
MRR (the mean of 1/rank of the first answer) and the latency p50 and p99.
Only results of level day, entry or line count as answers; a month or year
that holds a gold day does not. --now fixes the clock that temporal phrases
("last March", "yesterday") are read against, as RFC 3339 or YYYY-MM-DD
(noon in the configured time zone); it runs on the files without the daemon.

--dialogue PATH takes LoCoMo-format conversations instead (a .json file, or
a folder of them: session_N lists of messages with speaker, clean_text,
date_time and dia_id; qa with question, evidence and category). Each
conversation is imported into a new data dir of its own ("Speaker: text" at
each message's time), consolidated and indexed; then every question is put
to the default recall, its levels, the drill with each summary level
switched off, the flat modes and a flat BM25 over whole days computed in
the same run; --misses then lists the questions the default ranked worse
than the baseline. A hit at k is a gold day (the day of an evidence message)
among the first k distinct days of the results; the table gives hit@1/5/10
and MRR@10 over all questions and per category, and the latencies.
--spread DAYS moves each conversation's days DAYS apart first (the k-th
day of its messages goes to its first day plus k×DAYS, times of day and
order kept), so that a chat of three weeks spans months, as LoCoMo's do,
and the drill routes through months that differ; a question that names a
date then no longer finds it.

--dialogue PATH --context measures the context block instead: for every
question with evidence messages, the block "daybook context --budget B --
QUESTION" prints (the same code, in process) at 1,000, 2,000 and 4,000
tokens, and the text of the 5, 10 and 20 best entries of "recall --level
entry", computed in the same run. An evidence message counts as handed over
when the first 80 characters of its words (lower-cased letters and digits)
are in the block's words. The table gives per row the share of questions
with at least one evidence message in the block ("any") and with every one
("every"), over all questions and per category, and the mean tokens.
--context-misses FILE writes every block that holds none of its question's
evidence messages to FILE, one JSON object a line: conversation, budget,
question, category, evidence (the entries that hold the evidence messages:
id, day, line, text, and day_in_block, whether the block shows evidence of
that day) and block, for finding what the block placed instead.

--dialogue PATH --captured 0,20,100 measures what captured agent traffic
costs instead: for each rate, every conversation is built again with that
many captured turns a day added on each of its days (the generator's
work-journal prose, unrelated to the questions, as "User: …" and
"Assistant: …" in sessions tagged #claude-code, #session-… and #project-…,
as the hooks tag a capture), and 5 facts planted as the answers of short
captured sessions. A row per rate gives the default recall's hit@1 and
hit@5 (by day, as above) and the context's shares (any, every) at 1,000,
2,000 and 4,000 tokens, then the same for the planted facts' questions,
whose only answer is a captured turn.

--summaries PATH measures the summaries instead, on LoCoMo-format sets that
list each session's events (LoCoMo's event_summary, REALTALK's
events_session_N): each conversation is imported and consolidated as for
--dialogue (with the configured summarizer: Ollama's model when
ollama.enabled), and every day, month and year summary is compared with its
period's events (a session's events belong to the day it starts on):
ROUGE-1 recall, precision and F1 of its prose and decisions (stop words
out) beside the period's first words cut to the same length, and the share
of the events it still mentions (half of an event's content words, by stem,
speakers' names left out), and how many of its prose's sentences none of
its period's entries holds (invented: a summary may leave out, never
invent). The last line counts the names its People lists that are no
speaker; --misses lists them, and the invented sentences.

--updates FILE measures changed facts on the data dir: FILE holds one
question a line about a fact that changed, its current value, its old ones
and the entry that states the current value ("daybook gen --updates N"
writes DIR/updates.jsonl). For each it reports recall's rank of that entry
(hit@1, MRR) and, for the context block at 400 and 1,000 tokens, the share
that leads with the current value (the first line naming a value names it)
and the share that hands the change over ("ok": leads, or holds the current
value and marks every line with an old one superseded); over all questions
and those where a captured agent turn restated an old value. --misses lists
the questions missed.`,
		Run: runEval,
	}
}

func runEval(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("eval")
	limit := fs.Int("limit", 10, "results per question")
	modesFlag := fs.String("modes", strings.Join(eval.Modes(), ","), "the modes to compare, comma-separated")
	nowFlag := fs.String("now", "", `the time "now" for the question set (RFC 3339 or YYYY-MM-DD)`)
	misses := fs.Bool("misses", false, "list the questions each mode did not answer")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	dialogue := fs.String("dialogue", "", "LoCoMo-format conversations: a .json file or a folder of them")
	spread := fs.Int("spread", 0, "with --dialogue: move each conversation's days this many days apart")
	withContext := fs.Bool("context", false, "with --dialogue: measure the context block instead of recall")
	contextMisses := fs.String("context-misses", "", "with --context: write the blocks that hold none of their question's evidence to this file, as JSON lines")
	updates := fs.String("updates", "", "measure changed facts: a file of questions as daybook gen --updates writes")
	captured := fs.String("captured", "", "with --dialogue: add this many captured agent turns a day, each rate of a comma-separated list in turn (0,20,100)")
	summaries := fs.String("summaries", "", "measure summaries against the events of LoCoMo-format conversations: a .json file or a folder")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if *spread != 0 && *dialogue == "" {
		return cli.Usagef("eval: --spread goes with --dialogue")
	}
	if *captured != "" && *dialogue == "" {
		return cli.Usagef("eval: --captured goes with --dialogue")
	}
	if *withContext && *dialogue == "" {
		return cli.Usagef("eval: --context goes with --dialogue")
	}
	if *contextMisses != "" && !*withContext {
		return cli.Usagef("eval: --context-misses goes with --dialogue PATH --context")
	}
	if *summaries != "" {
		if err := cli.ExactArgs("eval --summaries", pos, 0, "no FILE.jsonl"); err != nil {
			return err
		}
		if *dialogue != "" {
			return cli.Usagef("eval: --dialogue and --summaries: one at a time")
		}
		return runSummaryEval(ctx, e, *summaries, *misses)
	}
	if *updates != "" {
		if err := cli.ExactArgs("eval --updates", pos, 0, "no FILE.jsonl"); err != nil {
			return err
		}
		if *dialogue != "" {
			return cli.Usagef("eval: --dialogue and --updates: one at a time")
		}
		return runUpdatesEval(ctx, e, *updates, *nowFlag, *misses, *asJSON)
	}
	if *dialogue != "" {
		if err := cli.ExactArgs("eval --dialogue", pos, 0, "no FILE.jsonl"); err != nil {
			return err
		}
		if *spread < 0 {
			return cli.Usagef("eval: --spread %d is negative", *spread)
		}
		if *captured != "" {
			if *withContext {
				return cli.Usagef("eval: --captured and --context: one at a time (--captured measures both)")
			}
			rates, err := parseRates(*captured)
			if err != nil {
				return cli.Usagef("eval: --captured %q: %v", *captured, err)
			}
			return runCapturedEval(ctx, e, *dialogue, rates)
		}
		if *withContext {
			return runContextEval(ctx, e, *dialogue, *spread, *contextMisses)
		}
		return runDialogueEval(ctx, e, *dialogue, *limit, *spread, *misses)
	}
	if err := cli.ExactArgs("eval", pos, 1, "a FILE.jsonl"); err != nil {
		return err
	}
	if *limit <= 0 {
		return cli.Usagef("eval: --limit %d: want a positive number", *limit)
	}
	modes, err := eval.ParseModes(*modesFlag)
	if err != nil {
		return cli.Usagef("eval: --modes: %v", err)
	}
	return runQuestionEval(ctx, e, pos[0], *nowFlag, modes, *limit, *misses, *asJSON)
}

// runQuestionEval measures recall on the question set at path in each
// mode and prints the report; a mode that failed fails the command.
func runQuestionEval(ctx context.Context, e *cli.Env, path, now string, modes []string, limit int, misses, asJSON bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening question file: %w", err)
	}
	defer f.Close()
	qs, err := eval.ReadQuestions(f, path)
	if err != nil {
		return err
	}
	rc, err := evalBackend(ctx, e, now)
	if err != nil {
		return err
	}
	rep, err := eval.Run(ctx, rc, qs, modes, limit)
	if err != nil {
		return err
	}
	if asJSON {
		if err := e.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		if err := rep.WriteTable(e.Stdout); err != nil {
			return err
		}
		if misses {
			for _, m := range rep.Modes {
				for _, x := range m.Misses {
					fmt.Fprintf(e.Stdout, "%s missed %s:%d: %s (top: %s)\n", m.Mode, path, x.Line, x.Q, orNone(x.Top))
				}
			}
		}
	}
	var failed []string
	for _, m := range rep.Modes {
		if m.Err != "" {
			failed = append(failed, m.Mode)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("eval: mode %s failed", strings.Join(failed, ", "))
	}
	return nil
}

// evalBackend is the daemon or the local App; with --now (nowFlag), the
// App, its clock reading that time.
func evalBackend(ctx context.Context, e *cli.Env, nowFlag string) (daybook.Service, error) {
	if nowFlag == "" {
		return e.Backend(ctx)
	}
	if err := e.Load(); err != nil {
		return nil, err
	}
	// The App's clock reads the time --now names, parsed in the App's
	// zone before anything asks the clock.
	var now time.Time
	a := newLocalApp(e, app.Options{Now: func() time.Time { return now }})
	e.SetLocal(a) // closed with e
	var err error
	if now, err = parseNow(nowFlag, a.Loc()); err != nil {
		return nil, cli.Usagef("eval: --now: %v", err)
	}
	return a, nil
}

func runUpdatesEval(ctx context.Context, e *cli.Env, path, nowFlag string, misses, asJSON bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening the updates file: %w", err)
	}
	defer f.Close()
	qs, err := eval.ReadUpdates(f, path)
	if err != nil {
		return err
	}
	b, err := evalBackend(ctx, e, nowFlag)
	if err != nil {
		return err
	}
	if err := e.Load(); err != nil {
		return err
	}
	rep, err := eval.Updates(ctx, b, e.AbsDir, qs, eval.UpdateBudgets)
	if err != nil {
		return fmt.Errorf("eval --updates: %w", err)
	}
	if asJSON {
		return e.PrintJSON(rep)
	}
	if err := rep.WriteTable(e.Stdout); err != nil {
		return err
	}
	if misses {
		rep.WriteMisses(e.Stdout, path)
	}
	return nil
}

// parseNow reads --now: a day (noon of it in loc) or a time date.ParseTime takes.
func parseNow(s string, loc *time.Location) (time.Time, error) {
	if d, err := date.Parse(s); err == nil {
		return d.At(12, 0, loc), nil
	}
	return date.ParseTime(s, time.Now(), loc)
}

func orNone(s string) string {
	if s == "" {
		return "no results"
	}
	return s
}

func runDialogueEval(ctx context.Context, e *cli.Env, path string, limit, spread int, misses bool) error {
	files, err := eval.ConversationFiles(path)
	if err != nil {
		return fmt.Errorf("eval --dialogue: %w", err)
	}
	tmp, err := os.MkdirTemp("", "daybook-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	t, err := eval.Dialogue(ctx, files, tmp, limit, spread, func(name string, n int) {
		fmt.Fprintf(e.Stderr, "%s: %d questions\n", name, n)
	})
	if err != nil {
		return err
	}
	if err := t.WriteTable(e.Stdout, eval.DialogueCategories); err != nil {
		return err
	}
	if misses {
		// Where the default did worse than the flat baseline.
		for _, l := range t.Worse(t.Names[0], t.Names[len(t.Names)-1]) {
			fmt.Fprintln(e.Stdout, l)
		}
	}
	return nil
}

func runContextEval(ctx context.Context, e *cli.Env, path string, spread int, missesPath string) error {
	files, err := eval.ConversationFiles(path)
	if err != nil {
		return fmt.Errorf("eval --dialogue --context: %w", err)
	}
	var misses func(eval.ContextMiss) error
	var out *os.File
	var w *bufio.Writer
	if missesPath != "" {
		if out, err = os.Create(missesPath); err != nil {
			return fmt.Errorf("eval --context-misses: %w", err)
		}
		defer out.Close() // closed below; again on an early return
		w = bufio.NewWriter(out)
		enc := json.NewEncoder(w)
		misses = func(m eval.ContextMiss) error {
			if err := enc.Encode(m); err != nil {
				return fmt.Errorf("writing %s: %w", missesPath, err)
			}
			return nil
		}
	}
	tmp, err := os.MkdirTemp("", "daybook-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	t, err := eval.DialogueContext(ctx, files, tmp, spread, eval.ContextBudgets, eval.ContextTopK, misses, func(name string, n int) {
		fmt.Fprintf(e.Stderr, "%s: %d questions\n", name, n)
	})
	if err != nil {
		return err
	}
	if out != nil {
		if err := w.Flush(); err != nil {
			return fmt.Errorf("writing %s: %w", missesPath, err)
		}
		if err := out.Close(); err != nil {
			return fmt.Errorf("writing %s: %w", missesPath, err)
		}
	}
	return t.WriteTable(e.Stdout, eval.DialogueCategories)
}

func runSummaryEval(ctx context.Context, e *cli.Env, path string, misses bool) error {
	files, err := eval.ConversationFiles(path)
	if err != nil {
		return fmt.Errorf("eval --summaries: %w", err)
	}
	if err := e.Load(); err != nil {
		return err
	}
	cfg := config.Default()
	cfg.Ollama = e.Cfg.Ollama // the summarizer the user has; nothing else of theirs
	tmp, err := os.MkdirTemp("", "daybook-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rep, err := eval.Summaries(ctx, files, tmp, eval.SummaryOptions{Config: &cfg}, func(name string, days int) {
		fmt.Fprintf(e.Stderr, "%s: %d days with events\n", name, days)
	})
	if err != nil {
		return err
	}
	if err := rep.WriteTable(e.Stdout); err != nil {
		return err
	}
	if misses {
		rep.WriteNotSpeakers(e.Stdout)
		rep.WriteInvented(e.Stdout)
	}
	return nil
}

// parseRates reads --captured: turns a day, comma-separated, each 0 to
// 10,000.
func parseRates(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n > 10000 {
			return nil, fmt.Errorf("%q is not a number of turns a day (0 to 10000)", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func runCapturedEval(ctx context.Context, e *cli.Env, path string, rates []int) error {
	files, err := eval.ConversationFiles(path)
	if err != nil {
		return fmt.Errorf("eval --dialogue --captured: %w", err)
	}
	tmp, err := os.MkdirTemp("", "daybook-eval-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	res, err := eval.CapturedEval(ctx, files, tmp, rates, eval.ContextBudgets, func(name string, n int) {
		fmt.Fprintf(e.Stderr, "%s: %d questions\n", name, n)
	})
	if err != nil {
		return err
	}
	return eval.WriteCapturedTable(e.Stdout, res, eval.ContextBudgets)
}
