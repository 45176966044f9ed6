package main

import (
	"fmt"
	"strings"

	"github.com/daybook/daybook/api"
)

// importSummary is the one sentence "daybook import" ends with, and the
// error it exits 1 with when lines were bad (nil when none were): what was
// added, what was there already and what was left out, in words that agree
// with each other and with their numbers.
func importSummary(r api.ImportResponse) (string, error) {
	var b strings.Builder
	if r.Added == 0 {
		b.WriteString("imported no new entries")
	} else {
		fmt.Fprintf(&b, "imported %s into %s", nOf(r.Added, "entry", "entries"), nOf(r.Days, "day", "days"))
	}
	switch {
	case r.Skipped == 0:
	case r.Added == 0 && r.Skipped == 1:
		b.WriteString("; the 1 entry was already there")
	case r.Added == 0:
		fmt.Fprintf(&b, "; all %d were already there", r.Skipped)
	default:
		fmt.Fprintf(&b, "; %s already there", nOf(r.Skipped, "was", "were"))
	}
	n := len(r.Rejected)
	if n == 0 {
		return b.String(), nil
	}
	fmt.Fprintf(&b, "; %s left out (listed above)", nOf(n, "bad line", "bad lines"))
	return b.String(), fmt.Errorf("import: %s not imported", nOf(n, "bad line was", "bad lines were"))
}

// count writes n with the singular or the plural: "1 day", "3 days", and
// for a verb, "1 was", "2 were".
func nOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
