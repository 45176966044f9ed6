package proxy

import (
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/daybook/daybook/internal/config"
)

// refuseForeign answers 403 and returns true for a request a browser sent
// on behalf of another site, before anything of it is read, forwarded or
// remembered:
//
//   - a Host that is not this machine's loopback (localhost, 127.0.0.0/8,
//     ::1, which covers every address proxy.listen may take): a page whose
//     name was rebound to 127.0.0.1 (DNS rebinding) names its own host;
//   - an Origin that is not the proxy's own (http:// and the request's
//     Host): a cross-site "simple request" (text/plain, no preflight)
//     still carries its Origin, and so does every fetch from a page;
//   - Sec-Fetch-Site cross-site or same-site (another port of localhost
//     is the same site, not the same origin), for the requests a browser
//     sends without an Origin;
//   - any OPTIONS request: the proxy never answers a CORS preflight, so no
//     browser sends the request that would follow it.
//
// Clients that are not browsers (the ollama CLI, the SDKs, Open WebUI's
// server, curl) send none of these headers and a loopback Host. Ollama
// checks the Host with its allowedHostsMiddleware and Origin against
// OLLAMA_ORIGINS; the proxy is stricter than Ollama's defaults (no local
// TLDs, no hostname, no app:// or vscode-webview:// origins), since it
// answers with the user's memory.
func refuseForeign(w http.ResponseWriter, r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	switch {
	case !config.IsLoopbackHost(host):
		writeError(w, http.StatusForbidden, fmt.Sprintf("daybook proxy: host %q is not this machine's loopback; the proxy answers only to localhost, 127.0.0.1 and [::1]", r.Host))
	case r.Method == http.MethodOptions:
		writeError(w, http.StatusForbidden, "daybook proxy: no cross-origin requests (OPTIONS): the proxy serves your memory to local programs, not to web pages")
	case r.Header.Get("Origin") != "" && !sameOrigin(r):
		writeError(w, http.StatusForbidden, fmt.Sprintf("daybook proxy: origin %q is not the proxy's own; web pages may not use the proxy", r.Header.Get("Origin")))
	case crossSiteFetch(r.Header.Get("Sec-Fetch-Site")):
		writeError(w, http.StatusForbidden, "daybook proxy: a cross-site request (Sec-Fetch-Site); web pages may not use the proxy")
	default:
		return false
	}
	return true
}

// sameOrigin reports whether the request's Origin is http:// and its own
// Host, which refuseForeign has found to be loopback.
func sameOrigin(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Origin"), "http://"+r.Host)
}

func crossSiteFetch(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "same-origin", "none":
		return false
	}
	return true
}
