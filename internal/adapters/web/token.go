package web

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"path/filepath"

	"github.com/daybook/daybook/internal/util/tokenfile"
)

// TokenFile is where the page's token lives, relative to the data dir.
const TokenFile = "state/web.token"

// cookieName is the cookie that carries the token after the first visit.
const cookieName = "daybook_token"

// TokenPath returns the token file of the data dir dir.
func TokenPath(dir string) string { return filepath.Join(dir, filepath.FromSlash(TokenFile)) }

// ReadToken reads the token of the data dir dir. A missing file is an error
// that wraps fs.ErrNotExist; a file too short to be a token is an error
// naming it.
func ReadToken(dir string) (string, error) { return tokenfile.Read(TokenPath(dir), "web") }

// EnsureToken returns the token of the data dir dir, creating the file
// (mode 0600, its folder 0700) with 256 random bits when it is absent, or
// when others may read it, which replaced says (tokenfile.Ensure).
func EnsureToken(dir string) (tok string, replaced bool, err error) {
	return tokenfile.Ensure(TokenPath(dir), "web")
}

// URL returns the address a browser opens: the page at listen with the
// token. A listen host that is every interface becomes 127.0.0.1.
func URL(listen, token string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("web.listen %q: %w", listen, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	u := url.URL{Scheme: "http", Host: net.JoinHostPort(host, port), Path: "/", RawQuery: url.Values{"token": {token}}.Encode()}
	return u.String(), nil
}

// auth lets a request through when it carries the token, in the URL or in
// the cookie; anything else is 403. A token in the URL is moved into an
// HttpOnly, SameSite=Strict cookie and the browser is sent to the same page
// without it, so it stays out of history and links.
type auth struct {
	token []byte
	next  http.Handler
}

func (a auth) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if q := r.URL.Query(); q.Has("token") {
		if !a.valid(q.Get("token")) {
			forbid(w)
			return
		}
		http.SetCookie(w, &http.Cookie{
			Name: cookieName, Value: string(a.token), Path: "/",
			HttpOnly: true, SameSite: http.SameSiteStrictMode,
		})
		q.Del("token")
		u := *r.URL
		u.RawQuery = q.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
		return
	}
	c, err := r.Cookie(cookieName)
	if err != nil || !a.valid(c.Value) {
		forbid(w)
		return
	}
	a.next.ServeHTTP(w, r)
}

func (a auth) valid(tok string) bool { return tokenfile.Equal(tok, a.token) }

func forbid(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintln(w, "403 forbidden: open the address that \"daybook web\" prints; it carries the token")
}
