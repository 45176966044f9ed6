package usage_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/daybook/daybook/internal/app/usage"
)

func open(t *testing.T, dir string, opts usage.Options) *usage.Store {
	t.Helper()
	s, err := usage.Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConcurrentStoresLoseNothing(t *testing.T) {
	dir := t.TempDir()
	// Two stores on one data dir stand for a daemon and a CLI; each is used
	// by several goroutines and flushes in small batches.
	stores := []*usage.Store{
		open(t, dir, usage.Options{Interval: -1, FlushAfter: 7}),
		open(t, dir, usage.Options{Interval: -1, FlushAfter: 13}),
	}
	const workers, rounds = 8, 50
	var wg sync.WaitGroup
	for w := range workers {
		s := stores[w%2]
		wg.Go(func() {
			for r := range rounds {
				s.Record("month:2026-02", fmt.Sprintf("day:2026-02-%02d", r%28+1))
			}
		})
	}
	wg.Wait()
	for _, s := range stores {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	got := open(t, dir, usage.Options{}).Counts()
	if n := got["month:2026-02"].N; n != workers*rounds {
		t.Errorf("month:2026-02 counted %d times, want %d", n, workers*rounds)
	}
	total := 0
	for id, c := range got {
		if strings.HasPrefix(id, "day:") {
			total += c.N
		}
	}
	if total != workers*rounds {
		t.Errorf("days counted %d times in all, want %d", total, workers*rounds)
	}
}

func TestRecordWaitsForTheBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		s := open(t, dir, usage.Options{Interval: 10 * time.Second})
		s.Record("year:2025", "year:2025", "")
		if got := s.Get("year:2025").N; got != 2 {
			t.Fatalf("in memory: %d uses, want 2", got)
		}
		path := filepath.Join(dir, "state", "usage.json")
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Fatalf("written before the interval: %v", err)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if got := open(t, dir, usage.Options{}).Get("year:2025"); got.N != 2 || got.Last.IsZero() {
			t.Fatalf("after the interval the file has %+v, want 2 uses with a time", got)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestFlushAfterOneWritesAtOnce(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, usage.Options{FlushAfter: 1, Interval: -1})
	s.Record("2026-11-22T09:14-3fa2b1c4d5e6")
	if got := open(t, dir, usage.Options{}).Get("2026-11-22T09:14-3fa2b1c4d5e6").N; got != 1 {
		t.Fatalf("file has %d uses, want 1", got)
	}
}

func TestBadFileIsNamedAndKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "usage.json")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("{not json"), 0o644)
	_, err := usage.Open(dir, usage.Options{})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("bad file: %v, want an error naming %s", err, path)
	}
	if data, _ := os.ReadFile(path); string(data) != "{not json" {
		t.Fatalf("bad file was rewritten: %q", data)
	}
}

func TestFailedFlushKeepsTheRecords(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir, usage.Options{Interval: -1})
	s.Record("day:2026-01-01")
	// The state folder cannot be created: a file stands in its way.
	os.WriteFile(filepath.Join(dir, "state"), nil, 0o644)
	if err := s.Flush(); err == nil {
		t.Fatal("flush into a blocked folder succeeded")
	}
	os.Remove(filepath.Join(dir, "state"))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := open(t, dir, usage.Options{}).Get("day:2026-01-01").N; got != 1 {
		t.Fatalf("after a failed then a good flush the file has %d uses, want 1", got)
	}
}

func BenchmarkRecord(b *testing.B) {
	s, err := usage.Open(b.TempDir(), usage.Options{Interval: -1})
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("day:2026-01-%04d", i)
	}
	b.ResetTimer()
	for i := range b.N {
		s.Record(ids[i%len(ids)])
	}
	b.StopTimer()
	s.Close()
}
