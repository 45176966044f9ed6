package app

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// TestEvictOldestKeepsTheRecentlyUsed checks that a full cache drops its
// least recently used files, not every file: a conversation's next turn
// reads again the days the last turns read.
func TestEvictOldestKeepsTheRecentlyUsed(t *testing.T) {
	cache := map[string]parsedFile[*consolidate.Summary]{}
	for i := range 8 {
		cache[string(rune('a'+i))] = parsedFile[*consolidate.Summary]{used: uint64(10 + i)}
	}
	cache["a"] = parsedFile[*consolidate.Summary]{used: 99} // the oldest, used again just now
	evictOldest(cache, 2)
	if len(cache) != 6 {
		t.Fatalf("%d files kept, want 6 of 8", len(cache))
	}
	for _, k := range []string{"b", "c"} {
		if _, ok := cache[k]; ok {
			t.Errorf("%s, among the two least recently used, was kept", k)
		}
	}
	if _, ok := cache["a"]; !ok {
		t.Error("a, used last, was dropped")
	}
}

// TestDayGrowsFromWhatWasRead checks that a day file appended to since it
// was read (and reported, as a write through the App reports it) is parsed
// from its last entry on: the entries before are those read before, and the
// day is the one the whole file parses to.
func TestDayGrowsFromWhatWasRead(t *testing.T) {
	c, d, path, _, first := chatDayRead(t)
	for i, add := range []string{"- 09:02 [chat] user: and after\n", "- 09:03 [chat] llama3.2: lunch with Ana\n  at one\n"} {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(add); err != nil {
			t.Fatal(err)
		}
		f.Close()
		c.changedDays([]date.Date{d})
		got, err := c.Day(d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := dayfiles.ParseFile(path, d)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("append %d: the day kept is not the file's:\n%+v\n%+v", i, got, want)
		}
		if unsafe.StringData(got.Entries[0].Text) != unsafe.StringData(first.Entries[0].Text) {
			t.Fatalf("append %d: the first entry was parsed again", i)
		}
	}
}

// TestIndexParsesTheKeptDay checks ParseDay, the index's parse of a day it
// read: a kept day that the content grew from is grown (its first entry not
// parsed again) and replaces the kept one, which the next context then
// gives without parsing; content that did not grow from it is parsed
// whole; a day not kept stays not kept.
func TestIndexParsesTheKeptDay(t *testing.T) {
	c, d, path, text, first := chatDayRead(t)
	grown := text + "- 09:02 [chat] user: and after\n"
	if err := os.WriteFile(path, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	c.changedDays([]date.Date{d})
	got, err := c.ParseDay(path, d, []byte(grown))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := dayfiles.Parse(path, d, []byte(grown))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the grown day is not the file's:\n%+v\n%+v", got, want)
	}
	if unsafe.StringData(got.Entries[0].Text) != unsafe.StringData(first.Entries[0].Text) {
		t.Fatal("the first entry was parsed again")
	}
	if again, err := c.Day(d); err != nil || again != got {
		t.Fatalf("the context's next read parsed again (%v): the index's day was not kept", err)
	}

	edited := "# 2026-03-11\n\n- 09:00 [chat] user: what is on TODAY\n- 09:01 [chat] llama3.2: the dentist at ten\n- 09:02 [chat] user: and after\n"
	got, err = c.ParseDay(path, d, []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := dayfiles.Parse(path, d, []byte(edited)); !reflect.DeepEqual(got, want) {
		t.Fatalf("an edited day was not parsed whole:\n%+v\n%+v", got, want)
	}

	other := date.MustParse("2026-03-10")
	if _, err := c.ParseDay(dayfiles.Path(c.dir, other), other, []byte("- 10:00 a day not kept\n")); err != nil {
		t.Fatal(err)
	}
	if _, kept := c.dayCache[other]; kept {
		t.Fatal("a day the index read but no context did was kept")
	}
}

// chatDayRead writes a day of two chat turns in a new data dir and reads it
// through a new contextFiles: the files, the day, its path and text, and
// the day read.
func chatDayRead(t *testing.T) (*contextFiles, date.Date, string, string, *dayfiles.Day) {
	t.Helper()
	dir := t.TempDir()
	d := date.MustParse("2026-03-11")
	path := dayfiles.Path(dir, d)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	text := "# 2026-03-11\n\n- 09:00 [chat] user: what is on today\n- 09:01 [chat] llama3.2: the dentist at ten\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newContextFiles(dir)
	first, err := c.Day(d)
	if err != nil {
		t.Fatal(err)
	}
	return c, d, path, text, first
}
