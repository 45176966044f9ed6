package main

import (
	"strings"
	"testing"
)

// The global flags are found where daybook-core takes them: before the
// command and among its arguments, up to "--".
func TestGlobals(t *testing.T) {
	for line, want := range map[string]globals{
		"recall x":                               {},
		"--dir a recall x":                       {dir: "a"},
		"-dir=a --config c recall x":             {dir: "a", config: "c"},
		"recall x --dir b":                       {dir: "b"},
		"--dir a recall --config=c x -dir b":     {dir: "b", config: "c"},
		"recall --limit 3 -- --dir b":            {},
		"-v recall -3d --dir=b":                  {dir: "b"},
		"--dir a recall --directory b --dirty c": {dir: "a"},
	} {
		g, rest, err := parseGlobal(strings.Fields(line))
		if err != nil || len(rest) == 0 {
			t.Errorf("%q: %v, %q", line, err, rest)
			continue
		}
		if got := g.after(rest[1:]); got != want {
			t.Errorf("%q: %+v, want %+v", line, got, want)
		}
	}
}
