package app_test

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/app"
)

// TestContextOverTheSocket serves the App on a real Unix socket and checks
// that the client's answers are the App's own.
func TestContextOverTheSocket(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newAppAt(t, dir, time.Date(2026, 3, 11, 12, 0, 0, 0, time.UTC))
	for _, r := range []daybook.RememberRequest{
		{Text: "Chose Argon2 over bcrypt. #auth", Kind: "decision", At: "2026-03-02 09:14"},
		{Text: "Met Dana Reyes about the launch.", At: "2026-03-03 10:00"},
	} {
		if _, err := a.Remember(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "d.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: api.NewServer(a, api.ServerOptions{IsUserError: app.IsUserError})}
	go srv.Serve(ln)
	defer srv.Close()
	c := api.NewClient(sock)
	defer c.Close()

	same := func(name string, local, remote any, errL, errR error) {
		t.Helper()
		if errL != nil || errR != nil {
			t.Fatalf("%s: local %v, remote %v", name, errL, errR)
		}
		if !reflect.DeepEqual(local, remote) {
			t.Errorf("%s differs:\nlocal  %+v\nremote %+v", name, local, remote)
		}
	}
	l1, e1 := a.Context(ctx, daybook.ContextRequest{Budget: 500})
	r1, e2 := c.Context(ctx, daybook.ContextRequest{Budget: 500})
	same("context", l1, r1, e1, e2)
	l2, e1 := a.Topics(ctx, daybook.TopicsRequest{})
	r2, e2 := c.Topics(ctx, daybook.TopicsRequest{})
	same("topics", l2, r2, e1, e2)
	l3, e1 := a.Topic(ctx, daybook.TopicRequest{Name: "Dana Reyes"})
	r3, e2 := c.Topic(ctx, daybook.TopicRequest{Name: "Dana Reyes"})
	same("topic", l3, r3, e1, e2)
	l4, e1 := a.Stats(ctx, daybook.StatsRequest{})
	r4, e2 := c.Stats(ctx, daybook.StatsRequest{})
	same("stats", l4, r4, e1, e2)

	// The caller's mistakes are 4xx with the App's words.
	_, err = c.Topic(ctx, daybook.TopicRequest{Name: "zeppelin"})
	if re, ok := err.(*daybook.Error); !ok || !re.UserFault() || re.Message != `no topic "zeppelin": no entry names it ("daybook topics" lists them)` {
		t.Fatalf("unknown topic over the socket: %v", err)
	}
	if _, err := c.Context(ctx, daybook.ContextRequest{Budget: -3}); err == nil {
		t.Fatal("a negative budget over the socket succeeded")
	}
}
