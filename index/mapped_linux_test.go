package index_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/models/offline"
)

// mappedRSS returns the resident kB of this process's mappings of the
// segments and the vector image under dir (the bolt root is not dropped).
func mappedRSS(t *testing.T, dir string) int {
	t.Helper()
	dir, _ = filepath.EvalSymlinks(dir)
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	defer f.Close()
	in, kb := false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		switch {
		case len(fs) >= 5 && strings.Contains(fs[0], "-") && !strings.HasSuffix(fs[0], ":"):
			in = len(fs) >= 6 && strings.HasPrefix(fs[5], dir+"/") &&
				(strings.HasSuffix(fs[5], ".zap") || strings.HasSuffix(fs[5], "/vectors.bin"))
		case in && len(fs) >= 2 && fs[0] == "Rss:":
			n, _ := strconv.Atoi(fs[1])
			kb += n
		}
	}
	return kb
}

// TestDropMapped holds DropMapped to its word: after it, no page of the
// index's files is resident in this process, and searches answer as they
// did.
func TestDropMapped(t *testing.T) {
	root := t.TempDir()
	for d := 1; d <= 28; d++ {
		var texts []string
		for i := range 20 {
			texts = append(texts, "Note "+strconv.Itoa(i)+" of the day about the fence, the garden and password "+strconv.Itoa(d*i))
		}
		daybooktest.Entries(t, root, "2026-02-"+strconv.Itoa(100 + d)[1:], texts...)
	}
	x := open(t, root, offline.NewEmbedder())
	sync(t, x, root)
	x.Close()
	x = open(t, root, offline.NewEmbedder()) // the vector codes mapped from the image
	defer x.Close()
	ctx := context.Background()
	search := func() []string {
		hits, err := x.Search(ctx, index.Query{Text: "garden password", Level: date.LevelEntry, K: 50})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, h.ID+" "+h.Text)
		}
		return out
	}
	nearest := func() []index.VecHit {
		q, err := x.EmbedQuery(ctx, "garden password")
		if err != nil {
			t.Fatal(err)
		}
		return x.Nearest(index.Query{Level: date.LevelEntry, K: 20}, q)
	}
	before, beforeVec := search(), nearest()
	if len(before) == 0 || len(beforeVec) == 0 {
		t.Fatal("no hits")
	}
	dir := filepath.Join(root, "index")
	if mappedRSS(t, dir) == 0 {
		t.Fatal("no page of the index is resident after a search: nothing to test")
	}
	// Scorch's own goroutines (its persister, its merger) may read a page
	// back between the drop and the look: drop again until a look finds
	// none, as it must once they rest.
	kb := -1
	for i := 0; i < 100 && kb != 0; i++ {
		if n := x.DropMapped(); n == 0 {
			t.Fatal("DropMapped found no mapping of the index")
		}
		kb = mappedRSS(t, dir)
		runtime.Gosched()
	}
	if kb != 0 {
		t.Errorf("%d kB of the index's files still resident after DropMapped", kb)
	}
	if after := search(); !slices.Equal(after, before) {
		t.Errorf("after DropMapped the search returns %v; before %v", after, before)
	}
	if after := nearest(); !slices.Equal(after, beforeVec) {
		t.Errorf("after DropMapped the vector search returns %v; before %v", after, beforeVec)
	}
}
