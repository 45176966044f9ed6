package index

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
)

// TestOrphansKeptMatchFound checks the orphans kept between writes against
// the ones found afresh, after each of many random writes: entries and
// summaries put, moved to another parent and deleted, stored and waiting
// for vectors. The kept ones are given again only while the store's shape
// did not change; a write the shape does not count would show here.
func TestOrphansKeptMatchFound(t *testing.T) {
	v := &VectorStore{vec: newVectors(4), pending: map[string]vecMeta{}, pendingGroups: map[groupKey]int{}}
	rng := rand.New(rand.NewPCG(3, 4))
	days := []string{"2026-03-01", "2026-03-02", "2026-04-01", "2027-01-05"}
	ids := map[string]vecMeta{}
	randomDoc := func() (string, vecMeta) {
		d := date.MustParse(days[rng.IntN(len(days))])
		switch rng.IntN(4) {
		case 0:
			return "day:" + d.String(), vecMeta{level: date.LevelDay, parent: d.String()[:7]}
		case 1:
			return "month:" + d.String()[:7], vecMeta{level: date.LevelMonth, parent: d.String()[:4]}
		default:
			return fmt.Sprintf("%sT09:0%d-x", d, rng.IntN(3)), vecMeta{level: date.LevelEntry, parent: d.String()}
		}
	}
	kept := 0
	for step := range 3000 {
		id, m := randomDoc()
		v.lockWrite()
		switch op := rng.IntN(5); {
		case op < 2:
			v.vec.put(id, m, []float32{1, 2, 3, 4})
			v.dropPending(id)
		case op == 2:
			if _, stored := ids[id]; !stored {
				v.addPending(id, m)
			}
		case op == 3:
			v.vec.del(id)
			v.dropPending(id)
		default:
			v.dropPending(id)
		}
		if v.vec.has(id) {
			ids[id] = m
		} else {
			delete(ids, id)
		}
		v.unlockWrite()
		before := v.orphans.shape + v.orphans.pshape
		for _, level := range []date.Level{date.LevelMonth, date.LevelDay, date.LevelEntry} {
			got := fmt.Sprint(v.Orphans(level, date.Range{}))
			v.mu.RLock()
			var want []string
			for _, o := range v.findOrphans(level) {
				want = append(want, o.parent)
			}
			v.mu.RUnlock()
			if got != fmt.Sprint(want) {
				t.Fatalf("step %d, level %s: kept orphans %s, found %v", step, level, got, want)
			}
		}
		if v.orphans.shape+v.orphans.pshape == before {
			kept++
		}
	}
	if kept < 300 {
		t.Fatalf("the orphans were kept across only %d of 3000 writes", kept)
	}
}
