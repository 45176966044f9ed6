package merge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// TestUnrecordedAppendRefused: while the base cannot be written (here
// state/merge is a file, so nothing can be created under it: what a full
// disk does to the base while the day file's last page still has room),
// an append is refused with an error that names the base, and the day
// file is left as it was. Once the base can be written again, a stale
// copy saved over the file loses none of the entries that were
// acknowledged, before, during or after.
func TestUnrecordedAppendRefused(t *testing.T) {
	r := newRig(t)
	acked := map[string]bool{}
	try := func(hhmm, text string) error {
		at, _ := time.Parse("2006-01-02 15:04", day.String()+" "+hhmm)
		_, err := r.k.Append([]dayfiles.NewEntry{{At: at, Text: text}}, nil)
		if err == nil {
			acked[hhmm+" "+text] = true
		}
		return err
	}
	for i := range 5 {
		if err := try(fmt.Sprintf("08:%02d", i), fmt.Sprintf("before %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	stale := r.read()
	state := filepath.Join(r.root, filepath.FromSlash(StateDir))
	if err := os.Rename(state, state+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, []byte("not a folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := r.read()
	for i := range 10 {
		err := try(fmt.Sprintf("09:%02d", i), fmt.Sprintf("while the base is unwritable %d", i))
		if err == nil {
			continue
		}
		if !strings.Contains(err.Error(), "merge base") || !strings.Contains(err.Error(), "nothing was written") {
			t.Errorf("the error does not say the base could not be written and nothing was: %v", err)
		}
	}
	if len(acked) == 5 && r.read() != before {
		t.Errorf("refused appends changed the day file:\n%s", r.read())
	}
	os.Remove(state)
	if err := os.Rename(state+".away", state); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := try(fmt.Sprintf("10:%02d", i), fmt.Sprintf("after %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	r.restart()
	r.save(stale)
	r.k.Changed([]date.Date{day})
	have := texts(t, []byte(r.read()))
	lost, doubled := 0, 0
	for s := range acked {
		switch n := have[s]; {
		case n == 0:
			lost++
			t.Errorf("acknowledged %q is lost", s)
		case n > 1:
			doubled++
			t.Errorf("%q is there %d times", s, n)
		}
	}
	t.Logf("%d acknowledged, %d lost, %d doubled", len(acked), lost, doubled)
}
