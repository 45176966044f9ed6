package api_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The socket refuses an entry dated outside the window with a 400 that
// names the date, as the CLI and MCP do: one entry dated 9999-12-31 once
// stretched the timeline over 10,000 years.
func TestRememberOverTheSocketRefusesFarDates(t *testing.T) {
	f := serve(t, newApp(t))
	for _, at := range []string{"9999-12-31 10:00", "0001-01-01 10:00"} {
		resp, err := f.http.Post("http://daybook/v1/remember", "application/json",
			strings.NewReader(`{"text": "poison", "at": "`+at+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), at[:10]) ||
			!strings.Contains(string(body), "outside the accepted window") {
			t.Errorf("at %s: %d %s, want a 400 naming the date", at, resp.StatusCode, body)
		}
	}
}
