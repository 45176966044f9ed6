package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// helloSource is the program daybook's start is compared with: Go's
// hello-world, built by the toolchain that built daybook.
const helloSource = `package main

import "fmt"

func main() { fmt.Println("hello, world") }
`

// buildHello builds a Go hello-world into dir with the go command on PATH,
// once per toolchain version, and returns its path. The ratio of daybook's
// start to it holds across machines where absolute times do not. It fails
// when there is no go command, or one of another version than daybook's.
func buildHello(ctx context.Context, dir string) (string, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command to build a hello-world with: %w", err)
	}
	out, err := exec.CommandContext(ctx, goCmd, "env", "GOVERSION").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %w", err)
	}
	if v := strings.TrimSpace(string(out)); v != runtime.Version() {
		return "", fmt.Errorf("go on PATH is %s, daybook was built with %s", v, runtime.Version())
	}
	exe := filepath.Join(dir, "hello-"+runtime.Version())
	if _, err := os.Stat(exe); err == nil {
		return exe, nil
	}
	src, err := os.MkdirTemp(dir, "hello-src-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(src)
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module hello\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(helloSource), 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, goCmd, "build", "-o", exe, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building a hello-world: %v: %s", err, out)
	}
	return exe, nil
}
