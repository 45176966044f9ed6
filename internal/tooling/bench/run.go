package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config/configfile"
	"github.com/daybook/daybook/internal/tooling/gen"
	"github.com/daybook/daybook/internal/util/logkey"
)

// Options say what to measure.
type Options struct {
	Years []int  // corpus sizes, e.g. 1, 5 and 20
	Seed  uint64 // gen seed; with Years it keys the cache
	Cache string // where corpora are kept between runs
	Exe   string // the daybook binary the children run
	Quick bool   // fewer repetitions: checks that everything runs, figures are rough
	Keep  bool   // leave the work dirs (summaries, index) for a look afterwards

	Command string           // the command line, for the report
	Now     func() time.Time // picks the corpus end; time.Now by default
	Log     *slog.Logger     // progress lines
}

// counts are how many times each thing is measured.
type counts struct{ inProcess, socket, cli, scan int }

func (o Options) counts() counts {
	if o.Quick {
		return counts{inProcess: 20, socket: 20, cli: 5, scan: 3}
	}
	return counts{inProcess: 300, socket: 300, cli: 60, scan: 21}
}

// Run measures each size in turn and returns the report. A size that fails
// ends the run with the error; the report holds the sizes done before.
func Run(ctx context.Context, o Options) (Report, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	o.Log = o.Log.With(logkey.System, "bench")
	if o.Seed == 0 {
		o.Seed = 1
	}
	rep := Report{Command: o.Command, Started: o.Now().UTC().Round(time.Second), Machine: machine()}
	if len(o.Years) == 0 {
		return rep, errors.New("no corpus sizes to measure")
	}
	for _, y := range o.Years {
		if y < 1 || y > gen.MaxYears {
			return rep, fmt.Errorf("years %d: want 1 to %d", y, gen.MaxYears)
		}
	}
	if o.Exe == "" {
		return rep, errors.New("no daybook binary to run")
	}
	t0 := time.Now()
	end := corpusEnd(date.Of(o.Now().UTC()))
	for _, y := range o.Years {
		run, notes, err := o.measure(ctx, y, end)
		rep.Notes = append(rep.Notes, notes...)
		if err != nil {
			rep.Seconds = time.Since(t0).Seconds()
			return rep, fmt.Errorf("measuring %d years: %w", y, err)
		}
		rep.Sizes = append(rep.Sizes, run)
	}
	rep.Seconds = time.Since(t0).Seconds()
	return rep, nil
}

// measure does every measurement on a fresh copy of the corpus of years.
func (o Options) measure(ctx context.Context, years int, end date.Date) (Size, []string, error) {
	t0 := time.Now()
	run := Size{Years: years, Seed: o.Seed}
	src, queries, pattern, err := o.corpus(years, end, &run)
	if err != nil {
		return run, nil, err
	}
	w, notes, cleanup, err := o.prepare(years, src)
	defer cleanup()
	if err != nil {
		return run, nil, err
	}
	n := o.counts()

	more, err := o.build(ctx, w, years, &run)
	notes = append(notes, more...)
	if err != nil {
		return run, notes, err
	}

	// Recall in this process, on the index the child built.
	if run.RecallInProcess, err = recallInProcess(ctx, w, queries, n.inProcess); err != nil {
		return run, notes, err
	}
	o.Log.Info("recalled in process", "years", years, "p50_ms", run.RecallInProcess.P50)

	// Recall through a daemon: its socket, then the CLI.
	if err := o.throughDaemon(ctx, w, queries, n, &run); err != nil {
		return run, notes, err
	}

	// The linear scan, with no daemon up: the CLI reads the files itself.
	more, err = measureScan(ctx, w, pattern, n.scan, &run)
	notes = append(notes, more...)
	if err != nil {
		return run, notes, err
	}
	run.Seconds = time.Since(t0).Seconds()
	return run, notes, nil
}

// corpus readies the generated corpus of years ending at end (kept in the
// cache between runs) and records its size in run; it returns its dir, the
// questions of its planted facts (the recall queries) and the pattern the
// scan looks for.
func (o Options) corpus(years int, end date.Date, run *Size) (src string, queries []string, pattern string, err error) {
	t0 := time.Now()
	src, st, reused, err := cachedCorpus(o.Cache, years, o.Seed, end)
	if err != nil {
		return "", nil, "", err
	}
	run.Days, run.Entries, run.Lines, run.Bytes, run.Reused = st.Days, st.Entries, st.Lines, st.Bytes, reused
	o.Log.Info("corpus ready", "years", years, "days", st.Days, "reused", reused, "took", time.Since(t0).Round(time.Millisecond))
	facts, err := gen.ReadFacts(filepath.Join(src, gen.FactsFile))
	if err != nil {
		return "", nil, "", err
	}
	if len(facts) == 0 {
		return "", nil, "", errNoFacts
	}
	queries = make([]string, len(facts))
	for i, f := range facts {
		queries[i] = f.Q
	}
	return src, queries, scanPattern(facts), nil
}

// prepare makes the work dir of a measurement: a copy of the corpus at src
// with a config of its own and a short socket path (Unix socket paths are
// limited to about 100 bytes). cleanup removes what it made, but for a
// work dir kept (Keep), which notes say; call it on an error too.
func (o Options) prepare(years int, src string) (w workDir, notes []string, cleanup func(), err error) {
	var made []string
	cleanup = func() {
		for _, p := range slices.Backward(made) {
			os.RemoveAll(p)
		}
	}
	dir, err := os.MkdirTemp(o.Cache, fmt.Sprintf("work-y%d-*", years))
	if err != nil {
		return w, nil, cleanup, fmt.Errorf("creating work dir: %w", err)
	}
	if o.Keep {
		notes = append(notes, fmt.Sprintf("%d years: the work dir is kept at %s", years, dir))
	} else {
		made = append(made, dir)
	}
	sockDir, err := os.MkdirTemp("", "dbb-")
	if err != nil {
		return w, nil, cleanup, fmt.Errorf("creating socket dir: %w", err)
	}
	made = append(made, sockDir)
	w = workDir{exe: o.Exe, dir: filepath.Join(dir, "data"), config: filepath.Join(dir, "config.yaml"), socket: filepath.Join(sockDir, "d.sock")}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return w, nil, cleanup, fmt.Errorf("creating work dir: %w", err)
	}
	if err := cloneDays(src, w.dir); err != nil {
		return w, nil, cleanup, fmt.Errorf("copying the corpus: %w", err)
	}
	if err := writeConfig(w.config, w.socket); err != nil {
		return w, nil, cleanup, err
	}
	return w, notes, cleanup, nil
}

// build times, in children on w, the backfill, the rerun of consolidate
// with nothing to do (a note says when it wrote anything) and the index
// build, and records the index's size.
func (o Options) build(ctx context.Context, w workDir, years int, run *Size) (notes []string, err error) {
	if _, run.Backfill, err = w.run(ctx, "consolidate", "--json"); err != nil {
		return notes, err
	}
	o.Log.Info("backfilled", "years", years, "seconds", run.Backfill.Seconds)
	out, p, err := w.run(ctx, "consolidate", "--json")
	if err != nil {
		return notes, err
	}
	var cr daybook.ConsolidateResponse
	if err := json.Unmarshal(out, &cr); err != nil {
		return notes, fmt.Errorf("reading daybook consolidate --json: %w", err)
	}
	if w := cr.Written; w.Days+w.Months+w.Years > 0 {
		notes = append(notes, fmt.Sprintf("%d years: the second consolidation wrote %d summaries; it should write none", years, w.Days+w.Months+w.Years))
	}
	run.NoChange, run.NoChangeMS = p, float64(cr.DurationMS)
	out, run.Reindex, err = w.run(ctx, "reindex", "--json")
	if err != nil {
		return notes, err
	}
	var rr daybook.ReindexResponse
	if err := json.Unmarshal(out, &rr); err != nil {
		return notes, fmt.Errorf("reading daybook reindex --json: %w", err)
	}
	run.IndexDocs, run.IndexBytes = rr.Documents, dirSize(filepath.Join(w.dir, app.IndexDir))
	run.BuildSeconds = run.Backfill.Seconds + run.Reindex.Seconds
	o.Log.Info("indexed", "years", years, "seconds", run.Reindex.Seconds)
	return notes, nil
}

// recallInProcess opens the work dir's App here and times its Recall; the
// first recall (which opens the index) is not counted.
func recallInProcess(ctx context.Context, w workDir, queries []string, n int) (Latency, error) {
	cfg, err := configfile.Load(w.config, true)
	if err != nil {
		return Latency{}, err
	}
	a := app.New(w.dir, cfg, nil)
	defer a.Close()
	call := func(ctx context.Context, q string) error {
		_, err := a.Recall(ctx, daybook.RecallRequest{Query: q})
		return err
	}
	if err := call(ctx, queries[0]); err != nil {
		return Latency{}, fmt.Errorf("recalling in process: %w", err)
	}
	ds, err := repeat(ctx, queries, n, call)
	if err != nil {
		return Latency{}, fmt.Errorf("recalling in process: %w", err)
	}
	return summarise(ds), nil
}

// restAfterRecalls is how long the daemon rests before its RSS is read
// after the recalls: a little more than its trim interval.
const restAfterRecalls = 35 * time.Second

// throughDaemon starts a daemon on the work dir, reads its RSS once idle,
// and times recall through its socket and through the CLI.
func (o Options) throughDaemon(ctx context.Context, w workDir, queries []string, n counts, run *Size) (err error) {
	d, err := startDaemon(ctx, w, 10*time.Minute)
	if err != nil {
		return err
	}
	defer func() {
		if serr := d.stop(); err == nil {
			err = serr
		}
	}()
	viaSocket := func(ctx context.Context, q string) error {
		_, err := d.client.Recall(ctx, daybook.RecallRequest{Query: q})
		return err
	}
	if err := viaSocket(ctx, queries[0]); err != nil { // opens the daemon's index
		return fmt.Errorf("recalling through the socket: %w", err)
	}
	select {
	case <-time.After(3 * time.Second): // settle: the GC returns what the opening used
	case <-ctx.Done():
		return ctx.Err()
	}
	run.DaemonIdleRSS, _ = d.memory()
	ds, err := repeat(ctx, queries, n.socket, viaSocket)
	if err != nil {
		return fmt.Errorf("recalling through the socket: %w", err)
	}
	run.RecallSocket = summarise(ds)
	// At rest after the recalls: the daemon gives memory back within its
	// trim interval (daemon.trimEvery, 30 s).
	select {
	case <-time.After(restAfterRecalls):
	case <-ctx.Done():
		return ctx.Err()
	}
	run.DaemonRecalledRSS, _ = d.memory()
	// Each recall through the CLI in turn with a "daybook --version", so that
	// the start it is compared with is timed on the same machine at the
	// same moment.
	var starts []time.Duration
	ds = nil
	for i := range n.cli {
		for _, c := range []struct {
			args []string
			to   *[]time.Duration
		}{{[]string{"--version"}, &starts}, {[]string{"recall", "--json", queries[i%len(queries)]}, &ds}} {
			_, p, err := runCmd(w.command(ctx, c.args...), false)
			if err != nil {
				return fmt.Errorf("recalling through the CLI: %w", err)
			}
			*c.to = append(*c.to, time.Duration(p.Seconds*float64(time.Second)))
		}
	}
	run.RecallCLI, run.StartDaemonUp = summarise(ds), summarise(starts)
	run.RecallCLILessStart = run.RecallCLI.P50 - run.StartDaemonUp.P50
	_, run.DaemonPeakRSS = d.memory()
	o.Log.Info("recalled through the daemon", "years", run.Years, "socket_p50_ms", run.RecallSocket.P50, "cli_p50_ms", run.RecallCLI.P50)
	return nil
}
