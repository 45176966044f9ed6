package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
)

// raw sends a request the Client would never send and returns the status,
// the Allow header and the decoded error message.
func (f *fixture) raw(t *testing.T, method, path, body string) (status int, allow, msg string) {
	t.Helper()
	status, allow, e := f.rawError(t, method, path, body)
	return status, allow, e.Message
}

// rawError is raw with the whole error body: code, field and message.
func (f *fixture) rawError(t *testing.T, method, path, body string) (status int, allow string, e daybook.Error) {
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
		Error *daybook.Error `json:"error"`
	}
	if err := json.Unmarshal(data, &eb); err != nil {
		t.Errorf("%s %s: answer is not JSON: %q", method, path, data)
	}
	if eb.Error == nil {
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s %s: %d with no error object: %q", method, path, resp.StatusCode, data)
		}
		return resp.StatusCode, resp.Header.Get("Allow"), daybook.Error{}
	}
	if eb.Error.Code.Status() != resp.StatusCode {
		t.Errorf("%s %s: code %q with status %d", method, path, eb.Error.Code, resp.StatusCode)
	}
	return resp.StatusCode, resp.Header.Get("Allow"), *eb.Error
}

func TestBadRequests(t *testing.T) {
	f := serve(t, newApp(t))
	long := strings.Repeat("p", daybook.MaxQuery+1)
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code                     daybook.Code
		field                    string
		says                     []string
	}{
		{"malformed JSON", "POST", "/v1/remember", `{"text": "unfinished`, 400, daybook.CodeUsage, "", []string{"bad JSON", "ends before"}},
		{"not JSON", "POST", "/v1/remember", `{text: 1}`, 400, daybook.CodeUsage, "", []string{"bad JSON at byte 2"}},
		{"wrong type", "POST", "/v1/remember", `{"text": 42}`, 400, daybook.CodeUsage, "text", []string{"bad JSON", "text is number, want a string"}},
		{"wrong type in a list", "POST", "/v1/remember", `{"text": "hi", "tags": ["a", 7]}`, 400, daybook.CodeUsage, "tags", []string{"an item of tags is number, want a string"}},
		{"fraction for a count", "POST", "/v1/find", `{"pattern": "x", "limit": 1.5}`, 400, daybook.CodeUsage, "limit", []string{"limit is number 1.5, want a whole number"}},
		{"unknown field", "POST", "/v1/remember", `{"text": "hi", "colour": "red"}`, 400, daybook.CodeUsage, "colour", []string{"unknown field", "colour", "/v1/remember takes text, kind, tags, at"}},
		{"two values", "POST", "/v1/day", `{} {}`, 400, daybook.CodeUsage, "", []string{"more than one JSON value"}},
		{"oversized body", "POST", "/v1/remember", `{"text": "` + strings.Repeat("a", api.MaxBody) + `"}`, 413, daybook.CodeTooLarge, "", []string{"over the limit of 1048576"}},
		{"unknown endpoint", "POST", "/v1/forget", `{}`, 404, daybook.CodeNoEndpoint, "", []string{"no endpoint /v1/forget", "/v1/remember"}},
		{"unversioned", "GET", "/status", ``, 404, daybook.CodeNoEndpoint, "", []string{"no endpoint /status"}},
		{"wrong method", "GET", "/v1/remember", ``, 405, daybook.CodeBadMethod, "", []string{"/v1/remember does not take GET", "POST"}},
		{"wrong method on status", "DELETE", "/v1/status", ``, 405, daybook.CodeBadMethod, "", []string{"GET or POST"}},
		{"overlong pattern", "POST", "/v1/find", `{"pattern": "` + long + `"}`, 400, daybook.CodeUsage, "pattern", []string{"pattern is 4097 bytes", "limit of 4096"}},
		{"empty text", "POST", "/v1/remember", `{"text": "   "}`, 400, daybook.CodeUsage, "", []string{"entry text is empty"}},
		{"bad date", "POST", "/v1/day", `{"date": "the day after"}`, 400, daybook.CodeUsage, "", []string{"the day after"}},
		{"bad strict", "POST", "/v1/import?strict=maybe", ``, 400, daybook.CodeUsage, "strict", []string{`strict="maybe"`}},
		{"outside the window", "POST", "/v1/remember", `{"text": "hi", "at": "1890-01-01 10:00"}`, 400, daybook.CodeOutsideWindow, "", []string{"1890-01-01"}},
		{"no such entry", "POST", "/v1/expand", `{"id": "2026-01-02T10:00-0123456789ab"}`, 404, daybook.CodeNotFound, "", []string{"2026-01-02"}},
		// The service names the request's fields; flags are the CLI's.
		{"negative limit", "POST", "/v1/find", `{"pattern": "x", "limit": -1}`, 400, daybook.CodeUsage, "", []string{"limit -1 is negative"}},
		{"bad from", "POST", "/v1/days", `{"from": "nope"}`, 400, daybook.CodeUsage, "", []string{`from: bad date "nope"`}},
		{"from after to", "POST", "/v1/days", `{"from": "2026-03-02", "to": "2026-03-01"}`, 400, daybook.CodeUsage, "", []string{"from 2026-03-02 is after to 2026-03-01"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, allow, e := f.rawError(t, tc.method, tc.path, tc.body)
			msg := e.Message
			if status != tc.status || e.Code != tc.code || e.Field != tc.field {
				t.Errorf("status %d code %q field %q, want %d %q %q (%s)", status, e.Code, e.Field, tc.status, tc.code, tc.field, msg)
			}
			for _, s := range tc.says {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not say %q", msg, s)
				}
			}
			if strings.Contains(msg, "--") {
				t.Errorf("error %q names a command-line flag", msg)
			}
			// The API's own words: no Go type or package.
			for _, goWord := range []string{"api.", "Request", "Go struct", "int64", "float64"} {
				if strings.Contains(msg, goWord) {
					t.Errorf("error %q names Go's %q", msg, goWord)
				}
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
	st, err := f.client.Status(context.Background(), daybook.StatusRequest{})
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
