package spool_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/spool"
)

// TestMain runs a child that appends to a spool when asked: a second
// process, as the hooks, daybook chat and the daemon are.
func TestMain(m *testing.M) {
	if dir := os.Getenv("SPOOL_TEST_CHILD"); dir != "" {
		os.Exit(child(dir, os.Getenv("SPOOL_TEST_NAME"), os.Getenv("SPOOL_TEST_N")))
	}
	os.Exit(m.Run())
}

func child(dir, name, count string) int {
	n, _ := strconv.Atoi(count)
	sp := spool.New(dir)
	for i := range n {
		it := spool.Item{From: spool.FromHooks, RememberRequest: daybook.RememberRequest{
			Text: fmt.Sprintf("%s item %d", name, i), At: "2026-11-20T10:00:00Z"}}
		if err := sp.Add(context.Background(), it); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func newApp(t *testing.T, dir string) *app.App {
	t.Helper()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := app.New(dir, cfg, nil)
	t.Cleanup(func() { a.Close() })
	return a
}

func dayText(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(filepath.Join(dir, "days"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			data, _ := os.ReadFile(p)
			b.Write(data)
		}
		return nil
	})
	return b.String()
}

// Two processes append to the one spool while this one replays it into a
// real App again and again: every item is written, exactly once.
func TestTwoProcessesAppendWhileReplaying(t *testing.T) {
	dir := t.TempDir()
	a := newApp(t, dir)
	sp := spool.New(dir)
	const per = 150
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for k, name := range []string{"alpha", "beta"} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SPOOL_TEST_CHILD="+dir, "SPOOL_TEST_NAME="+name, "SPOOL_TEST_N="+strconv.Itoa(per))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[k] = fmt.Errorf("%s: %v: %s", name, err, out)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	replays, written := 0, 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		res, err := sp.Replay(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		replays++
		written += len(res.Written)
	}
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	res, err := sp.Replay(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	written += len(res.Written)
	days := dayText(t, dir)
	lost, twice := 0, 0
	for _, name := range []string{"alpha", "beta"} {
		for i := range per {
			switch strings.Count(days, fmt.Sprintf("%s item %d\n", name, i)) {
			case 0:
				lost++
			case 1:
			default:
				twice++
			}
		}
	}
	t.Logf("2 processes appended %d items while %d replays wrote %d: %d lost, %d written twice", 2*per, replays, written, lost, twice)
	if lost != 0 || twice != 0 || written != 2*per {
		t.Errorf("%d lost, %d written twice, %d written of %d", lost, twice, written, 2*per)
	}
	if n, _ := sp.Len(); n != 0 {
		t.Errorf("%d items left in the spool", n)
	}
}

// An item that can never be written goes to the dead-letter file once, is
// not tried again, and does not hold up the others; requeue and drop deal
// with it.
func TestDeadLetter(t *testing.T) {
	dir := t.TempDir()
	a := newApp(t, dir)
	sp := spool.New(dir)
	ctx := context.Background()
	good := spool.Item{From: spool.FromProxy, Key: "k1", RememberRequest: daybook.RememberRequest{Text: "a good turn", At: "2026-11-20T10:00:00Z"}}
	bad := spool.Item{From: spool.FromProxy, Key: "k2", RememberRequest: daybook.RememberRequest{Text: "a turn of long ago", At: "1850-01-01T10:00:00Z"}}
	if err := sp.Add(ctx, good, bad); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(sp.Path(), append(mustRead(t, sp.Path()), "not json at all\n"...), 0o600)
	res, err := sp.Replay(ctx, a)
	if err != nil || len(res.Written) != 1 || res.Dead != 2 || res.Left != 0 {
		t.Fatalf("replay: %+v, %v; want 1 written, 2 dead, none left", res, err)
	}
	if !strings.Contains(dayText(t, dir), "a good turn") {
		t.Error("the good turn is not in its day")
	}
	res, err = sp.Replay(ctx, a)
	if err != nil || len(res.Written) != 0 || res.Dead != 0 {
		t.Fatalf("second replay: %+v, %v; want nothing tried again", res, err)
	}
	dead, err := sp.DeadItems()
	if err != nil || len(dead) != 2 || dead[1].Key != "k2" || dead[0].Line != "not json at all" {
		t.Fatalf("dead letters: %+v, %v", dead, err)
	}
	// doctor names them and the command.
	r := a.Doctor(ctx, app.DoctorInput{})
	found := false
	for _, c := range r.Checks {
		if c.Name == "spool" && c.Status == daybook.CheckWarn && strings.Contains(c.Detail, "2 items can never be written") &&
			strings.Contains(c.Fix, "daybook spool") {
			found = true
		}
	}
	if !found {
		t.Errorf("doctor does not report the dead letters: %+v", r.Checks)
	}
	n, err := sp.Requeue(ctx)
	if err != nil || n != 1 {
		t.Fatalf("requeue: %d, %v; want the item back, the bad line left", n, err)
	}
	if w, _ := sp.Len(); w != 1 {
		t.Fatalf("%d waiting after requeue", w)
	}
	res, _ = sp.Replay(ctx, a) // still outside the window: dead again, once
	if res.Dead != 1 {
		t.Errorf("replay after requeue: %+v", res)
	}
	if n, err := sp.Drop(ctx); err != nil || n != 2 {
		t.Errorf("drop: %d, %v", n, err)
	}
	if d, _ := sp.DeadItems(); len(d) != 0 {
		t.Errorf("%d dead letters after drop", len(d))
	}
}

// Text with a NUL byte or bytes that are not UTF-8 is never spooled.
func TestAddRefusesWhatCannotBeWritten(t *testing.T) {
	sp := spool.New(t.TempDir())
	for _, text := range []string{"a\x00b", "caf\xe9", "  "} {
		err := sp.Add(context.Background(), spool.Item{RememberRequest: daybook.RememberRequest{Text: text}})
		if err == nil {
			t.Errorf("%q was spooled", text)
		}
	}
	if n, _ := sp.Len(); n != 0 {
		t.Errorf("%d items spooled", n)
	}
}

// The spools of an earlier daybook (the hooks' and the proxy's) are taken
// into the one spool.
func TestAdopt(t *testing.T) {
	dir := t.TempDir()
	for path, line := range map[string]string{
		"state/hooks/spool.jsonl": `{"at":"2026-11-20T10:00:00Z","text":"User: from a hook","tags":["claude-code"]}`,
		"state/proxy/spool.jsonl": `{"key":"abc","text":"user: from the proxy","kind":"chat","at":"2026-11-20T10:01:00Z"}`,
	} {
		p := filepath.Join(dir, path)
		os.MkdirAll(filepath.Dir(p), 0o700)
		os.WriteFile(p, []byte(line+"\n"), 0o600)
	}
	sp := spool.New(dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := sp.Adopt(ctx)
	if err != nil || n != 2 {
		t.Fatalf("adopt: %d, %v", n, err)
	}
	a := newApp(t, dir)
	res, err := sp.Replay(ctx, a)
	if err != nil || len(res.Written) != 2 {
		t.Fatalf("replay: %+v, %v", res, err)
	}
	days := dayText(t, dir)
	if !strings.Contains(days, "User: from a hook") || !strings.Contains(days, "user: from the proxy") {
		t.Errorf("days:\n%s", days)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A secret in a turn that waits is not on disk while it waits.
func TestAddRedacts(t *testing.T) {
	dir := t.TempDir()
	s := spool.New(dir)
	secret := "AKIAIOSFODNN7EXAMPLE"
	it := spool.Item{From: spool.FromProxy}
	it.Text = "User: my key is " + secret
	it.At = "2026-11-27 10:00"
	if err := s.Add(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) {
		t.Fatalf("the spool holds the key: %s", data)
	}
	if !strings.Contains(string(data), "my key is") {
		t.Fatalf("the spool lost the turn: %s", data)
	}
}
