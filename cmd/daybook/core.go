package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// corePath returns daybook-core beside this binary (symbolic links
// followed): the two are built and installed together, so that a command
// never runs with a daybook-core of another version found elsewhere.
func corePath() (string, error) {
	name := "daybook-core"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding %s: where is this daybook? %w", name, err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	core := filepath.Join(filepath.Dir(exe), name)
	if _, err := os.Stat(core); err != nil {
		return "", fmt.Errorf("no %s beside %s: it runs the commands a daemon does not answer; "+
			"build the two together: go install ./cmd/... (or go build -o DIR/ ./cmd/...); with go run, run ./cmd/daybook-core", name, exe)
	}
	return core, nil
}
