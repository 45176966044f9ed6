package dayfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/util/date"
)

func oldEntryID(d date.Date, hour, minute int, text string, n int) string {
	sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text), " ")))
	id := fmt.Sprintf("%sT%02d:%02d-%s", d, hour, minute, hex.EncodeToString(sum[:6]))
	if n > 1 {
		id += fmt.Sprintf("-%d", n)
	}
	return id
}

func TestEntryIDUnchanged(t *testing.T) {
	for _, c := range []struct {
		d       string
		h, m, n int
		text    string
	}{{"2026-11-22", 9, 14, 1, "Chose  Argon2\\n  over bcrypt. #auth"}, {"0999-01-02", 0, 0, 2, ""}, {"2024-02-29", 23, 59, 12, strings.Repeat("long words ", 100)}} {
		d := date.MustParse(c.d)
		if got, want := EntryID(d, c.h, c.m, c.text, c.n), oldEntryID(d, c.h, c.m, c.text, c.n); got != want {
			t.Errorf("EntryID = %s, want %s", got, want)
		}
	}
}
