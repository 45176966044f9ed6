package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/front"
)

// frontServer serves the daemon's API with the front's endpoint over an App
// on a data dir with one entry, as runDaemon does, and returns its URL and
// the data dir.
func frontServer(t *testing.T) (url, dir string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "data")
	a := app.New(dir, config.Default(), nil)
	t.Cleanup(func() { a.Close() })
	if _, err := a.Remember(context.Background(), api.RememberRequest{Text: "the quarterly zeppelin review"}); err != nil {
		t.Fatal(err)
	}
	srv := api.NewServer(a, api.ServerOptions{IsUserError: app.IsUserError})
	srv.Handle(http.MethodPost, front.Path, frontHandler(a, dir))
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL + front.Path, dir
}

// post sends req and returns the status and, on 200, the response.
func post(t *testing.T, url string, req front.Request) (int, front.Response) {
	t.Helper()
	body, _ := json.Marshal(req)
	r, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var resp front.Response
	if r.StatusCode == http.StatusOK {
		if err := json.NewDecoder(r.Body).Decode(&resp); err != nil {
			t.Fatal(err)
		}
	}
	return r.StatusCode, resp
}

// The daemon runs a read for the front as daybook-core would, with the
// front's arguments, folder and environment, exit code included.
func TestFrontHandlerRuns(t *testing.T) {
	url, dir := frontServer(t)
	env := map[string]string{"HOME": t.TempDir()}
	code, resp := post(t, url, front.Request{Args: []string{"--dir", dir, "recall", "zeppelin"}, Cwd: "/", Env: env})
	if code != http.StatusOK || resp.Code != exitOK || !strings.Contains(string(resp.Stdout), "**zeppelin**") {
		t.Fatalf("recall: status %d, %+v", code, resp)
	}
	// The dir from the environment, and a --dir relative to the front's folder.
	code, resp = post(t, url, front.Request{Args: []string{"find", "zeppelin"}, Cwd: "/",
		Env: map[string]string{"DAYBOOK_DIR": dir, "HOME": env["HOME"]}})
	if code != http.StatusOK || !strings.Contains(string(resp.Stdout), "zeppelin review") {
		t.Fatalf("find with $DAYBOOK_DIR: status %d, %+v", code, resp)
	}
	code, resp = post(t, url, front.Request{Args: []string{"recall", "--dir", "data", "zeppelin"}, Cwd: filepath.Dir(dir), Env: env})
	if code != http.StatusOK || !strings.Contains(string(resp.Stdout), "zeppelin") {
		t.Fatalf("recall with a relative --dir: status %d, %+v", code, resp)
	}
	code, resp = post(t, url, front.Request{Args: []string{"--dir", dir, "recall"}, Cwd: "/", Env: env})
	if code != http.StatusOK || resp.Code != exitUsage || !strings.Contains(string(resp.Stderr), "recall takes a QUERY") {
		t.Fatalf("recall without a query: status %d, %+v", code, resp)
	}
}

// What the daemon does not run for the front it refuses, and the front
// then runs daybook-core: another data dir, a command that is not a read
// through the API, a front without an absolute folder.
func TestFrontHandlerRefuses(t *testing.T) {
	url, dir := frontServer(t)
	env := map[string]string{"HOME": t.TempDir()}
	elsewhere := t.TempDir() // with a data dir of its own, "data"
	if err := os.Mkdir(filepath.Join(elsewhere, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, req := range map[string]front.Request{
		"other dir":    {Args: []string{"--dir", t.TempDir(), "recall", "zeppelin"}, Cwd: "/", Env: env},
		"relative dir": {Args: []string{"recall", "--dir", "data", "zeppelin"}, Cwd: elsewhere, Env: env},
		"status":       {Args: []string{"--dir", dir, "status"}, Cwd: "/", Env: env},
		"import":       {Args: []string{"--dir", dir, "import", "x.jsonl"}, Cwd: "/", Env: env},
		"no command":   {Args: []string{"--dir", dir}, Cwd: "/", Env: env},
		"no folder":    {Args: []string{"--dir", dir, "recall", "zeppelin"}, Env: env},
	} {
		if code, resp := post(t, url, req); code != front.StatusRefused {
			t.Errorf("%s: status %d, %+v; want %d", name, code, resp, front.StatusRefused)
		}
	}
}

// Every command the front hands to a daemon is one of daybook-core's.
func TestFrontCommandsExist(t *testing.T) {
	for _, name := range front.Commands {
		if _, ok := lookup(name); !ok {
			t.Errorf("front.Commands names %q, which is no command", name)
		}
	}
}

// The front sends the daemon every environment variable that config reads
// to find the data dir, the config and the socket: front.EnvVars is a list
// kept by hand, and this holds it to config.Env.
func TestFrontSendsWhatConfigReads(t *testing.T) {
	read := map[string]bool{}
	env := config.Env{
		Getenv:  func(k string) string { read[k] = true; return "" },
		HomeDir: func() (string, error) { read["HOME"] = true; return "/home/x", nil },
	}
	if _, err := env.DataDir(""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := env.ConfigPath(""); err != nil {
		t.Fatal(err)
	}
	env.SocketPath(config.Default(), "/data")
	for k := range read {
		if !slices.Contains(front.EnvVars, k) {
			t.Errorf("config reads $%s, which the front does not send (front.EnvVars)", k)
		}
	}
}
