package merge

import (
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

var day = date.MustParse("2026-11-24")

func texts(t *testing.T, content []byte) map[string]int {
	t.Helper()
	d, err := dayfiles.Parse("t", day, content)
	if err != nil {
		t.Fatalf("%v\n%s", err, content)
	}
	out := map[string]int{}
	for _, e := range d.Entries {
		out[e.Clock()+" "+e.Text]++
	}
	return out
}

func TestThreeUnionAndDeletions(t *testing.T) {
	base := "# 2026-11-24 Tuesday\n\n- 08:00 shared\n- 08:01 removed on theirs\n- 08:02 removed on ours\n- 08:03 edited on theirs\n"
	ours := "# 2026-11-24 Tuesday\n\n- 08:00 shared\n- 08:01 removed on theirs\n- 08:03 edited on theirs\n- 09:00 added on ours\n- 10:00 added on both\n"
	theirs := "# 2026-11-24 Tuesday\n\n- 08:00 shared\n- 08:02 removed on ours\n- 08:03 edited, on theirs\n- 09:30 added on theirs\n- 10:00 added on both\n"
	out, err := Three(day, []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	got := texts(t, out)
	want := map[string]int{"08:00 shared": 1, "08:03 edited, on theirs": 1, "09:00 added on ours": 1, "09:30 added on theirs": 1, "10:00 added on both": 1}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%q: %d, want %d", k, got[k], n)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %v\n%s", got, out)
	}
	// Merging the other way round holds the same entries.
	back, err := Three(day, []byte(base), []byte(theirs), []byte(ours))
	if err != nil {
		t.Fatal(err)
	}
	if g := texts(t, back); len(g) != len(want) {
		t.Errorf("the other way round: %v", g)
	}
}

func TestThreeWithoutBaseKeepsBoth(t *testing.T) {
	ours := "# 2026-11-24 Tuesday\n\n- 08:00 from machine A number 1\n"
	theirs := "# 2026-11-24 Tuesday\n\n- 08:00 from machine B number 1\n"
	out, err := Three(day, nil, []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if g := texts(t, out); g["08:00 from machine A number 1"] != 1 || g["08:00 from machine B number 1"] != 1 {
		t.Errorf("%v\n%s", g, out)
	}
}

func TestThreeKeepsBothSidesNotes(t *testing.T) {
	base := "# 2026-11-24 Tuesday\n\n- 08:00 shared\n"
	ours := "# 2026-11-24 Tuesday\n\nA paragraph written on ours.\n\n- 08:00 shared\n"
	theirs := "# 2026-11-24 Tuesday\n\nA paragraph written on theirs.\n\n- 08:00 shared\n- 09:00 theirs\n"
	out, err := Three(day, []byte(base), []byte(ours), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{"written on ours", "written on theirs", keptHeading, "- 09:00 theirs"} {
		if !strings.Contains(s, want) {
			t.Errorf("the merge lacks %q:\n%s", want, s)
		}
	}
	// Only theirs changed the notes: theirs is the frame, no heading.
	out, err = Three(day, []byte(base), []byte(base+"- 10:00 ours\n"), []byte(theirs))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(out); strings.Contains(s, keptHeading) || !strings.Contains(s, "written on theirs") || !strings.Contains(s, "- 10:00 ours") {
		t.Errorf("%s", s)
	}
}

func TestThreeRefusesConflictMarkers(t *testing.T) {
	marked := "# d\n\n<<<<<<< HEAD\n- 08:00 a\n=======\n- 08:00 b\n>>>>>>> x\n"
	if _, err := Three(day, nil, []byte(marked), []byte("- 08:00 c\n")); err == nil || !strings.Contains(err.Error(), "conflict markers") {
		t.Fatalf("err = %v", err)
	}
}
