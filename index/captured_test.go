package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/models/offline"
)

// TestCapturedTurnsDoNotMoveThePersonsScores checks that what the loop
// writes is weighed apart: the same queries score the person's entries
// and day summaries exactly the same before and after 1,000 captured turns
// that use the same words are added, while those turns are found by
// them, and a fact only a captured turn holds is found first.
func TestCapturedTurnsDoNotMoveThePersonsScores(t *testing.T) {
	words := strings.Fields("ledger invoice server rack boiler serial vet paprika telescope wifi chalet rent studio flag launch provider")
	rnd := rand.New(rand.NewPCG(5, 6))
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rnd.IntN(len(words))] + " ")
		}
		return b.String()
	}
	var person docList
	first := date.MustParse("2024-01-01")
	for i := range 120 {
		d := first.AddDays(i)
		person = append(person, Doc{ID: "day:" + d.String(), Level: date.LevelDay, Period: d.String(), Kind: "summary", Text: text(10), Start: d, End: d})
		for j := range 3 {
			person = append(person, Doc{ID: fmt.Sprintf("%s:e%d", d, j), Level: date.LevelEntry, Period: d.String(), Kind: "note", Text: text(3 + rnd.IntN(8)), Start: d, End: d})
		}
	}
	// The loop's turns: the words "server", "rack" and "launch" on almost
	// every one, which, weighed with the person's, would make them common.
	var loop docList
	for i := range 1000 {
		d := first.AddDays(i % 120)
		tags := []string{"claude-code", fmt.Sprintf("session-%08x", i/10)}
		loop = append(loop, Doc{ID: fmt.Sprintf("%s:c%d", d, i), Level: date.LevelEntry, Period: d.String(), Kind: "note",
			Text: "User: server rack launch " + text(4) + " #claude-code #" + tags[1], Tags: tags, Start: d, End: d})
	}
	fact := first.AddDays(77)
	loop = append(loop, Doc{ID: fact.String() + ":fact", Level: date.LevelEntry, Period: fact.String(), Kind: "note",
		Text: "Assistant: the staging zeppelin passphrase is plover-42. #claude-code", Tags: []string{"claude-code"}, Start: fact, End: fact})

	queries := []Query{
		{Text: "server rack", Level: date.LevelEntry},
		{Text: "launch provider wifi", Level: date.LevelEntry},
		{Text: "boiler serial", Level: date.LevelEntry, Range: date.Range{From: first.AddDays(20), To: first.AddDays(90)}},
		{Text: "server launch", Level: date.LevelDay},
	}
	ctx := context.Background()
	scores := func(docs docList) ([]map[string]float64, []int) {
		x, err := Open(ctx, filepath.Join(t.TempDir(), "index"), Options{Embedder: offline.NewEmbedder()})
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		if _, err := x.Sync(ctx, false, docs); err != nil {
			t.Fatal(err)
		}
		var out []map[string]float64
		var loops []int
		for _, q := range queries {
			q.K = len(docs)
			hits, err := x.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			m, n := map[string]float64{}, 0
			for _, h := range hits {
				if h.Captured {
					n++
					continue
				}
				m[h.ID] = h.BM25
			}
			out, loops = append(out, m), append(loops, n)
		}
		if len(loop) > 0 && len(docs) > len(person) {
			hits, err := x.Search(ctx, Query{Text: "zeppelin passphrase", Level: date.LevelEntry, K: 5})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 || hits[0].ID != fact.String()+":fact" || !hits[0].Captured {
				t.Errorf("the captured-only fact: hits %v, want %s first", hits, fact.String()+":fact")
			}
		}
		return out, loops
	}
	clean, _ := scores(person)
	mixed, loops := scores(append(append(docList{}, person...), loop...))
	for i, q := range queries {
		if len(clean[i]) == 0 {
			t.Fatalf("%q finds none of the person's documents", q.Text)
		}
		if q.Level == date.LevelEntry && q.Text != "boiler serial" && loops[i] == 0 {
			t.Errorf("%q finds none of the captured turns that hold its words", q.Text)
		}
		if len(mixed[i]) != len(clean[i]) {
			t.Errorf("%q: %d of the person's documents found with the captured turns, %d without", q.Text, len(mixed[i]), len(clean[i]))
		}
		for id, s := range clean[i] {
			if g, ok := mixed[i][id]; !ok || math.Abs(g-s) > 1e-12*math.Max(1, s) {
				t.Errorf("%q: %s scores %.15f with the captured turns, %.15f without", q.Text, id, g, s)
			}
		}
	}
}
