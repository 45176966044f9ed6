package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// PrintSynopsis prints c's usage line, summary and help.
func PrintSynopsis(w io.Writer, c Command) {
	fmt.Fprintf(w, "Usage: daybook %s %s\n\n%s.\n", c.Name, c.Args, UpperFirst(c.Summary))
	if c.Help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.Help))
	}
}

// PrintFlags prints the flags of fs.
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// UpperFirst returns s with its first letter upper case.
func UpperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
