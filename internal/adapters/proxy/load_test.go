package proxy_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
)

// Twenty streaming conversations at once, each resending its history and
// retrying a turn: every turn is in the day files once. (The 60-second run
// with its RSS figure is BenchmarkConcurrentChats.)
func TestConcurrentChatsLoseAndDoubleNothing(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.OnChat(func(n int, req *api.ChatRequest) ollamatest.ChatReply {
		last := req.Messages[len(req.Messages)-1].Content
		return ollamatest.ChatReply{Content: "Answer to " + last + " here."}
	})
	const convs, turns = 20, 3
	var wg sync.WaitGroup
	errs := make(chan error, convs)
	for c := range convs {
		wg.Go(func() {
			cl := r.client()
			var hist []api.Message
			for i := range turns {
				hist = append(hist, api.Message{Role: "user", Content: fmt.Sprintf("conv %d turn %d", c, i)})
				var reply strings.Builder
				for try := 0; try < 1+i%2; try++ { // odd turns are sent twice
					reply.Reset()
					if err := cl.Chat(context.Background(), &api.ChatRequest{Model: "llama3.2", Messages: hist},
						func(cr api.ChatResponse) error { reply.WriteString(cr.Message.Content); return nil }); err != nil {
						errs <- err
						return
					}
				}
				hist = append(hist, api.Message{Role: "assistant", Content: reply.String()})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range r.chatEntries() {
		text, _, _ := strings.Cut(e.Text, " #chat/")
		count[text]++
	}
	for c := range convs {
		for i := range turns {
			u := fmt.Sprintf("user: conv %d turn %d", c, i)
			a := fmt.Sprintf("llama3.2: Answer to conv %d turn %d here.", c, i)
			if count[u] != 1 || count[a] != 1 {
				t.Errorf("%q ×%d, %q ×%d: want once each", u, count[u], a, count[a])
			}
		}
	}
	if n := len(r.chatEntries()); n != convs*turns*2 {
		t.Errorf("%d chat entries, want %d", n, convs*turns*2)
	}
}
