package index_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	gosync "sync"
	"testing"
	"time"

	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
)

// Two processes opening a data dir that has no index yet (a daemon
// starting while a CLI recalls) both saw a half-made index: meta.json not
// written yet, bleve's own meta missing, root.bolt not there. The one that
// lost moved the other's index aside as broken, even while it was open.
// Every open must either get the index or be told it is busy.
func TestConcurrentOpensOfANewIndexMoveNothingAside(t *testing.T) {
	for round := range 10 {
		root := t.TempDir()
		dir := filepath.Join(root, "index")
		start := make(chan struct{})
		errs := make(chan error, 2)
		var wg gosync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				x, err := index.Open(context.Background(), dir, index.Options{Embedder: offline.NewEmbedder(), LockTimeout: time.Minute})
				if err == nil {
					err = x.Close()
				}
				errs <- err
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("round %d: open: %v", round, err)
			}
		}
		if aside, _ := filepath.Glob(dir + ".broken-*"); len(aside) > 0 {
			t.Fatalf("round %d: a new index was moved aside: %v", round, aside)
		}
	}
}

// The symptom of the 20-year bench: a process opening the index as the
// daemon closes it, after writes that Close folds into a new vector image,
// gets the whole index, never a copy moved aside.
func TestOpenWhileTheHolderClosesGetsTheWholeIndex(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "index")
	for i := range 5 {
		x := open(t, root, offline.NewEmbedder())
		daybooktest.Entries(t, root, fmt.Sprintf("2026-03-%02d", i+1), fmt.Sprintf("Planted row %d of the garden", i))
		sync(t, x, root)
		st, err := x.Stats()
		if err != nil {
			t.Fatal(err)
		}
		want := st.Docs
		got := make(chan error, 1)
		go func() {
			y, err := index.Open(context.Background(), dir, index.Options{Embedder: offline.NewEmbedder(), LockTimeout: time.Minute})
			if err != nil {
				got <- err
				return
			}
			defer y.Close()
			st, err := y.Stats()
			if err == nil && (st.Docs != want || st.Vectors != int(want)) {
				err = fmt.Errorf("opened with %d docs and %d vectors, want %d", st.Docs, st.Vectors, want)
			}
			got <- err
		}()
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		if aside, _ := filepath.Glob(dir + ".broken-*"); len(aside) > 0 {
			t.Fatalf("round %d: moved aside: %v", i, aside)
		}
	}
}

// The open lock answers busy as bolt's did, naming what is held.
func TestBusyNamesTheLock(t *testing.T) {
	root := t.TempDir()
	x := open(t, root, offline.NewEmbedder())
	defer x.Close()
	_, err := index.Open(context.Background(), filepath.Join(root, "index"), index.Options{Embedder: offline.NewEmbedder(), LockTimeout: time.Millisecond})
	if !errors.Is(err, index.ErrBusy) {
		t.Fatalf("second open: %v, want ErrBusy", err)
	}
}

// Emptying the index (a reindex) holds the open lock from the close of the
// old one to the open of the new: another process is told it is busy, and
// never opens the folder being removed.
func TestEmptyHoldsTheLockThroughout(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "index")
	daybooktest.Entries(t, root, "2026-02-13", "Chose Argon2 over bcrypt")
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root)
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			y, err := index.Open(context.Background(), dir, index.Options{Embedder: offline.NewEmbedder(), LockTimeout: time.Millisecond})
			if errors.Is(err, index.ErrBusy) {
				continue
			}
			if err == nil {
				err = y.Close()
			}
			if err != nil {
				done <- err
				return
			}
		}
	}()
	for range 5 {
		var err error
		if x, err = index.Empty(context.Background(), x, index.Options{Embedder: offline.NewEmbedder()}); err != nil {
			t.Fatal(err)
		}
		if st, err := x.Stats(); err != nil || st.Docs != 0 {
			t.Fatalf("after Empty: %+v, %v", st, err)
		}
		sync(t, x, root)
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatalf("an open during the emptying: %v", err)
	}
	x.Close()
	if aside, _ := filepath.Glob(dir + ".broken-*"); len(aside) > 0 {
		t.Fatalf("moved aside: %v", aside)
	}
}
