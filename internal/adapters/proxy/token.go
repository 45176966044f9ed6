package proxy

import (
	"net/http"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook/internal/util/tokenfile"
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

// EnsureToken returns the token stored at path, creating the file (mode
// 0600, its folder 0700) with 256 random bits when it is absent. A file
// that others may read is not a secret any more: it is replaced by a new
// token, and replaced says so.
func EnsureToken(path string) (tok string, replaced bool, err error) {
	return tokenfile.Ensure(path, "proxy")
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

func (g *tokenGate) valid(tok string) bool { return tokenfile.Equal(tok, g.token) }
