// Command outside uses daybook as a library from another module: it writes
// a day file, consolidates it, indexes it and recalls from it, on a data
// dir of its own, and prints what a daemon and a service would run.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/daemon"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/recall"
	"github.com/daybook/daybook/service"
)

func main() {
	if err := run(context.Background(), os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err, "code:", daybook.CodeOf(err))
		os.Exit(1)
	}
}

func run(ctx context.Context, dir string) error {
	log := daemon.NewLogger("info", "", os.Stderr, false)
	d := date.Of(time.Now())
	path := dayfiles.Path(dir, d)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	text := "# " + dayfiles.Title(d) + "\n\n- 09:00 Planted the apple tree by the shed.\n"
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return err
	}
	day, err := dayfiles.ParseFile(path, d)
	if err != nil {
		return err
	}
	fmt.Println("entries:", len(day.Entries), "period:", consolidate.DayPeriod(d))

	lock, err := daemon.LockPID(dir, os.Getpid())
	if err != nil {
		return err
	}
	defer lock.Release()
	var _ daemon.App // an embedding program's memory implements it

	x, err := index.Open(ctx, filepath.Join(dir, "index"), index.Options{Embedder: letters{}, Log: log, Root: dir})
	if err != nil {
		return err
	}
	defer x.Close()
	if _, err := x.Sync(ctx, false, index.DayFiles{Root: dir, Log: log}); err != nil {
		return err
	}
	req := daybook.RecallRequest{Query: "apple tree"}
	if err := recall.Check(req); err != nil {
		return err
	}
	resp, err := recall.Recall(ctx, x, req, recall.Options{Root: dir, Now: time.Now, Loc: time.Local})
	if err != nil {
		return err
	}
	fmt.Println("recalled:", len(resp.Results))
	fmt.Print(service.SystemdUnit(service.Spec{Name: "daybook", Exe: "/usr/bin/daybook", DataDir: dir, User: true}))
	slog.Info("done")
	return nil
}

// letters is an embedder of its own: how often each letter occurs.
type letters struct{}

func (letters) Name() string { return "outside/letters-v1" }

func (letters) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 26)
		for _, r := range strings.ToLower(t) {
			if r >= 'a' && r <= 'z' {
				v[r-'a']++
			}
		}
		v[0]++ // no zero vector
		out[i] = v
	}
	return out, nil
}
