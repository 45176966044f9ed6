package proxy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/adapters/proxy"
)

// A 10 MB paste through the proxy is kept whole, in a rest file its entry
// links to, and the day stays writable: a remember and a small chat after
// it both succeed. (Before, the paste was cut into 118 entries that filled
// the day to its 8 MiB limit, and every later write of the day failed.)
func TestTenMBPasteKeepsTheDayWritable(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.Reply("Got it.")
	var b strings.Builder
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "line %d of the pasted log: GET /api/items?page=%d 200 in %d ms\n", i, i, i%97)
		if i%40 == 39 {
			b.WriteString("\n")
		}
	}
	paste := b.String()
	stream := true
	start := time.Now()
	chatVia(t, r.client(), &api.ChatRequest{Model: "llama3.2", Stream: &stream,
		Messages: []api.Message{{Role: "user", Content: paste}}})
	t.Logf("a %.1f MB paste through the proxy took %v", float64(len(paste))/1e6, time.Since(start).Round(time.Millisecond))
	if n := r.proxy.Pending(); n != 0 {
		t.Fatalf("%d turns spooled after the paste", n)
	}
	if _, err := r.app.Remember(context.Background(), daybook.RememberRequest{Text: "Written after the paste."}); err != nil {
		t.Fatalf("remember after the paste: %v", err)
	}
	if got := chatVia(t, r.client(), &api.ChatRequest{Model: "llama3.2",
		Messages: []api.Message{{Role: "user", Content: "And a small question after it."}}}); got != "Got it." {
		t.Errorf("small chat got %q", got)
	}
	es := r.chatEntries()
	if len(es) != 4 {
		t.Fatalf("%d chat entries, want the paste, its answer, the small question and its answer", len(es))
	}
	if !strings.HasPrefix(es[0].Text, "user: line 0 of the pasted log") || len(es[0].Text) > dayfiles.MaxEntryText {
		t.Errorf("the paste's entry is %d bytes, starting %.60q", len(es[0].Text), es[0].Text)
	}
	rel := restLink(t, es[0].Text)
	whole, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(rel)))
	if err != nil || string(whole) != "user: "+strings.TrimSpace(paste) {
		t.Fatalf("rest file %s holds %d bytes (%v), want the whole paste, %d", rel, len(whole), err, len(paste))
	}
	if !strings.HasPrefix(es[2].Text, "user: And a small question") {
		t.Errorf("entries: %.80q", texts(es))
	}
	day := dayfiles.Path(r.dir, es[0].Day)
	fi, err := os.Stat(day)
	if err != nil || fi.Size() > 200<<10 {
		t.Errorf("the day file is %d bytes (%v): a paste should add an entry's worth", fi.Size(), err)
	}
}

// A turn with a NUL byte is cleaned and written, never spooled, and the
// answer carries no warning. (Before, it was spooled for ever while the
// answer said it "is kept and written later".)
func TestNULByteIsCleanedNotSpooled(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.Reply("Fine.")
	status, h, _ := postJSON(t, r.srv.URL+"/api/chat", api.ChatRequest{Model: "llama3.2",
		Messages: []api.Message{{Role: "user", Content: "a NUL\x00 inside and caf\xe9 bytes"}}}, nil)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	if w := h.Values(proxy.HeaderWarning); len(w) != 0 {
		t.Errorf("warnings %q", w)
	}
	if n := r.proxy.Pending(); n != 0 {
		t.Errorf("%d turns spooled", n)
	}
	es := r.chatEntries()
	if len(es) != 2 || !strings.HasPrefix(es[0].Text, "user: a NUL inside and caf") {
		t.Errorf("entries %q", texts(es))
	}
}
