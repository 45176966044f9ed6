package gen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// Changed facts: each question's current statement is in its day file,
// every old value was stated on an earlier day, an echo is a captured
// Claude Code turn with an old value after the change; the planted facts
// are those of the same corpus without updates, and a corpus without them
// has no updates file.
func TestPlantedUpdates(t *testing.T) {
	o := Options{Years: 2, Seed: 5, End: testEnd}
	plain, _ := write(t, o)
	o.Updates = 20
	dir, st := write(t, o)
	if _, err := os.Stat(filepath.Join(plain, UpdatesFile)); !os.IsNotExist(err) {
		t.Errorf("a corpus without --updates has %s (%v)", UpdatesFile, err)
	}
	f1, _ := os.ReadFile(filepath.Join(plain, FactsFile))
	f2, _ := os.ReadFile(filepath.Join(dir, FactsFile))
	if !bytes.Equal(f1, f2) {
		t.Error("the planted facts changed with --updates")
	}
	f, err := os.Open(filepath.Join(dir, UpdatesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var us []Update
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var u Update
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			t.Fatal(err)
		}
		us = append(us, u)
	}
	if len(us) != st.Updates || len(us) < 15 {
		t.Fatalf("%d updates, stats say %d; want about 20", len(us), st.Updates)
	}
	entries := map[string][]dayfiles.Entry{}
	day := func(d string) []dayfiles.Entry {
		if es, ok := entries[d]; ok {
			return es
		}
		p, err := dayfiles.ParseFile(dayfiles.Path(dir, date.MustParse(d)), date.MustParse(d))
		if err != nil {
			t.Fatal(err)
		}
		entries[d] = p.Entries
		return p.Entries
	}
	files, err := dayfiles.List(dir, date.Range{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	changes, echoes := map[int]int{}, 0
	for _, u := range us {
		changes[u.Changes]++
		if !slices.ContainsFunc(day(u.Day), func(e dayfiles.Entry) bool { return strings.HasPrefix(e.Text, u.Text+" #") }) || !strings.Contains(u.Text, u.Current) {
			t.Errorf("%q: %s holds no entry %q with %q", u.Q, u.Day, u.Text, u.Current)
		}
		if len(u.Old) != u.Changes {
			t.Errorf("%q: %d old values for %d changes", u.Q, len(u.Old), u.Changes)
		}
		for _, old := range u.Old {
			found, echoed := false, false
			for _, fl := range files {
				for _, e := range day(fl.Date.String()) {
					if !strings.Contains(e.Text, old) {
						continue
					}
					switch {
					case fl.Date.String() < u.Day && !slices.Contains(e.Tags, "claude-code"):
						found = true
					case fl.Date.String() > u.Day && strings.HasPrefix(e.Text, "Assistant: ") && slices.Contains(e.Tags, "claude-code"):
						echoed = true
					}
				}
			}
			if !found {
				t.Errorf("%q: old value %q is in no entry before %s", u.Q, old, u.Day)
			}
			if echoed {
				echoes++
			}
		}
	}
	if changes[1] == 0 || changes[2] == 0 || changes[3] == 0 || echoes == 0 {
		t.Errorf("changes %v, %d echoes: want facts changed once, twice and three times, some echoed", changes, echoes)
	}
}
