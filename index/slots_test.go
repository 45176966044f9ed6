package index

import (
	"strconv"
	"testing"
)

// testSlot returns the slot of id, -1 when it has none.
func (v *vectors) testSlot(id string) int32 {
	s, ok := v.slotOf(id)
	if !ok {
		return -1
	}
	return s
}

// slotMap returns every id with its slot.
func (v *vectors) slotMap() map[string]int32 {
	out := map[string]int32{}
	for s, id := range v.ids {
		if id != "" {
			if got, ok := v.slotOf(id); ok && got == int32(s) {
				out[id] = got
			}
		}
	}
	return out
}

// TestSlotIndex holds the table to a map through puts, deletes and puts
// again into freed slots, across its growth.
func TestSlotIndex(t *testing.T) {
	var x slotIndex
	var ids []string
	want := map[string]int32{}
	var free []int32
	for round := range 3 {
		for i := range 5000 {
			id := "2026-03-14T09:00-" + strconv.Itoa(round) + "-" + strconv.Itoa(i)
			var s int32
			if n := len(free); n > 0 {
				s, free = free[n-1], free[:n-1]
				ids[s] = id
			} else {
				s = int32(len(ids))
				ids = append(ids, id)
			}
			x.put(ids, id, s)
			want[id] = s
		}
		for i := 0; i < 5000; i += 3 {
			id := "2026-03-14T09:00-" + strconv.Itoa(round) + "-" + strconv.Itoa(i)
			if !x.del(ids, id) {
				t.Fatalf("del %s: not there", id)
			}
			free = append(free, want[id])
			ids[want[id]] = ""
			delete(want, id)
			if x.del(ids, id) {
				t.Fatalf("del %s twice", id)
			}
		}
	}
	if x.n != len(want) {
		t.Fatalf("the table holds %d ids; want %d", x.n, len(want))
	}
	for id, s := range want {
		if got, ok := x.get(ids, id); !ok || got != s {
			t.Fatalf("get %s = %d, %v; want %d", id, got, ok, s)
		}
	}
	if _, ok := x.get(ids, "2026-03-14T09:00-0-0"); ok {
		t.Fatal("a deleted id is found")
	}
	if len(x.t) > 4*len(want) {
		t.Errorf("%d entries for %d ids", len(x.t), len(want))
	}
}

func TestIDArena(t *testing.T) {
	var a idArena
	var got []string
	for i := range 10000 {
		got = append(got, a.string([]byte("id-"+strconv.Itoa(i))))
	}
	for i, s := range got {
		if s != "id-"+strconv.Itoa(i) {
			t.Fatalf("id %d reads %q", i, s)
		}
	}
}
