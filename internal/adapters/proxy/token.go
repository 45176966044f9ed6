package proxy

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile is where the proxy's token lives, relative to the data dir
// (mode 0600, in the 0700 state folder): the owner's credential where the
// kernel cannot say who connects.
const TokenFile = "state/proxy.token"

// TokenPath returns the proxy's token file of the data dir dir.
func TokenPath(dir string) string { return filepath.Join(dir, filepath.FromSlash(TokenFile)) }

// TokenPrefix starts a path that carries the token, for clients that take
// only a base URL: http://127.0.0.1:11435/t/TOKEN/ (then /api/... or
// /v1/...).
const TokenPrefix = "/t/"

// minTokenLen is the shortest token taken from a file: 128 bits in hex.
const minTokenLen = 32

// EnsureToken returns the token stored at path, creating the file (mode
// 0600, its folder 0700) with 256 random bits when it is absent. A file
// that others may read is not a secret any more: it is replaced by a new
// token, and replaced says so.
func EnsureToken(path string) (tok string, replaced bool, err error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Remove(path); err != nil {
			return "", false, fmt.Errorf("removing proxy token %s, which others may read (mode %04o): %w", path, fi.Mode().Perm(), err)
		}
		replaced = true
	}
	tok, err = readToken(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, replaced, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", replaced, fmt.Errorf("creating proxy token folder: %w", err)
	}
	var b [32]byte
	rand.Read(b[:])
	tok = hex.EncodeToString(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // another process made it first: use theirs
		tok, err = readToken(path)
		return tok, replaced, err
	}
	if err != nil {
		return "", replaced, fmt.Errorf("creating proxy token: %w", err)
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
		return "", replaced, fmt.Errorf("writing proxy token %s: %w", path, err)
	}
	return tok, replaced, nil
}

func readToken(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading proxy token: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	if len(tok) < minTokenLen || strings.ContainsAny(tok, " \t\r\n/") {
		return "", fmt.Errorf("proxy token %s: %d characters on one line wanted at least %d; remove the file and restart the daemon to make a new one",
			path, len(tok), minTokenLen)
	}
	return tok, nil
}

// tokenGate takes the token off a request: from the path's /t/TOKEN prefix
// (which it strips) or from Authorization: Bearer TOKEN (which it removes,
// so the upstream never sees it). A wrong token in the path is 403 in any
// mode; a request without the token is 403 when required is set (the uid
// of the peer cannot be known). An Authorization that is not the token is
// left for the upstream.
type tokenGate struct {
	token    []byte
	required bool
	path     string // the token file, named in the refusal
	next     http.Handler
}

func (g *tokenGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ok := false
	if rest, found := strings.CutPrefix(r.URL.Path, TokenPrefix); found {
		tok, after, _ := strings.Cut(rest, "/")
		if !g.valid(tok) {
			writeError(w, http.StatusForbidden, "daybook proxy: the token in the path is not this proxy's (see "+g.path+")")
			return
		}
		r.URL.Path, r.URL.RawPath = "/"+after, ""
		ok = true
	}
	if tok, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found && g.valid(strings.TrimSpace(tok)) {
		r.Header.Del("Authorization")
		ok = true
	}
	if g.required && !ok {
		writeError(w, http.StatusForbidden, "daybook proxy: this proxy needs its token: use the base URL http://HOST:PORT/t/TOKEN/ or the header Authorization: Bearer TOKEN, with the token in "+g.path+" (docs/chat.md)")
		return
	}
	g.next.ServeHTTP(w, r)
}

func (g *tokenGate) valid(tok string) bool {
	return subtle.ConstantTimeCompare([]byte(tok), g.token) == 1
}
