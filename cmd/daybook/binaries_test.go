package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built holds the front and daybook-core, built once for every test of
// this package that runs them (each only reads the folder), and removed by
// TestMain when the tests end.
var built struct {
	once sync.Once
	dir  string
	err  error
}

// binaries returns the folder that holds the built daybook and
// daybook-core, building them on the first call.
func binaries(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "daybook-bin-"); built.err != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", built.dir+string(filepath.Separator),
			"github.com/daybook/daybook/cmd/daybook", "github.com/daybook/daybook/cmd/daybook-core").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
