package api_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
)

// same calls op over the socket and on the App directly and fails unless
// both give the same response and the same error message.
func same[Req, Resp any](t *testing.T, name string, req Req,
	remote, local func(context.Context, Req) (Resp, error)) Resp {
	t.Helper()
	ctx := context.Background()
	got, gotErr := remote(ctx, req)
	want, wantErr := local(ctx, req)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Errorf("%s(%+v): socket error %v, App error %v", name, req, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s(%+v) over the socket:\n%+v\non the App:\n%+v", name, req, got, want)
	}
	return got
}

func TestRememberRoundTrip(t *testing.T) {
	f := serve(t, newApp(t))
	ctx := context.Background()
	resp, err := f.client.Remember(ctx, daybook.RememberRequest{Text: "chose bleve for the index", Kind: "decision", Tags: []string{"search"}, At: "09:14"})
	if err != nil {
		t.Fatal(err)
	}
	want := daybook.RememberResponse{ID: resp.ID, Date: "2026-03-10", Path: "days/2026/03/10.md", Line: resp.Line}
	if resp != want || resp.ID == "" || resp.Line < 1 {
		t.Errorf("Remember = %+v", resp)
	}
	data, err := os.ReadFile(filepath.Join(f.app.Dir(), resp.Path))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if got := lines[resp.Line-1]; got != "- 09:14 [decision] chose bleve for the index #search" {
		t.Errorf("line %d of %s = %q", resp.Line, resp.Path, got)
	}

	// The App's refusals come back as 400 with the App's words.
	_, err = f.client.Remember(ctx, daybook.RememberRequest{Text: "x", Kind: "wish"})
	_, localErr := f.app.Remember(ctx, daybook.RememberRequest{Text: "x", Kind: "wish"})
	var re *daybook.Error
	if !errors.As(err, &re) || re.Status != 400 || re.Code != daybook.CodeUsage || err.Error() != localErr.Error() {
		t.Errorf("bad kind over the socket: %#v, on the App: %v", err, localErr)
	}
	// The same code over the socket as on the files, for each kind of
	// refusal, so that a caller tests codes and never text.
	for _, req := range []daybook.RememberRequest{{Text: "x", Kind: "wish"}, {Text: ""}, {Text: "x", At: "1890-01-01 10:00"}} {
		_, remote := f.client.Remember(ctx, req)
		_, local := f.app.Remember(ctx, req)
		if daybook.CodeOf(remote) != daybook.CodeOf(local) || !daybook.CodeOf(local).UserFault() {
			t.Errorf("%+v: code %q over the socket, %q on the files (%v)", req, daybook.CodeOf(remote), daybook.CodeOf(local), local)
		}
	}
	if _, err := f.client.Topic(ctx, daybook.TopicRequest{Name: "zeppelin"}); daybook.CodeOf(err) != daybook.CodeNotFound {
		t.Errorf("unknown topic over the socket: code %q (%v)", daybook.CodeOf(err), err)
	}
	// A client for another data dir is refused before any work.
	other := api.NewClient(f.client.Socket()).ForDir(t.TempDir())
	defer other.Close()
	if _, err := other.Remember(ctx, daybook.RememberRequest{Text: "to the wrong memory"}); daybook.CodeOf(err) != daybook.CodeOtherDir {
		t.Errorf("remember for another dir: %v", err)
	}
	if _, err := api.NewClient(f.client.Socket()).ForDir(f.app.Dir()).Status(ctx, daybook.StatusRequest{Brief: true}); err != nil {
		t.Errorf("status for the daemon's own dir: %v", err)
	}
}

// TestRememberTurnsOverTheSocket: the client writes a chat's turns one
// request each, in order, and stops at the first refused one, whose
// response and the ones after it have no ID (the proxy keeps those).
func TestRememberTurnsOverTheSocket(t *testing.T) {
	f := serve(t, newApp(t))
	ctx := context.Background()
	reqs := []daybook.RememberRequest{{Text: "asked about the heron", At: "10:00"}, {Text: "the heron nests by the weir", At: "10:01"},
		{Text: "x", Kind: "wish"}, {Text: "never sent", At: "10:03"}}
	resps, err := f.client.RememberTurns(ctx, reqs)
	if daybook.CodeOf(err) != daybook.CodeUsage {
		t.Fatalf("RememberTurns with a bad kind: %v", err)
	}
	if len(resps) != len(reqs) || resps[0].ID == "" || resps[1].ID == "" || resps[2].ID != "" || resps[3].ID != "" {
		t.Fatalf("RememberTurns = %+v", resps)
	}
	data, err := os.ReadFile(filepath.Join(f.app.Dir(), resps[0].Path))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), "- 10:00 asked about the heron\n- 10:01 the heron nests by the weir\n"; !strings.HasSuffix(got, want) {
		t.Errorf("%s:\n%s\nwant it to end with\n%s", resps[0].Path, got, want)
	}
}

func TestReadRoundTrips(t *testing.T) {
	f := serve(t, newApp(t))
	ctx := context.Background()
	for _, r := range []daybook.RememberRequest{
		{Text: "met Ana about the garden", At: "2026-03-01 10:00", Tags: []string{"ana"}},
		{Text: "planted tomatoes", Kind: "event", At: "2026-03-01 16:30"},
		{Text: "call the plumber", Kind: "todo", At: "2026-03-09 08:00"},
		{Text: "the garden needs water", At: "2026-03-10 07:45"},
	} {
		if _, err := f.app.Remember(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// A day file that does not parse shows in days as unreadable.
	bad := filepath.Join(f.app.Dir(), "days", "2026", "03", "05.md")
	if err := os.WriteFile(bad, []byte("- 10:00 fine\n\xff\xfe not UTF-8\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, req := range []daybook.DayRequest{{}, {Date: "2026-03-01"}, {Date: "yesterday"}, {Date: "2026-02-02"}, {Date: "2026-13-01"}} {
		same(t, "Day", req, f.client.Day, f.app.Day)
	}
	days := same(t, "Days", daybook.DaysRequest{}, f.client.Days, f.app.Days)
	if len(days.Days) != 4 {
		t.Errorf("Days lists %d days, want 4: %+v", len(days.Days), days)
	}
	for _, req := range []daybook.DaysRequest{{From: "2026-03-02"}, {To: "-5d"}, {From: "2026-03-09", To: "2026-03-01"}} {
		same(t, "Days", req, f.client.Days, f.app.Days)
	}
	found := same(t, "Find", daybook.FindRequest{Pattern: "garden"}, f.client.Find, f.app.Find)
	if len(found.Matches) != 2 || found.Matches[0].Date != "2026-03-10" {
		t.Errorf("Find garden = %+v", found)
	}
	for _, req := range []daybook.FindRequest{
		{Pattern: "GARDEN"}, {Pattern: `t\w+s`, Regex: true}, {Pattern: "e", Limit: 2},
		{Pattern: "garden", From: "2026-03-02"}, {Pattern: "  "}, {Pattern: ""}, {Pattern: "(", Regex: true},
		{Pattern: "x", Limit: -1}, {Pattern: "x", To: "someday"},
	} {
		same(t, "Find", req, f.client.Find, f.app.Find)
	}
}

func TestImportRoundTrip(t *testing.T) {
	f := serve(t, newApp(t))
	ctx := context.Background()
	input := `{"at": "2026-01-02T09:00", "text": "first", "kind": "fact"}
{"at": "2026-01-02T10:00", "text": "second", "tags": ["work"]}
not json
{"text": "no time"}

{"at": "2026-01-05T09:00", "text": "third", "colour": "red"}
{"at": "2026-01-07T09:00", "text": "fourth"}
`
	resp, err := f.client.Import(ctx, strings.NewReader(input), daybook.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Added != 3 || resp.Days != 2 || len(resp.Rejected) != 3 ||
		resp.Rejected[0].Line != 3 || resp.Rejected[1].Line != 4 || resp.Rejected[2].Line != 6 {
		t.Errorf("Import = %+v", resp)
	}
	days, err := f.app.Days(ctx, daybook.DaysRequest{})
	if err != nil || len(days.Days) != 2 || days.Days[0].Entries != 2 || days.Days[1].Entries != 1 {
		t.Errorf("after import, days = %+v, %v", days, err)
	}

	// Strict: the same refusal, with the rejected lines, as on the App;
	// nothing is written.
	strictInput := `{"at": "2026-02-01T09:00", "text": "ok"}` + "\n" + `{"at": "yesterday-ish", "text": "bad"}` + "\n"
	got, gotErr := f.client.Import(ctx, strings.NewReader(strictInput), daybook.ImportOptions{Strict: true})
	want, wantErr := newApp(t).Import(ctx, strings.NewReader(strictInput), daybook.ImportOptions{Strict: true})
	if gotErr == nil || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Errorf("strict import over the socket: %+v, %v; on the App: %+v, %v", got, gotErr, want, wantErr)
	}
	if _, err := os.Stat(filepath.Join(f.app.Dir(), "days", "2026", "02")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("strict import that failed wrote days/2026/02: %v", err)
	}

	// A date before the window is refused unless the import asks for any
	// date, over the socket as on the App.
	old := `{"at": "1850-03-02T09:00", "text": "an old journal"}` + "\n"
	if resp, err := f.client.Import(ctx, strings.NewReader(old), daybook.ImportOptions{}); err != nil || resp.Added != 0 || len(resp.Rejected) != 1 {
		t.Errorf("import of 1850 without any_date: %+v, %v", resp, err)
	}
	if resp, err := f.client.Import(ctx, strings.NewReader(old), daybook.ImportOptions{AnyDate: true}); err != nil || resp.Added != 1 {
		t.Errorf("import of 1850 with any_date: %+v, %v", resp, err)
	}
}

func TestImportIsNotCappedAtOneMiB(t *testing.T) {
	f := serve(t, newApp(t))
	var b strings.Builder
	n := 0
	for b.Len() <= 2*api.MaxBody {
		n++
		fmt.Fprintf(&b, `{"at": "2025-%02d-%02dT%02d:%02d", "text": "imported line %d %s"}`+"\n",
			n%12+1, n%28+1, n%24, n%60, n, strings.Repeat("x", 200))
	}
	resp, err := f.client.Import(context.Background(), strings.NewReader(b.String()), daybook.ImportOptions{})
	if err != nil {
		t.Fatalf("importing %d bytes: %v", b.Len(), err)
	}
	if resp.Added != n || len(resp.Rejected) != 0 {
		t.Errorf("imported %d of %d lines, rejected %+v", resp.Added, n, resp.Rejected)
	}
}

func TestImportLineTooLong(t *testing.T) {
	f := serve(t, newApp(t))
	input := `{"at": "2026-01-02T09:00", "text": "kept"}` + "\n" +
		`{"at": "2026-01-02T10:00", "text": "` + strings.Repeat("y", 2<<20) + `"}` + "\n"
	resp, err := f.client.Import(context.Background(), strings.NewReader(input), daybook.ImportOptions{})
	var re *daybook.Error
	if !errors.As(err, &re) || re.Code != daybook.CodeBadInput || re.Status != 422 || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("import with a 2 MiB line: %v", err)
	}
	// What was imported before the long line is what the App says.
	want, wantErr := newApp(t).Import(context.Background(), strings.NewReader(input), daybook.ImportOptions{})
	if !reflect.DeepEqual(resp, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("over the socket: %+v, %v; on the App: %+v, %v", resp, err, want, wantErr)
	}
	// The server is unharmed.
	if _, err := f.client.Status(context.Background(), daybook.StatusRequest{}); err != nil {
		t.Errorf("status after the long line: %v", err)
	}
}

func TestStatusRoundTrip(t *testing.T) {
	f := serve(t, newApp(t))
	ctx := context.Background()
	for i := range 5 {
		if _, err := f.app.Remember(ctx, daybook.RememberRequest{Text: fmt.Sprintf("entry %d", i), At: fmt.Sprintf("2026-03-0%d 09:00", i%3+1)}); err != nil {
			t.Fatal(err)
		}
	}
	f.app.OnStatus(func(ctx context.Context, resp *daybook.StatusResponse) { resp.Summarizer = "offline/extractive-v2" })

	got, err := f.client.Status(ctx, daybook.StatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Daemon.Running || got.Daemon.PID != os.Getpid() || got.Daemon.Started.IsZero() || got.Daemon.Uptime == "" {
		t.Errorf("daemon part of status = %+v", got.Daemon)
	}
	want, err := f.app.Status(ctx, daybook.StatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	want.Daemon = got.Daemon
	if !reflect.DeepEqual(got, want) {
		t.Errorf("status over the socket:\n%+v\non the App:\n%+v", got, want)
	}
	if got.DataDir != f.app.Dir() || got.Days != 3 || got.Entries != 5 || got.Summarizer != "offline/extractive-v2" {
		t.Errorf("status = %+v", got)
	}

	brief, err := f.client.Status(ctx, daybook.StatusRequest{Brief: true})
	if err != nil {
		t.Fatal(err)
	}
	if brief.DataDir != f.app.Dir() || !brief.Daemon.Running || brief.Days != 0 || brief.Summarizer != "" {
		t.Errorf("brief status = %+v", brief)
	}
}

func TestRecallRoundTrip(t *testing.T) {
	a := newApp(t)
	f := serve(t, a)
	ctx := context.Background()
	for _, text := range []string{"we chose bleve for full text search", "lunch with Ana", "the vector store is pure Go"} {
		if _, err := a.Remember(ctx, daybook.RememberRequest{Text: text, At: "2026-03-02 10:00"}); err != nil {
			t.Fatal(err)
		}
	}
	got := same(t, "Recall", daybook.RecallRequest{Query: "full text search", Limit: 5}, f.client.Recall, a.Recall)
	if len(got.Results) == 0 {
		t.Errorf("Recall found nothing: %+v", got)
	}
	_, err := f.client.Recall(ctx, daybook.RecallRequest{Query: "   "})
	var re *daybook.Error
	if !errors.As(err, &re) || re.Status != 400 || !strings.Contains(err.Error(), "only spaces") {
		t.Errorf("recall of spaces: %v", err)
	}
	_, err = f.client.Recall(ctx, daybook.RecallRequest{Query: strings.Repeat("q", daybook.MaxQuery+1)})
	if !errors.As(err, &re) || re.Status != 400 || !strings.Contains(err.Error(), "4096") {
		t.Errorf("recall of 4 KiB + 1: %v", err)
	}
}

func TestClientWithoutDaemon(t *testing.T) {
	dir, err := os.MkdirTemp("", "db")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	socket := filepath.Join(dir, "nobody.sock")
	c := api.NewClient(socket)
	defer c.Close()
	_, err = c.Status(context.Background(), daybook.StatusRequest{Brief: true})
	if err == nil || !strings.Contains(err.Error(), socket) {
		t.Errorf("status with no daemon: %v", err)
	}
	var re *daybook.Error
	if errors.As(err, &re) {
		t.Errorf("no daemon reported as a daemon's answer: %v", err)
	}
}
