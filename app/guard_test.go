package app

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/config"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/dayfiles"
)

// TestGuardWaitsForAppendsInFlight checks the interleaving that lost
// acknowledged entries under load: an editor's stale save drops entry A;
// entry B, of the same minute and sharing most of A's words, is written
// but not yet noted when the watcher's report arrives. The check must wait
// for B to be noted: read before, B looks like a person's line and A like
// an entry the person edited into B, and A is never restored.
// guardApp returns an App on a new data dir in UTC whose clock stands at
// 2026-03-04 10:00, logging to logs.
func guardApp(t *testing.T, logs *bytes.Buffer) (*App, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a := New(dir, cfg, slog.New(slog.NewTextHandler(logs, nil)))
	a.Now = func() time.Time { return time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC) }
	return a, dir
}

func TestGuardWaitsForAppendsInFlight(t *testing.T) {
	var logs bytes.Buffer
	a, dir := guardApp(t, &logs)
	ctx := context.Background()
	d := date.MustParse("2026-03-04")
	path := dayfiles.Path(dir, d)

	if _, err := a.Remember(ctx, api.RememberRequest{Text: "api client entry 1 tok1"}); err != nil {
		t.Fatal(err)
	}
	// The editor read the file before A; the person saves that buffer.
	if _, err := a.Remember(ctx, api.RememberRequest{Text: "api client entry 2 tok2"}); err != nil {
		t.Fatal(err)
	}
	stale, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Remember(ctx, api.RememberRequest{Text: "api client entry 3 tok3"}); err != nil { // A
		t.Fatal(err)
	}
	if err := os.WriteFile(path+".tmp", stale, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}

	// B is being remembered: written, not noted yet.
	b := dayfiles.NewEntry{Text: "api client entry 4 tok4", At: a.Now()}
	written := make(chan struct{})
	noted := make(chan struct{})
	go func() {
		a.appendNoted([]dayfiles.NewEntry{b}, func() ([]dayfiles.Written, error) {
			w, err := dayfiles.Append(dir, a.Loc(), b)
			close(written)
			<-noted // hold the append here, between the write and the note
			return []dayfiles.Written{w}, err
		})
	}()
	<-written
	checked := make(chan struct{})
	go func() {
		a.restoreVanished(ctx, []date.Date{d})
		close(checked)
	}()
	select {
	case <-checked:
		t.Error("the day was checked while an append was not noted yet")
	case <-time.After(200 * time.Millisecond):
	}
	close(noted)
	<-checked

	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tok1", "tok2", "tok3", "tok4"} {
		if n := strings.Count(string(text), want+"\n"); n != 1 {
			t.Errorf("%s is in the file %d times, want once:\n%s\n%s", want, n, text, logs.String())
		}
	}
	if strings.Contains(logs.String(), "was edited") {
		t.Errorf("a lost entry was taken for an edited one:\n%s", logs.String())
	}
}

// TestGuardWaitsOnlyForItsDay checks that an append in flight to another
// day (an import's batch, say) does not hold up the check of this one.
func TestGuardWaitsOnlyForItsDay(t *testing.T) {
	a, dir := guardApp(t, new(bytes.Buffer))
	ctx := context.Background()
	if _, err := a.Remember(ctx, api.RememberRequest{Text: "an entry of the 4th"}); err != nil {
		t.Fatal(err)
	}
	other := dayfiles.NewEntry{Text: "an imported entry of the 1st", At: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	written, release := make(chan struct{}), make(chan struct{})
	held := make(chan struct{})
	go func() {
		defer close(held)
		a.appendNoted([]dayfiles.NewEntry{other}, func() ([]dayfiles.Written, error) {
			w, err := dayfiles.Append(dir, a.Loc(), other)
			close(written)
			<-release
			return []dayfiles.Written{w}, err
		})
	}()
	<-written
	checked := make(chan struct{})
	go func() {
		a.restoreVanished(ctx, []date.Date{date.MustParse("2026-03-04")})
		close(checked)
	}()
	select {
	case <-checked:
	case <-time.After(10 * time.Second):
		t.Error("the check of the 4th waited for an append to the 1st")
	}
	close(release)
	<-held
	<-checked
}
