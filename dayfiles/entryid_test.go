package dayfiles

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/daybook/daybook/dayfiles/date"
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
		if got, want := string(NewEntryID(d, c.h, c.m, c.text, c.n)), oldEntryID(d, c.h, c.m, c.text, c.n); got != want {
			t.Errorf("EntryID = %s, want %s", got, want)
		}
	}
}

// The layout's parts, read back by the methods that own them.
func TestEntryIDParts(t *testing.T) {
	d := date.Date{Year: 2026, Month: 11, Day: 22}
	id := NewEntryID(d, 9, 14, "Chose Argon2 over bcrypt.", 2)
	base := string(NewEntryID(d, 9, 14, "Chose Argon2 over bcrypt.", 0))
	if id.Base() != base || EntryID(base).Base() != base {
		t.Errorf("Base of %s = %s, of %s = %s; want %s", id, id.Base(), base, EntryID(base).Base(), base)
	}
	if h := id.TextHash(); len(h) != 12 || !strings.Contains(base, "-"+h) {
		t.Errorf("TextHash of %s = %q", id, h)
	}
	if got, ok := id.Day(); !ok || got != d {
		t.Errorf("Day of %s = %v %v", id, got, ok)
	}
	if _, ok := EntryID("2026-11-22:L3").Day(); ok {
		t.Error("a line id read as an entry id")
	}
}

// TestAppendFieldsIsFieldsJoined checks the id's whitespace normalisation
// against strings.Fields joined by spaces, on texts of every kind of
// space, invalid UTF-8 and long runs: an id must never change with it.
func TestAppendFieldsIsFieldsJoined(t *testing.T) {
	pieces := []string{"a", "word", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\u00a0", "\u0085", "\u2003", "\u3000",
		"é", "日本", "\xff", "\xe2\x82", "#tag", "x\u200by", strings.Repeat("long", 300)}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		text := randomText(rnd, pieces, 12)
		want := strings.Join(strings.Fields(text), " ")
		if got := string(appendFields(nil, text)); got != want {
			t.Fatalf("case %d, %q: %q, want %q", i, text, got, want)
		}
	}
}

// randomText joins up to most pieces drawn at random.
func randomText(rnd *rand.Rand, pieces []string, most int) string {
	var b strings.Builder
	for range rnd.IntN(most) {
		b.WriteString(pieces[rnd.IntN(len(pieces))])
	}
	return b.String()
}
