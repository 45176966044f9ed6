package proxy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// The test binary doubles as two helper processes, chosen by
// $DAYBOOK_PROXY_HELPER: "server" serves a proxy as the daemon does (for
// its RSS, apart from the test's), "client" runs the Ollama Go client (as
// another user).
func TestMain(m *testing.M) {
	switch os.Getenv("DAYBOOK_PROXY_HELPER") {
	case "server":
		os.Exit(helperServer())
	case "client":
		os.Exit(helperClient())
	}
	os.Exit(m.Run())
}

// helperServer serves a proxy over an App in $DAYBOOK_PROXY_DIR in front
// of $DAYBOOK_PROXY_UPSTREAM on a loopback port, which it prints, until
// its standard input closes.
func helperServer() int {
	dir, upstream := os.Getenv("DAYBOOK_PROXY_DIR"), os.Getenv("DAYBOOK_PROXY_UPSTREAM")
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	a := app.New(dir, cfg, log)
	defer a.Close()
	p, err := proxy.New(a, proxy.Options{Upstream: upstream, Budget: cfg.Proxy.Budget, StateDir: filepath.Join(dir, "state", "proxy"), Log: log,
		IsUserError: app.IsUserError, MaxBody: int64(cfg.Proxy.MaxBodyMiB) << 20})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := proxy.Listen("127.0.0.1:0", p, proxy.ServerOptions{Log: log, TokenFile: proxy.TokenPath(dir)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	go s.Serve()
	fmt.Println(s.Addr().String())
	io.Copy(io.Discard, os.Stdin)
	s.Close(context.Background())
	return 0
}

// clientResult is what helperClient prints.
type clientResult struct {
	Answer string `json:"answer"`
	Err    string `json:"err"`
	Models int    `json:"models"`
	ListEr string `json:"list_err"`
}

// helperClient chats once through the Ollama Go client at
// $DAYBOOK_PROXY_URL (a base URL) and lists the models, and prints what
// came back as JSON.
func helperClient() int {
	u, err := url.Parse(os.Getenv("DAYBOOK_PROXY_URL"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c := api.NewClient(u, &http.Client{Timeout: 20 * time.Second})
	var res clientResult
	var b strings.Builder
	no := false
	err = c.Chat(context.Background(), &api.ChatRequest{Model: "llama3.2", Stream: &no,
		Messages: []api.Message{{Role: "user", Content: "What do you know about me?"}}},
		func(r api.ChatResponse) error { b.WriteString(r.Message.Content); return nil })
	res.Answer = b.String()
	if err != nil {
		res.Err = err.Error()
	}
	list, err := c.List(context.Background())
	if err != nil {
		res.ListEr = err.Error()
	} else {
		res.Models = len(list.Models)
	}
	json.NewEncoder(os.Stdout).Encode(res)
	return 0
}

// startServerProcess runs helperServer over dir in front of upstream and
// returns its process and address; it stops when the test ends.
func startServerProcess(t *testing.T, dir, upstream string) (*os.Process, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "DAYBOOK_PROXY_HELPER=server", "DAYBOOK_PROXY_DIR="+dir, "DAYBOOK_PROXY_UPSTREAM="+upstream)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
		if t.Failed() {
			t.Logf("server process's log:\n%s", stderr.String())
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the server process printed no address: %v\n%s", err, stderr.String())
	}
	return cmd.Process, strings.TrimSpace(line)
}
