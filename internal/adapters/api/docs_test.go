package api_test

import (
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// docExample returns the JSON answer docs/api.md shows after the curl
// command that holds call.
func docExample(t *testing.T, call string) map[string]any {
	t.Helper()
	doc, err := os.ReadFile("../../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(doc), call)
	if i < 0 {
		t.Fatalf("docs/api.md has no %q", call)
	}
	m := regexp.MustCompile("(?s)```json\n(.*?)```").FindStringSubmatch(string(doc[i:]))
	if m == nil {
		t.Fatalf("docs/api.md: no JSON after %q", call)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
		t.Fatalf("docs/api.md: the example after %q is not JSON: %v", call, err)
	}
	return v
}

// Every key docs/api.md shows in the /v1/status answer is in a real one.
func TestDocsStatusExampleMatchesTheAnswer(t *testing.T) {
	f := serve(t, newApp(t))
	resp, err := f.http.Post("http://daybook/v1/status", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	doc := docExample(t, "curl --unix-socket $S http://daybook/v1/status")
	if len(doc) < 5 {
		t.Fatalf("the example is too small to check: %v", doc)
	}
	for k := range doc {
		if k == "jobs" {
			continue // the daemon's scheduler fills it; an App alone has none
		}
		if _, ok := got[k]; !ok {
			t.Errorf("docs/api.md shows %q in /v1/status; the answer has no such key: %s", k, body)
		}
	}
}

// docs/api.md states the limits a client meets: the size of an entry.
func TestDocsStateTheEntryLimit(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "64 KiB") {
		t.Error("docs/api.md does not say that an entry's text is at most 64 KiB")
	}
}
