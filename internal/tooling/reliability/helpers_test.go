package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/api"
)

var long = flag.Bool("long", false, "run the long versions: 100 kills per operation, a 10-minute soak")

// binDir holds the daybook binary, built once on first use.
var (
	binDir    string
	buildOnce sync.Once
	buildErr  error
)

func TestMain(m *testing.M) {
	if path := os.Getenv("DAYBOOK_RELIABILITY_DIAL"); path != "" {
		os.Exit(dialProbe(path)) // a copy of this binary, run as another uid
	}
	flag.Parse()
	dir, err := os.MkdirTemp("", "daybook-reliability-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Other uids run the binary in the security and disk tests.
	os.Chmod(dir, 0o755)
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// daybookBin returns the path of the daybook binary, building it once.
func daybookBin(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the daybook binary as a child process: the full suite (go test ./...) runs it, -short does not")
	}
	if b := os.Getenv("DAYBOOK_TEST_BIN"); b != "" {
		return b // a binary built beforehand, e.g. while a package is mid-edit
	}
	bin := filepath.Join(binDir, "daybook")
	buildOnce.Do(func() {
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), // the front and daybook-core beside it
			"github.com/daybook/daybook/cmd/daybook", "github.com/daybook/daybook/cmd/daybook-core")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building daybook: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

// runs returns n for the short run and long for -long.
func runs(short, long_ int) int {
	if *long {
		return long_
	}
	return short
}

// rig is a data dir, a runtime dir for the socket and a config dir, and the
// environment that points the daybook binary at them.
type rig struct {
	t       testing.TB
	bin     string
	dir     string // the data dir
	runDir  string // $XDG_RUNTIME_DIR
	cfgPath string
	env     []string
}

// newRig returns a rig with config (YAML; "" for the defaults) in place.
func newRig(t testing.TB, config string) *rig {
	t.Helper()
	base := t.TempDir()
	// A short runtime dir: a socket path must fit in 108 bytes.
	run, err := os.MkdirTemp("", "dbr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	r := &rig{t: t, bin: daybookBin(t), dir: filepath.Join(base, "data"), runDir: run,
		cfgPath: filepath.Join(base, "config", "daybook", "config.yaml")}
	if err := os.MkdirAll(r.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		r.writeConfig(config)
	}
	r.env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + base,
		"TZ=UTC",
		"DAYBOOK_DIR=" + r.dir,
		"XDG_RUNTIME_DIR=" + run,
		"XDG_CONFIG_HOME=" + filepath.Join(base, "config"),
	}
	return r
}

func (r *rig) writeConfig(config string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Dir(r.cfgPath), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(r.cfgPath, []byte(config), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) socket() string { return filepath.Join(r.runDir, "daybook", "daybook.sock") }

// cmd returns an unstarted daybook command in the rig's environment.
func (r *rig) cmd(args ...string) *exec.Cmd {
	c := exec.Command(r.bin, args...)
	c.Env = r.env
	c.Dir = r.dir
	return c
}

// daybook runs daybook to the end and returns its stdout; a failure is an
// error holding stderr.
func (r *rig) daybook(args ...string) (string, error) {
	c := r.cmd(args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		return out.String(), fmt.Errorf("daybook %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// must runs daybook and fails the test if it fails.
func (r *rig) must(args ...string) string {
	r.t.Helper()
	out, err := r.daybook(args...)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

// proc is a running daybook daemon.
type proc struct {
	r    *rig
	cmd  *exec.Cmd
	log  string // its stderr
	done chan struct{}
	err  error
}

// startDaemon starts "daybook daemon" and waits until its socket answers.
func (r *rig) startDaemon() *proc {
	r.t.Helper()
	p := r.spawnDaemon()
	p.waitReady(60 * time.Second)
	return p
}

// spawnDaemon starts "daybook daemon" without waiting.
func (r *rig) spawnDaemon() *proc {
	r.t.Helper()
	log, err := os.CreateTemp(filepath.Dir(r.dir), "daemon-*.log")
	if err != nil {
		r.t.Fatal(err)
	}
	c := r.cmd("daemon")
	c.Stdout, c.Stderr = log, log
	if err := c.Start(); err != nil {
		r.t.Fatal(err)
	}
	p := &proc{r: r, cmd: c, log: log.Name(), done: make(chan struct{})}
	go func() { p.err = c.Wait(); log.Close(); close(p.done) }()
	r.t.Cleanup(p.kill)
	return p
}

func (p *proc) pid() int { return p.cmd.Process.Pid }

func (p *proc) waitReady(limit time.Duration) {
	p.r.t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			p.r.t.Fatalf("daemon exited before its socket answered: %v\n%s", p.err, p.logText())
		default:
		}
		if _, err := p.r.status(); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.r.t.Fatalf("daemon's socket did not answer within %v\n%s", limit, p.logText())
}

// kill sends SIGKILL and waits for the process to go.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop sends SIGTERM and waits; the daemon must exit cleanly.
func (p *proc) stop() {
	p.r.t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		if p.err != nil {
			p.r.t.Errorf("daemon exited with %v after SIGTERM\n%s", p.err, p.logText())
		}
	case <-time.After(60 * time.Second):
		p.kill()
		p.r.t.Errorf("daemon did not stop within 60s of SIGTERM")
	}
}

func (p *proc) logText() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// client returns an API client of the rig's socket.
func (r *rig) client() *api.Client { return api.NewClient(r.socket()) }

// status asks the daemon for its status over the socket.
func (r *rig) status() (daybook.StatusResponse, error) {
	c := r.client()
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return c.Status(ctx, daybook.StatusRequest{})
}

// waitJob waits until the daemon's job has a last run after since, and
// returns its error text.
func (r *rig) waitJob(job string, since time.Time, limit time.Duration) string {
	r.t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		st, err := r.status()
		if err == nil {
			for _, j := range st.Jobs {
				if j.Name == job && !j.LastRun.IsZero() && !j.LastRun.Before(since) {
					return j.LastError
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	r.t.Fatalf("job %s did not run within %v", job, limit)
	return ""
}

// rawPost posts body to path on the socket and returns the status code.
func (r *rig) rawPost(path, body string) (int, []byte, error) {
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", r.socket())
	}}, Timeout: 10 * time.Second}
	defer hc.CloseIdleConnections()
	resp, err := hc.Post("http://daybook"+path, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes(), nil
}

// dayEntries parses every day file under dir, failing the test on a file
// that does not parse, and returns how many entries hold each text.
func dayEntries(t testing.TB, dir string) map[string]int {
	t.Helper()
	files, err := dayfiles.List(dir, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, f := range files {
		day, err := dayfiles.ParseFile(f.Path, f.Date)
		if err != nil {
			t.Fatalf("day file does not parse: %v", err)
		}
		for _, e := range day.Entries {
			out[e.Text]++
		}
	}
	return out
}

// entryAt returns the text of the entry that starts on line of the day file
// rel ("days/2026/11/22.md").
func entryAt(t testing.TB, dir, rel string, line int) (string, bool) {
	t.Helper()
	d, ok := dayfiles.DateOfRel(rel)
	if !ok {
		t.Fatalf("%q is not a day file path", rel)
	}
	day, err := dayfiles.ParseFile(filepath.Join(dir, filepath.FromSlash(rel)), d)
	if err != nil {
		t.Fatalf("day file does not parse: %v", err)
	}
	for _, e := range day.Entries {
		if e.Line == line {
			return e.Text, true
		}
	}
	return "", false
}

// checkSummaries reads every summary under dir and fails the test on one
// that does not parse; it returns how many there are.
func checkSummaries(t testing.TB, dir string) int {
	t.Helper()
	n := 0
	root := filepath.Join(dir, "summaries")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		if _, err := consolidate.ReadSummary(path); err != nil {
			t.Errorf("summary does not parse: %v", err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// corpus writes days of entries under dir: from first, n days with per
// entries each, every one with a unique text "<tag> day D entry K ...".
// It returns the texts written.
func corpus(t testing.TB, dir string, first date.Date, n, per int, tag string) []string {
	t.Helper()
	words := []string{"deploy", "garden", "budget", "review", "piano", "invoice", "kernel", "recipe", "hiking", "lease"}
	var texts []string
	for i := range n {
		d := first.AddDays(i)
		var b strings.Builder
		b.WriteString(dayfiles.Title(d) + "\n\n")
		for k := range per {
			text := fmt.Sprintf("%s day %d entry %d about the %s and the %s #%s", tag, i, k,
				words[(i+k)%len(words)], words[(i*7+k*3)%len(words)], words[k%len(words)])
			kind := []string{"", "[fact] ", "[decision] ", "[todo] "}[k%4]
			fmt.Fprintf(&b, "- %02d:%02d %s%s\n", 8+k%12, (k*7)%60, kind, text)
			texts = append(texts, text)
		}
		p := dayfiles.Path(dir, d)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return texts
}

// jsonLines returns n import lines over days from first, each with a unique
// text "<tag> import N", in order, and the texts.
func jsonLines(first date.Date, days, n int, tag string) ([]byte, []string) {
	var b bytes.Buffer
	var texts []string
	for i := range n {
		d := first.AddDays(i % days)
		text := fmt.Sprintf("%s import %d of the batch #imported", tag, i)
		line, _ := json.Marshal(daybook.ImportLine{At: fmt.Sprintf("%sT%02d:%02d:00", d, 8+(i/days)%12, (i/days)%60), Text: text})
		b.Write(line)
		b.WriteByte('\n')
		texts = append(texts, text)
	}
	return b.Bytes(), texts
}

// randomDelay returns a duration uniform in [0, max).
func randomDelay(rng *rand.Rand, max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	return time.Duration(rng.Int64N(int64(max)))
}

// killDelay is how long the run-th of n runs goes before its kill: a
// random moment of a full run's time. A full run timed while the machine
// stalled can leave every kill too late, so the last run, when nothing was
// killed yet, is killed within the first eighth.
func killDelay(rng *rand.Rand, full time.Duration, run, n, kills int) time.Duration {
	if run == n-1 && kills == 0 {
		return randomDelay(rng, full/8)
	}
	return randomDelay(rng, full)
}

// newRand returns a seeded generator and logs the seed, so that a failing
// run can be repeated with DAYBOOK_SEED.
func newRand(t testing.TB) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("DAYBOOK_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (set DAYBOOK_SEED to repeat)", seed)
	return rand.New(rand.NewPCG(seed, seed>>1))
}

func mustDate(s string) date.Date { return date.MustParse(s) }

// tempFiles counts the temp files of interrupted summary writes under dir.
func tempFiles(t testing.TB, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(filepath.Join(dir, "summaries"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), ".daybook-tmp-") {
			n++
		}
		return nil
	})
	return n
}
