package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/front"
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
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, api.MaxBody))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			answer(w, http.StatusBadRequest, map[string]string{"error": "request body: bad JSON: " + err.Error()})
			return
		}
		if why := refuse(req); why != "" {
			answer(w, front.StatusRefused, map[string]string{"error": why})
			return
		}
		var stdout, stderr bytes.Buffer
		e := newEnv(bytes.NewReader(req.Stdin), &stdout, &stderr)
		e.osEnv = frontEnv(req)
		e.served, e.servedDir = a, dir
		code := runEnv(r.Context(), e, req.Args)
		if e.refused {
			answer(w, front.StatusRefused, map[string]string{"error": errOtherDir.Error()})
			return
		}
		answer(w, http.StatusOK, front.Response{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Code: code})
	})
}

// answer writes v as the JSON answer with status, as the API's endpoints do.
func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// refuse says why the daemon does not run req, or "" when it does.
func refuse(req front.Request) string {
	if !filepath.IsAbs(req.Cwd) {
		return "the front's working folder is not an absolute path"
	}
	rest, err := newEnv(strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{}).parseGlobal(req.Args)
	if err != nil || !front.Takes(rest) {
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
