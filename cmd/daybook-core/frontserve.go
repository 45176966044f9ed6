package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/config"
	"github.com/daybook/daybook/front"
)

// errOtherDir ends a command the daemon runs for the front when the command
// resolves to another data dir than the daemon's: the front then runs it
// with daybook-core, as it would with no daemon up.
var errOtherDir = errors.New("the command's data dir is not the daemon's")

// frontHandler runs, for the front daybook, one of front.Commands with the
// daemon's own App a, which serves the data dir dir: the same code as
// daybook-core would run, with the front's arguments, working folder and
// environment, and without a second process start or a client of the
// socket. Anything else it refuses (front.StatusRefused), and the front
// runs daybook-core.
func frontHandler(a api.Service, dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req front.Request
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, api.MaxBody)).Decode(&req); err != nil {
			http.Error(w, "reading the front's request: "+err.Error(), http.StatusBadRequest)
			return
		}
		if why := refuse(req); why != "" {
			http.Error(w, why, front.StatusRefused)
			return
		}
		var stdout, stderr bytes.Buffer
		e := newEnv(strings.NewReader(""), &stdout, &stderr)
		e.osEnv = frontEnv(req)
		e.served, e.servedDir = a, dir
		code := runEnv(r.Context(), e, req.Args)
		if e.refused {
			http.Error(w, errOtherDir.Error(), front.StatusRefused)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(front.Response{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Code: code})
	})
}

// refuse says why the daemon does not run req, or "" when it does.
func refuse(req front.Request) string {
	if !filepath.IsAbs(req.Cwd) {
		return "the front's working folder is not an absolute path"
	}
	rest, err := newEnv(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}).parseGlobal(req.Args)
	if err != nil || len(rest) == 0 || !front.Forwarded(rest[0]) {
		return "not a command the daemon runs for the front"
	}
	return ""
}

// frontEnv is the front's environment, as far as it decides the data dir
// and the config.
func frontEnv(req front.Request) config.Env {
	return config.Env{
		Getenv: func(k string) string { return req.Env[k] },
		HomeDir: func() (string, error) {
			if h := req.Env["HOME"]; h != "" {
				return h, nil
			}
			return "", errors.New("$HOME is not defined")
		},
		Cwd: req.Cwd,
	}
}
