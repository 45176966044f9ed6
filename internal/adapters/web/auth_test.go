package web

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/app/apptest"
	"github.com/daybook/daybook/internal/config/configfile"
)

func TestNoTokenNoData(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(testNow))
	s := newSite(t, a)
	bare := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/", "/day/2025-01-01", "/search?q=x", "/static/app.css", "/?token=wrong", "/?token=" + s.token[:len(s.token)-1]} {
		resp, err := bare.Get(s.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s without the token: status %d, want 403", path, resp.StatusCode)
		}
		if strings.Contains(string(body), "<html") {
			t.Errorf("GET %s without the token shows a page", path)
		}
	}
	// A wrong cookie is no better.
	req, _ := http.NewRequest("GET", s.URL+"/", nil)
	req.AddCookie(&http.Cookie{Name: cookieName, Value: strings.Repeat("0", len(s.token))})
	if resp, err := bare.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a wrong cookie: %v %v", resp.StatusCode, err)
	}

	// The token in the URL sets the cookie and sends the browser on
	// without it.
	resp, err := bare.Get(s.URL + "/month/2025-03?tag=work&token=" + s.token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/month/2025-03?tag=work" {
		t.Fatalf("the token in the URL: status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || cookies[0].Name != cookieName || cookies[0].Value != s.token ||
		!cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie: %+v", cookies)
	}
	req, _ = http.NewRequest("GET", s.URL+"/", nil)
	req.AddCookie(cookies[0])
	resp, err = bare.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("with the cookie: status %d", resp.StatusCode)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}

	// Another host name, as a rebinding page would use, is refused even
	// with the cookie; so is anything but GET.
	req, _ = http.NewRequest("GET", s.URL+"/", nil)
	req.Host = "attacker.example:80"
	req.AddCookie(cookies[0])
	if resp, err := bare.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("Host attacker.example: status %d %v, want 403", resp.StatusCode, err)
	}
	req, _ = http.NewRequest("POST", s.URL+"/", nil)
	req.AddCookie(cookies[0])
	if resp, err := bare.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d %v, want 405", resp.StatusCode, err)
	}
}

func TestTokenFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadToken(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("reading a missing token: %v", err)
	}
	tok, _, err := EnsureToken(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(TokenPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	if len(tok) != 64 {
		t.Errorf("token %q: want 64 hex characters", tok)
	}
	again, _, err := EnsureToken(dir)
	if err != nil || again != tok {
		t.Errorf("a second EnsureToken: %q %v, want the same token", again, err)
	}
	other, _, _ := EnsureToken(t.TempDir())
	if other == tok {
		t.Error("two data dirs got the same token")
	}
	// A file that is not a token is an error naming it, and is kept.
	bad := t.TempDir()
	os.MkdirAll(bad+"/state", 0o700)
	os.WriteFile(TokenPath(bad), []byte("short\n"), 0o600)
	if _, _, err := EnsureToken(bad); err == nil || !strings.Contains(err.Error(), TokenPath(bad)) {
		t.Errorf("a short token: %v", err)
	}
	if data, _ := os.ReadFile(TokenPath(bad)); string(data) != "short\n" {
		t.Errorf("the short token file was rewritten: %q", data)
	}
}

func TestURL(t *testing.T) {
	for _, c := range []struct{ listen, want string }{
		{"127.0.0.1:7717", "http://127.0.0.1:7717/?token=abc"},
		{"localhost:7717", "http://localhost:7717/?token=abc"},
		{"[::1]:7717", "http://[::1]:7717/?token=abc"},
		{"0.0.0.0:7717", "http://127.0.0.1:7717/?token=abc"},
		{":7717", "http://127.0.0.1:7717/?token=abc"},
	} {
		got, err := URL(c.listen, "abc")
		if err != nil || got != c.want {
			t.Errorf("URL(%q) = %q, %v; want %q", c.listen, got, err, c.want)
		}
	}
	if _, err := URL("7717", "abc"); err == nil {
		t.Error("URL without a port: no error")
	}
}

func TestLoopbackOnlyUnlessAllowed(t *testing.T) {
	a := apptest.New(t, t.TempDir(), apptest.At(testNow))
	for _, listen := range []string{"0.0.0.0:0", ":0", "192.0.2.7:7717", "[::]:0", "example.com:7717"} {
		_, err := New(a, Options{Listen: listen, Dir: a.Dir()})
		if err == nil || !strings.Contains(err.Error(), listen) || !strings.Contains(err.Error(), "allow_remote") {
			t.Errorf("New with listen %q: %v, want a refusal naming it", listen, err)
		}
		_, err = configfile.Parse("config.yaml", []byte("web:\n  listen: \""+listen+"\"\n"))
		if err == nil || !strings.Contains(err.Error(), "web.listen") || !strings.Contains(err.Error(), listen) {
			t.Errorf("config with web.listen %q: %v, want a refusal naming it", listen, err)
		}
	}
	if _, err := configfile.Parse("config.yaml", []byte("web:\n  listen: \"0.0.0.0:7717\"\n  allow_remote: true\n")); err != nil {
		t.Errorf("allow_remote: %v", err)
	}
	if _, err := configfile.Parse("config.yaml", []byte("web:\n  listen: \"127.0.0.1\"\n")); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("a listen without a port: %v", err)
	}

	// A loopback address is served, on a real listener, until Close.
	srv, err := New(a, Options{Listen: "127.0.0.1:0", Dir: a.Dir()})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	tok, err := ReadToken(a.Dir())
	if err != nil {
		t.Fatal(err)
	}
	u, err := URL(srv.Addr().String(), tok)
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	resp, err := (&http.Client{Jar: jar}).Get(u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "No day files yet") {
		t.Errorf("GET %s: status %d\n%s", u, resp.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve after Close: %v", err)
	}
	if _, err := http.Get(u); err == nil {
		t.Error("the server still answers after Close")
	}
}
