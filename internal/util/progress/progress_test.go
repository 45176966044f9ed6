package progress

import (
	"bytes"
	"strings"
	"testing"
)

// The bar says what it counts and how far it is, and none is drawn for work
// under the minimum.
func TestFunc(t *testing.T) {
	var out bytes.Buffer
	update, finish := Func(&out, "indexing", 50)
	update(1, 10)
	finish()
	if out.Len() != 0 {
		t.Fatalf("a bar for 10 steps under a minimum of 50: %q", out.String())
	}
	update, finish = Func(&out, "indexing", 50)
	update(0, 100)
	update(100, 100)
	finish()
	if s := out.String(); !strings.Contains(s, "indexing") || !strings.Contains(s, "/100)") {
		t.Errorf("the bar printed %q", s)
	}
}
