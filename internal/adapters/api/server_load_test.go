package api_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/adapters/api"
)

// TestManyClients runs 50 clients against one server for a few seconds,
// each remembering, finding and recalling in turn: no request may fail, and
// every entry remembered must be in its day file exactly once, at the line
// the answer named.
func TestManyClients(t *testing.T) {
	const clients = 50
	run := 3 * time.Second
	if testing.Short() {
		run = 500 * time.Millisecond
	}
	a := newApp(t)
	f := serve(t, a)
	ctx := context.Background()

	type written struct {
		text string
		resp daybook.RememberResponse
	}
	var (
		mu   sync.Mutex
		all  []written
		errs []error
		ops  int
	)
	deadline := time.Now().Add(run)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			client := api.NewClient(f.socket) // a client of its own, as each CLI process has
			defer client.Close()
			fail := func(err error) {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
			for i := 0; time.Now().Before(deadline); i++ {
				text := fmt.Sprintf("client%02d wrote note%05d", c, i)
				// Half the clients share today's file, the others spread over ten days.
				req := daybook.RememberRequest{Text: text}
				if c%2 == 1 {
					req.At = fmt.Sprintf("2026-03-%02d %02d:%02d", i%10+1, c%24, i%60)
				}
				resp, err := client.Remember(ctx, req)
				if err != nil {
					fail(fmt.Errorf("client %d remember %d: %w", c, i, err))
					continue
				}
				mu.Lock()
				all = append(all, written{text, resp})
				ops++
				mu.Unlock()
				switch i % 3 {
				case 0:
					found, err := client.Find(ctx, daybook.FindRequest{Pattern: fmt.Sprintf("client%02d wrote", c), Limit: 5})
					if err != nil {
						fail(fmt.Errorf("client %d find: %w", c, err))
					} else if len(found.Matches) == 0 {
						fail(fmt.Errorf("client %d find: its own entries not found", c))
					}
				case 1:
					if _, err := client.Recall(ctx, daybook.RecallRequest{Query: fmt.Sprintf("note%05d", i)}); err != nil {
						fail(fmt.Errorf("client %d recall: %w", c, err))
					}
				case 2:
					if _, err := client.Status(ctx, daybook.StatusRequest{Brief: true}); err != nil {
						fail(fmt.Errorf("client %d status: %w", c, err))
					}
				}
				mu.Lock()
				ops++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if i == 10 {
			t.Errorf("... and %d more errors", len(errs)-10)
			break
		}
		t.Error(err)
	}
	t.Logf("%d clients, %v: %d requests, %d entries remembered", clients, run, ops, len(all))
	if len(all) < clients {
		t.Fatalf("only %d entries remembered by %d clients", len(all), clients)
	}

	files := map[string][]string{}
	for _, w := range all {
		lines, ok := files[w.resp.Path]
		if !ok {
			data, err := os.ReadFile(filepath.Join(a.Dir(), w.resp.Path))
			if err != nil {
				t.Fatal(err)
			}
			lines = strings.Split(string(data), "\n")
			files[w.resp.Path] = lines
		}
		if w.resp.Line < 1 || w.resp.Line > len(lines) || !strings.HasSuffix(lines[w.resp.Line-1], " "+w.text) {
			t.Errorf("%q: answer said %s:%d, which is not its line", w.text, w.resp.Path, w.resp.Line)
		}
	}
	seen := map[string]int{}
	for _, lines := range files {
		for _, l := range lines {
			if i := strings.Index(l, "client"); i >= 0 {
				seen[l[i:]]++
			}
		}
	}
	for _, w := range all {
		if n := seen[w.text]; n != 1 {
			t.Errorf("%q is in the day files %d times", w.text, n)
		}
	}
	if len(seen) != len(all) {
		t.Errorf("the day files hold %d entries, %d were remembered", len(seen), len(all))
	}
}
