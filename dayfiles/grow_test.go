package dayfiles

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"
)

// TestParseGrownIsParse checks ParseGrown against Parse on random days cut
// anywhere (a byte, a line, an entry): the day parsed from the first part,
// grown to the whole, is the whole parsed at once, ids and errors
// included.
func TestParseGrownIsParse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	grown := 0
	for i := range 4000 {
		data := randomDay(rng)
		if rng.IntN(3) == 0 {
			data = append(data, randomDay(rng)...) // a second title, notes after entries
		}
		cut := rng.IntN(len(data) + 1)
		prevData := data[:cut]
		prev, err := Parse("f.md", goldenDay, prevData)
		if err != nil {
			continue
		}
		want, werr := Parse("f.md", goldenDay, data)
		got, gerr := ParseGrown("f.md", goldenDay, prev, data)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("case %d: errors differ on %q cut at %d: Parse %v, ParseGrown %v", i, data, cut, werr, gerr)
		}
		if werr == nil && !reflect.DeepEqual(want, got) {
			t.Fatalf("case %d: ParseGrown differs on %q cut at %d:\n%s", i, data, cut, diffDays(want, got))
		}
		if len(prev.Entries) > 0 {
			grown++
		}
	}
	if grown < 1000 {
		t.Fatalf("only %d of the cases had an entry to grow from", grown)
	}
}

// TestParseGrownAppendedEntries grows a day by the appends daybook makes,
// same texts at the same minute included (the "-2" ids).
func TestParseGrownAppendedEntries(t *testing.T) {
	data := []byte("# 2026-11-22 Sunday\n\n- 09:00 first #a\n- 09:05 [chat] user: hello\n")
	prev, err := Parse("f.md", goldenDay, data)
	if err != nil {
		t.Fatal(err)
	}
	for i, add := range []string{
		"- 09:05 [chat] user: hello\n",
		"- 09:06 [chat] llama3.2: a long answer\n  over two lines\n",
		"\n- 09:07 after a blank line\n",
		"  a continuation of the last entry\n",
		"A paragraph after them.\n",
		"- 09:05 [chat] user: hello\n", // a third at the same minute
	} {
		grownData := append(data[:len(data):len(data)], add...)
		want, _ := Parse("f.md", goldenDay, grownData)
		got, err := ParseGrown("f.md", goldenDay, prev, grownData)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("append %d (%q):\n%s", i, add, diffDays(want, got))
		}
		prev, data = got, grownData
	}
	if ids := prev.Entries; ids[len(ids)-1].ID[len(ids[len(ids)-1].ID)-2:] != "-3" {
		t.Fatalf("the third 09:05 hello: id %s, want a -3", ids[len(ids)-1].ID)
	}
}

// TestParseGrownEditedBefore: a day edited before its last entry and then
// grown (an editor's save, then a turn appended) is parsed whole, not from
// the day parsed before; one that is the same bytes gives that day back.
func TestParseGrownEditedBefore(t *testing.T) {
	data := []byte("# 2026-11-22 Sunday\n\n- 09:00 first\n- 09:05 second\n")
	prev, err := Parse("f.md", goldenDay, data)
	if err != nil {
		t.Fatal(err)
	}
	if same, _ := ParseGrown("f.md", goldenDay, prev, bytes.Clone(data)); same != prev {
		t.Fatal("the same bytes were parsed again")
	}
	for _, edited := range []string{
		"# 2026-11-22 Sunday\n\n- 09:00 FIRST\n- 09:05 second\n- 09:10 third\n",  // same length before the append
		"# 2026-11-22 Sunday\n\n- 09:00 first!\n- 09:05 second\n- 09:10 third\n", // longer
		"# 2026-11-22 Sunday\n\n- 09:00 first\n- 09:05 sec\n",                    // shorter
	} {
		want, _ := Parse("f.md", goldenDay, []byte(edited))
		got, err := ParseGrown("f.md", goldenDay, prev, []byte(edited))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%q:\n%s", edited, diffDays(want, got))
		}
	}
}

// TestParseGrownKeepsAClosedLastEntry: a turn appended after a day's last
// entry (a line of its own, after that entry's line ended) is parsed alone;
// the last entry before it is the one parsed before, not parsed and copied
// again. A continuation of the last entry is parsed with it.
func TestParseGrownKeepsAClosedLastEntry(t *testing.T) {
	data := []byte("# 2026-11-22 Sunday\n\n- 09:00 first\n- 09:05 [chat] user: hello\n")
	prev, err := Parse("f.md", goldenDay, data)
	if err != nil {
		t.Fatal(err)
	}
	grown := append(bytes.Clone(data), "\n- 09:06 [chat] llama3.2: hi\n"...)
	got, err := ParseGrown("f.md", goldenDay, prev, grown)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := Parse("f.md", goldenDay, grown); !reflect.DeepEqual(want, got) {
		t.Fatalf("grown:\n%s", diffDays(want, got))
	}
	if unsafe.StringData(got.Entries[1].Text) != unsafe.StringData(prev.Entries[1].Text) {
		t.Error("the last entry before the appended one was parsed again")
	}
	continued := append(bytes.Clone(data), "  and more of the same turn\n"...)
	got, err = ParseGrown("f.md", goldenDay, prev, continued)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := Parse("f.md", goldenDay, continued); !reflect.DeepEqual(want, got) {
		t.Fatalf("continued:\n%s", diffDays(want, got))
	}
}
