package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile is where the page's token lives, relative to the data dir.
const TokenFile = "state/web.token"

// cookieName is the cookie that carries the token after the first visit.
const cookieName = "daybook_token"

// minTokenLen is the shortest token taken from a file: 128 bits in hex.
const minTokenLen = 32

// TokenPath returns the token file of the data dir dir.
func TokenPath(dir string) string { return filepath.Join(dir, filepath.FromSlash(TokenFile)) }

// ReadToken reads the token of the data dir dir. A missing file is an error
// that wraps fs.ErrNotExist; a file too short to be a token is an error
// naming it.
func ReadToken(dir string) (string, error) {
	path := TokenPath(dir)
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading web token: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	if len(tok) < minTokenLen || strings.ContainsAny(tok, " \t\r\n") {
		return "", fmt.Errorf("web token %s: %d characters on one line wanted at least %d; remove the file and restart the daemon to make a new one",
			path, len(tok), minTokenLen)
	}
	return tok, nil
}

// EnsureToken returns the token of the data dir dir, creating the file
// (mode 0600, its folder 0700) with 256 random bits when it is absent. An
// existing file is never rewritten.
func EnsureToken(dir string) (string, error) {
	tok, err := ReadToken(dir)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, err
	}
	path := TokenPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("creating web token folder: %w", err)
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making web token: %w", err)
	}
	tok = hex.EncodeToString(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // another process made it first: use theirs
		return ReadToken(dir)
	}
	if err != nil {
		return "", fmt.Errorf("creating web token: %w", err)
	}
	_, err = f.WriteString(tok + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("writing web token %s: %w", path, err)
	}
	return tok, nil
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

// valid compares in constant time.
func (a auth) valid(tok string) bool {
	return subtle.ConstantTimeCompare([]byte(tok), a.token) == 1
}

func forbid(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	fmt.Fprintln(w, "403 forbidden: open the address that \"daybook web\" prints; it carries the token")
}
