package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/importer"
	"github.com/daybook/daybook/internal/cli"
	"github.com/daybook/daybook/internal/util/progress"
	"github.com/daybook/daybook/internal/util/words"
)

func cmdImport() cli.Command {
	return cli.Command{
		Name: "import", Args: "[--from FORMAT] PATH|- [--dry-run] [--strict]",
		Summary: "bulk-load entries from JSON lines, or from journals and chat exports",
		Help: `--from says what PATH is (default jsonl):
  jsonl     daybook's own JSON lines, a FILE or - for standard input
  obsidian  a vault: its daily notes (.obsidian/daily-notes.json's folder and
            date format, else YYYY-MM-DD.md; --pattern for another, in
            Obsidian's tokens: DD-MM-YYYY), one entry per item, under its
            headings; the other notes are counted, not imported
  logseq    a Logseq graph folder, or its journals/ (2024_03_01.md; --pattern
            for another :journal/file-name-format, as written: yyyy-MM-dd)
  jrnl      a jrnl journal file ([2012-03-29 09:00] Title...), or its JSON export
  dayone    a Day One JSON export: its .zip, the unzipped folder, or a journal's .json
  chatgpt   a ChatGPT data export: its .zip, the unzipped folder, or conversations.json
  locomo    a LoCoMo-format conversation file (LoCoMo, REALTALK)
docs/import.md tells, per format, what is kept and dropped and how times are
taken. Each JSON line is {"at": "2023-05-08T13:56:00", "text": "...", "kind":
"...", "tags": [...]}; "at" is local time in the configured zone, or RFC 3339
with an offset.

The source is only read. An entry its day file already has (the same instant,
to the minute, and the same text) is not written again: importing a source
twice adds nothing the second time. Bad input (a line, a journal whose name is
not a date, an entry with no time) is reported by file and line or index and
skipped; with --strict any bad input stops the import before anything is
written. --dry-run says what would be added and writes nothing. Dates before
1900 or after the day after tomorrow are refused unless --any-date is given.
With a daemon running, the import goes through it.`,
		Run: runImport,
	}
}

// importOpts are the flags of one import.
type importOpts struct {
	from, pattern          string
	strict, dryRun, asJSON bool
	anyDate                bool
	notDaily               int // the notes of a vault that are not daily notes: counted, not imported
}

func runImport(ctx context.Context, e *cli.Env, args []string) error {
	fs := e.NewFlags("import")
	var o importOpts
	fs.StringVar(&o.from, "from", "jsonl", "what PATH is: jsonl, "+strings.Join(importer.Names(), ", "))
	fs.StringVar(&o.pattern, "pattern", "", "daily notes: the file name's date format, as the app spells it (obsidian YYYY-MM-DD, logseq yyyy_MM_dd)")
	fs.BoolVar(&o.strict, "strict", false, "stop at the first bad input, before anything is written")
	fs.BoolVar(&o.dryRun, "dry-run", false, "say what would be imported, and write nothing")
	fs.BoolVar(&o.anyDate, "any-date", false, "take entries dated before 1900 or in the future (old journals)")
	fs.BoolVar(&o.asJSON, "json", false, "print the result as JSON")
	pos, err := e.Parse(fs, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("import", pos, 1, "one FILE, or - for standard input"); err != nil {
		return err
	}
	if o.pattern != "" && o.from != "obsidian" && o.from != "logseq" {
		return cli.Usagef("import: --pattern names daily notes' file names: it goes with --from obsidian or logseq")
	}
	if o.from == "jsonl" || o.from == "" {
		if pos[0] != "-" {
			if got := importer.Sniff(pos[0]); got != "" && got != "jsonl" {
				return cli.Usagef("import: %s is not JSON lines (--from jsonl, the default): %s", pos[0], tryFrom(got))
			}
		}
		return importJSONLines(ctx, e, pos[0], o)
	}
	f, err := importer.Lookup(o.from)
	if err != nil {
		return cli.Usagef("import: --from: %v", err)
	}
	if pos[0] == "-" {
		return cli.Usagef("import: --from %s reads a file or folder, not standard input", o.from)
	}
	res, err := f.Read(pos[0], importer.Options{Pattern: o.pattern})
	if err != nil || len(res.Entries) == 0 {
		// Nothing read: a wrong --from, if the input looks like another format.
		if got := importer.Sniff(pos[0]); got != "" && got != o.from {
			what := "no entries read"
			if err != nil {
				what = err.Error()
			}
			return cli.Usagef("import: --from %s: %s; %s", o.from, what, tryFrom(got))
		}
	}
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	res = importer.SplitLong(res, dayfiles.MaxEntryText)
	if err := e.Load(); err != nil {
		return err
	}
	res = inDateWindow(res, o.anyDate, e.Cfg.Window(), time.Now(), e.Cfg.Location())
	if o.strict && len(res.Skipped) > 0 {
		return fmt.Errorf("import: --strict: %s; nothing imported", res.Skipped[0])
	}
	lines, froms := importLines(res.Entries)
	o.notDaily = res.NotDaily
	return runImportLines(ctx, e, bytes.NewReader(lines), len(res.Entries), froms, res.Skipped, o)
}

// formatNouns name what each --from reads, for hints.
var formatNouns = map[string]string{
	"jsonl": "daybook's JSON lines", "obsidian": "an Obsidian vault", "logseq": "a Logseq graph",
	"jrnl": "a jrnl journal", "dayone": "a Day One export", "chatgpt": "a ChatGPT export", "locomo": "a LoCoMo file",
}

// tryFrom is the hint for an input that looks like format: "this looks
// like a ChatGPT export: try --from chatgpt", and the values --from takes.
func tryFrom(format string) string {
	return fmt.Sprintf("this looks like %s: try --from %s (--from takes jsonl, %s)",
		formatNouns[format], format, strings.Join(importer.Names(), ", "))
}

// importJSONLines imports daybook's own JSON lines from path or stdin.
func importJSONLines(ctx context.Context, e *cli.Env, path string, o importOpts) error {
	var r io.Reader = e.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		r = f
	}
	return runImportLines(ctx, e, r, 0, func(n int) string { return fmt.Sprintf("%s:%d", path, n) }, nil, o)
}

// importLines encodes entries as JSON lines of daybook.ImportLine, and returns
// where each line came from.
func importLines(entries []importer.Entry) ([]byte, func(int) string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, en := range entries {
		enc.Encode(daybook.ImportLine{At: en.AtString(), Text: en.Text, Kind: en.Kind, Tags: en.Tags})
	}
	return buf.Bytes(), func(n int) string {
		if n >= 1 && n <= len(entries) {
			return entries[n-1].From
		}
		return fmt.Sprintf("entry %d", n)
	}
}

// inDateWindow moves the entries dated outside w, the window daybook
// takes (the config's dates.*), into the skipped ones; --any-date keeps
// them all.
func inDateWindow(res importer.Result, anyDate bool, w date.Window, now time.Time, loc *time.Location) importer.Result {
	if anyDate {
		return res
	}
	today := date.Of(now.In(loc))
	kept := res.Entries[:0]
	for _, en := range res.Entries {
		d := date.Of(en.At) // a local wall clock is its own day
		if !en.Local {
			d = date.Of(en.At.In(loc))
		}
		if err := w.Check(d, today); err != nil {
			res.Skipped = append(res.Skipped, importer.Skip{From: en.From, Why: importer.WhyOutside,
				Reason: strings.TrimPrefix(err.Error(), date.ErrOutsideWindow.Error()+": ") + " (--any-date takes it)"})
			continue
		}
		kept = append(kept, en)
	}
	res.Entries = kept
	return res
}

// importResult is what an import prints with --json.
type importResult struct {
	DryRun bool   `json:"dry_run,omitempty"`
	Added  int    `json:"added"`
	There  int    `json:"already_there"`
	Days   int    `json:"days"`
	First  string `json:"first,omitempty"`
	Last   string `json:"last,omitempty"`
	// NotDaily counts the notes of a vault that are not daily notes: left
	// out, and not bad input.
	NotDaily int          `json:"not_daily_notes,omitempty"`
	Skipped  []importSkip `json:"skipped,omitempty"`
}

type importSkip struct {
	From   string `json:"from"`
	Why    string `json:"why"`
	Reason string `json:"reason"`
}

// rejected is a line the App refused, as a skipped part of the source.
func rejected(from string, r daybook.ImportError) importSkip {
	why := importer.WhyRefused
	switch {
	case strings.Contains(r.Error, "outside"):
		why = importer.WhyOutside
	case strings.Contains(r.Error, "over the limit"):
		why = importer.WhyTooLong
	case strings.HasPrefix(r.Error, "bad JSON"), strings.HasPrefix(r.Error, "missing"):
		why = importer.WhyMalformed
	case strings.Contains(r.Error, "time"):
		why = importer.WhyBadTime
	}
	return importSkip{From: from, Why: why, Reason: r.Error}
}

// runImportLines writes JSON lines through the backend (or plans them with
// --dry-run) and reports: the skipped parts by where they came from, then
// one summary sentence. total is the number of lines, for the progress
// bar; 0 when not known.
func runImportLines(ctx context.Context, e *cli.Env, lines io.Reader, total int, from func(int) string, skipped []importer.Skip, o importOpts) error {
	out := importResult{DryRun: o.dryRun, NotDaily: o.notDaily}
	for _, s := range skipped {
		out.Skipped = append(out.Skipped, importSkip{From: s.From, Why: s.Why, Reason: s.Reason})
	}
	var importErr error
	if o.dryRun {
		a, err := local(e)
		if err != nil {
			return err
		}
		plan, err := a.PlanImport(ctx, lines, daybook.ImportOptions{AnyDate: o.anyDate})
		if err != nil {
			return err
		}
		out.Added, out.There, out.Days = plan.Added, plan.Skipped, plan.Days
		if !plan.First.IsZero() {
			out.First, out.Last = plan.First.String(), plan.Last.String()
		}
		for _, r := range plan.Rejected {
			out.Skipped = append(out.Skipped, rejected(from(r.Line), r))
		}
	} else {
		b, err := e.Backend(ctx)
		if err != nil {
			return err
		}
		r, done := importProgress(e, lines, total, o.asJSON)
		resp, err := b.Import(ctx, r, daybook.ImportOptions{Strict: o.strict, AnyDate: o.anyDate})
		done()
		for _, r := range resp.Rejected {
			out.Skipped = append(out.Skipped, rejected(from(r.Line), r))
		}
		out.Added, out.There, out.Days = resp.Added, resp.Skipped, resp.Days
		importErr = flagNamed(err, "strict")
	}
	if o.asJSON && importErr == nil {
		return e.PrintJSON(out)
	}
	printSkipped(e.Stderr, out.Skipped)
	if importErr != nil {
		return importErr
	}
	fmt.Fprintln(e.Stdout, importSummary(out))
	if n := len(out.Skipped); n > 0 && !o.dryRun {
		// What was good is imported; a script still learns that some was not.
		return fmt.Errorf("import: %s of the input skipped (listed above)", words.Count(n, "part"))
	}
	return nil
}

// maxSkipLines is how many skipped parts are listed before the rest are counted.
const maxSkipLines = 50

func printSkipped(w io.Writer, skipped []importSkip) {
	for i, s := range skipped {
		if i == maxSkipLines {
			fmt.Fprintf(w, "... and %d more (--json lists them all)\n", len(skipped)-i)
			break
		}
		fmt.Fprintf(w, "%s: %s\n", s.From, s.Reason)
	}
}

// importSummary is the one sentence an import ends with.
func importSummary(r importResult) string {
	var b strings.Builder
	if r.DryRun {
		fmt.Fprintf(&b, "would import %s into %s", words.Count(r.Added, "entry"), words.Count(r.Days, "day"))
		if r.First != "" {
			if r.First == r.Last {
				fmt.Fprintf(&b, " (%s)", r.First)
			} else {
				fmt.Fprintf(&b, " (%s to %s)", r.First, r.Last)
			}
		}
	} else {
		fmt.Fprintf(&b, "imported %s into %s", words.Count(r.Added, "entry"), words.Count(r.Days, "day"))
	}
	if r.There > 0 {
		fmt.Fprintf(&b, "; %s there already", wasWere(r.There))
	}
	if n := r.NotDaily; n > 0 {
		fmt.Fprintf(&b, "; left out %s", words.CountAs(n, "note that is not a daily note", "notes that are not daily notes"))
	}
	if n := len(r.Skipped); n > 0 {
		fmt.Fprintf(&b, "; %s skipped (%s; listed above)", wasWere(n), skipReasons(r.Skipped))
	}
	return b.String()
}

// skipReasons counts the skipped parts by kind, most first: "2 with no
// time, 1 not named by a date".
func skipReasons(skipped []importSkip) string {
	n := map[string]int{}
	var whys []string
	for _, s := range skipped {
		if n[s.Why]++; n[s.Why] == 1 {
			whys = append(whys, s.Why)
		}
	}
	slices.SortStableFunc(whys, func(a, b string) int { return n[b] - n[a] })
	parts := make([]string, len(whys))
	for i, w := range whys {
		parts[i] = fmt.Sprintf("%d %s", n[w], w)
	}
	return strings.Join(parts, ", ")
}

func wasWere(n int) string {
	if n == 1 {
		return "1 was"
	}
	return fmt.Sprintf("%d were", n)
}

// importProgress returns r, the n lines of an import, as a reader that moves
// a progress bar on a terminal as the import takes them in, and a func that
// ends the bar. Imports of fewer than 1,000 lines show none.
func importProgress(e *cli.Env, r io.Reader, n int, quiet bool) (io.Reader, func()) {
	if quiet || n < 1000 || !isTerminal(e.Stderr) {
		return r, func() {}
	}
	bar := progress.Bar(e.Stderr, "importing", n)
	return &lineCounter{r: r, bar: bar}, func() { bar.Finish() }
}

// lineCounter counts the newlines read through it onto a progress bar.
type lineCounter struct {
	r   io.Reader
	bar *progressbar.ProgressBar
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.bar.Add(bytes.Count(p[:n], []byte{'\n'}))
	return n, err
}
