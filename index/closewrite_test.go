package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// gateEmbedder is the offline embedder; once armed, its next call tells
// entered and waits for release.
type gateEmbedder struct {
	countingEmbedder
	armed   chan struct{} // closed: the next call waits
	entered chan struct{}
	release chan struct{}
}

func (e *gateEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	select {
	case <-e.armed:
		close(e.entered)
		<-e.release
	default:
	}
	return e.countingEmbedder.Embed(ctx, texts)
}

// A write that was embedding when Close came writes nothing after it:
// Close has let go of the open lock, and the next process may be reading
// the vector files.
func TestWriteInFlightAtCloseWritesNothingAfter(t *testing.T) {
	root := t.TempDir()
	emb := &gateEmbedder{armed: make(chan struct{}), entered: make(chan struct{}), release: make(chan struct{})}
	x := openTest(t, root, emb)
	rel := writeFile(t, root, "2026-02-13", "# 2026-02-13 Friday\n\n- 09:00 Chose Argon2 over bcrypt\n")
	dir := filepath.Join(root, "index")
	before := filesOf(dir)
	close(emb.armed)
	done := make(chan error, 1)
	go func() {
		_, err := x.SyncPaths(context.Background(), []string{rel}, DayFiles{Root: root})
		done <- err
	}()
	<-emb.entered
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	close(emb.release)
	if err := <-done; err == nil {
		t.Error("a write that outlived Close reported no error")
	}
	if _, err := os.Stat(filepath.Join(dir, vecLogName)); err == nil {
		t.Errorf("%s written after Close", vecLogName)
	}
	after := filesOf(dir)
	for _, name := range []string{metaName, vecBinName} {
		p := filepath.Join(dir, name)
		if before[p] != after[p] {
			t.Errorf("%s changed after Close: %v -> %v", name, before[p], after[p])
		}
	}
}
