package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/api"
)

// raw sends a request the Client would never send and returns the status,
// the Allow header and the decoded error message.
func (f *fixture) raw(t *testing.T, method, path, body string) (status int, allow, msg string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://daybook"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	var eb struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(data, &eb); err != nil {
		t.Errorf("%s %s: answer is not JSON: %q", method, path, data)
	}
	return resp.StatusCode, resp.Header.Get("Allow"), eb.Error
}

func TestBadRequests(t *testing.T) {
	f := serve(t, newApp(t))
	long := strings.Repeat("p", api.MaxQuery+1)
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		says                     []string
	}{
		{"malformed JSON", "POST", "/v1/remember", `{"text": "unfinished`, 400, []string{"bad JSON"}},
		{"wrong type", "POST", "/v1/remember", `{"text": 42}`, 400, []string{"bad JSON", "text"}},
		{"unknown field", "POST", "/v1/remember", `{"text": "hi", "colour": "red"}`, 400, []string{"unknown field", "colour"}},
		{"two values", "POST", "/v1/day", `{} {}`, 400, []string{"more than one JSON value"}},
		{"oversized body", "POST", "/v1/remember", `{"text": "` + strings.Repeat("a", api.MaxBody) + `"}`, 413, []string{"over the limit of 1048576"}},
		{"unknown endpoint", "POST", "/v1/forget", `{}`, 404, []string{"no endpoint /v1/forget", "/v1/remember"}},
		{"unversioned", "GET", "/status", ``, 404, []string{"no endpoint /status"}},
		{"wrong method", "GET", "/v1/remember", ``, 405, []string{"/v1/remember does not take GET", "POST"}},
		{"wrong method on status", "DELETE", "/v1/status", ``, 405, []string{"GET or POST"}},
		{"overlong pattern", "POST", "/v1/find", `{"pattern": "` + long + `"}`, 400, []string{"pattern is 4097 bytes", "limit of 4096"}},
		{"empty text", "POST", "/v1/remember", `{"text": "   "}`, 400, []string{"entry text is empty"}},
		{"bad date", "POST", "/v1/day", `{"date": "the day after"}`, 400, []string{"the day after"}},
		{"bad strict", "POST", "/v1/import?strict=maybe", ``, 400, []string{`strict="maybe"`}},
		// The service names the request's fields; flags are the CLI's.
		{"negative limit", "POST", "/v1/find", `{"pattern": "x", "limit": -1}`, 400, []string{"limit -1 is negative"}},
		{"bad from", "POST", "/v1/days", `{"from": "nope"}`, 400, []string{`from: bad date "nope"`}},
		{"from after to", "POST", "/v1/days", `{"from": "2026-03-02", "to": "2026-03-01"}`, 400, []string{"from 2026-03-02 is after to 2026-03-01"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, allow, msg := f.raw(t, tc.method, tc.path, tc.body)
			if status != tc.status {
				t.Errorf("status %d, want %d (%s)", status, tc.status, msg)
			}
			for _, s := range tc.says {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
			if strings.Contains(msg, "--") {
				t.Errorf("error %q names a command-line flag", msg)
			}
			if tc.status == 405 && allow == "" {
				t.Errorf("405 without an Allow header")
			}
		})
	}

	// The recall endpoint refuses a query of only spaces, or one over the
	// limit, before any work.
	status, _, msg := f.raw(t, "POST", "/v1/recall", `{"query": "   "}`)
	if status != 400 || !strings.Contains(msg, "only spaces") {
		t.Errorf("recall of spaces: %d %q", status, msg)
	}

	// After all that, the server still answers, and nothing was written.
	st, err := f.client.Status(context.Background(), api.StatusRequest{})
	if err != nil {
		t.Fatalf("status after the bad requests: %v", err)
	}
	if st.Entries != 0 {
		t.Errorf("bad requests wrote %d entries", st.Entries)
	}
}

func TestEmptyBodyIsTheZeroRequest(t *testing.T) {
	f := serve(t, newApp(t))
	for _, path := range []string{"/v1/day", "/v1/days", "/v1/status"} {
		if status, _, msg := f.raw(t, "POST", path, ""); status != 200 || msg != "" {
			t.Errorf("POST %s with no body: %d %q", path, status, msg)
		}
	}
	if status, _, _ := f.raw(t, "GET", "/v1/status", ""); status != 200 {
		t.Errorf("GET /v1/status: %d", status)
	}
}
