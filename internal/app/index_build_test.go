package app_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/app"
)

// A first build of the index holds no request that does not need the
// index: remember, status, day and find answer while it is held in
// progress (its progress hook waits), and what remember wrote meanwhile is
// indexed when the build ends.
func TestRequestsAnswerDuringFirstBuild(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := twelveDays(t, dir)
	a.Close()

	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	b := app.NewWith(dir, a.Config(), nil, app.Options{IndexProgress: func(done, total int) {
		once.Do(func() { close(started) })
		<-release // the build is held here, in progress
	}})
	defer b.Close()
	var releaseOnce sync.Once
	letGo := func() { releaseOnce.Do(func() { close(release) }) }
	defer letGo()

	built := make(chan error, 1)
	go func() { _, err := b.Index(ctx); built <- err }()
	select {
	case <-started:
	case err := <-built:
		t.Fatalf("the build ended before its progress was reported: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("the first build did not start")
	}

	answered := make(chan error, 1)
	go func() {
		_, err := b.Remember(ctx, daybook.RememberRequest{Text: "Zeppelin tickets booked for the fair", At: "2026-01-13 10:00"})
		if err == nil {
			_, err = b.Status(ctx, daybook.StatusRequest{})
		}
		if err == nil {
			var day daybook.DayResponse
			day, err = b.Day(ctx, daybook.DayRequest{Date: "2026-01-13"})
			if err == nil && len(day.Entries) != 1 {
				err = fmt.Errorf("day 2026-01-13 has %d entries, want 1", len(day.Entries))
			}
		}
		if err == nil {
			var found daybook.FindResponse
			found, err = b.Find(ctx, daybook.FindRequest{Pattern: "zeppelin"})
			if err == nil && len(found.Matches) != 1 {
				err = fmt.Errorf("find zeppelin: %d matches, want 1", len(found.Matches))
			}
		}
		answered <- err
	}()
	// The build stays held until the requests answered, or long past any
	// wait they could have (a loaded machine answers within seconds).
	select {
	case err := <-answered:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		letGo()
		t.Fatal("remember, status, day and find waited for the first build of the index")
	}
	select {
	case err := <-built:
		t.Fatalf("the build ended while held: %v", err)
	default:
	}
	letGo()
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	x, err := b.Index(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hits, err := x.Search(ctx, index.Query{Text: "zeppelin", Level: date.LevelEntry, K: 5})
	if err != nil || len(hits) != 1 {
		t.Fatalf("what remember wrote during the build is not indexed after it: %v %v", hits, err)
	}
}
