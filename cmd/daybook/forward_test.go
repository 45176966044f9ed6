//go:build unix

package main

import (
	"errors"
	"path/filepath"
	"testing"
)

// Only an answer that says the command did not run lets daybook-core run it.
func TestResponseBody(t *testing.T) {
	for answer, want := range map[string]string{
		"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{}": "ok",
		"HTTP/1.0 409 Conflict\r\n\r\n{\"error\":\"x\"}":              "not taken",
		"HTTP/1.0 404 Not Found\r\n\r\n{}":                            "not taken",
		"HTTP/1.0 400 Bad Request\r\n\r\n{}":                          "not taken",
		"HTTP/1.0 500 Internal Server Error\r\n\r\n{}":                "taken",
		"HTTP/1.0 200 OK\r\n":                                         "taken",
		"garbage\r\n\r\n":                                             "taken",
	} {
		body, err := responseBody([]byte(answer))
		got := "ok"
		if errors.As(err, &notTaken{}) {
			got = "not taken"
		} else if err != nil {
			got = "taken"
		}
		if got != want || got == "ok" && string(body) != "{}" {
			t.Errorf("%q: %s (%q, %v), want %s", answer, got, body, err, want)
		}
	}
}

// No daemon on the socket: nothing ran.
func TestAskNoDaemon(t *testing.T) {
	if _, err := ask(filepath.Join(t.TempDir(), "none.sock"), []byte("{}"), answerTimeout); !errors.As(err, &notTaken{}) {
		t.Errorf("ask with no socket: %v, want a notTaken", err)
	}
}
