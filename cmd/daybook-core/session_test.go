package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdMCPSession runs "mcp-session FILE" in a transcript: it starts "daybook
// mcp", sends it FILE's JSON-RPC messages a line at a time, waits for the
// answer to each request (a message with an id) and prints the answers, one
// a line, to stdout; then it closes stdin, as a client that goes away does,
// and waits for the server to exit. The server's log goes to stderr.
// (exec cannot do this: the server stops reading at the end of its input,
// and a whole file on stdin ends before the first answer.)
func cmdMCPSession(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mcp-session FILE")
	}
	cmd := exec.Command("daybook", "mcp")
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = os.Environ()
	for _, k := range []string{"DAYBOOK_DIR", "DAYBOOK_CONFIG", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_DATA_HOME", "TZ", "HOME"} {
		cmd.Env = append(cmd.Env, k+"="+ts.Getenv(k))
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	ts.Check(err)
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	answers := bufio.NewReader(out)
	for _, line := range strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n") {
		if _, err := fmt.Fprintln(in, line); err != nil {
			ts.Fatalf("sending %s: %v\n%s", line, err, stderr.String())
		}
		if !hasID(line) {
			continue // a notification: no answer
		}
		for {
			answer, err := answers.ReadString('\n')
			if err != nil {
				ts.Fatalf("no answer to %s: %v\n%s", line, err, stderr.String())
			}
			if hasID(answer) { // the server's own notifications are skipped
				fmt.Fprint(ts.Stdout(), answer)
				break
			}
		}
	}
	in.Close()
	err = cmd.Wait()
	fmt.Fprint(ts.Stderr(), stderr.String())
	ts.Check(err)
}

// hasID reports whether a JSON-RPC message is a request or an answer.
func hasID(msg string) bool {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	return json.Unmarshal([]byte(msg), &m) == nil && m.ID != nil
}
