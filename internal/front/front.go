// Package front is what the small front binary, daybook (cmd/daybook), and
// a running daemon (cmd/daybook-core) say to each other. The front starts in
// about the time of a Go hello-world because it links no search index, no
// MCP or Ollama client; it hands a command that only asks the daemon's API
// (a read, or remember) to the daemon
// that serves the data dir, which runs it with the code and the open index
// it already has, and it hands every other command, or any it cannot hand
// to a daemon, to daybook-core, the whole program, found beside it.
//
// It imports nothing but the standard library's basics, so that the front
// stays small: net (and, with a C compiler, libc) is not linked into it.
package front

import "slices"

// Path is the daemon's endpoint that runs a command for the front.
const Path = "/v1/cli"

// Core is the name of the binary that holds the whole program, without the
// ".exe" of Windows.
const Core = "daybook-core"

// Commands are the commands a daemon runs for the front: those that only
// ask the daemon's API when one is up (no standard input, no terminal, no
// second index): the reads, and remember, the one write that is a single
// call.
var Commands = []string{"recall", "find", "day", "days", "expand", "context", "topics", "topic", "stats", "remember"}

// Forwarded reports whether the daemon runs command name for the front.
func Forwarded(name string) bool { return slices.Contains(Commands, name) }

// EnvVars are the environment variables that decide, with the arguments
// and the working folder, which data dir and config a command uses; the
// front sends them so that the daemon resolves both as the front would.
var EnvVars = []string{"DAYBOOK_DIR", "DAYBOOK_CONFIG", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "HOME"}

// Request asks a daemon to run one command.
type Request struct {
	Args []string          `json:"args"` // as given to daybook, global flags included
	Cwd  string            `json:"cwd"`  // the front's working folder: relative paths are from it
	Env  map[string]string `json:"env"`  // EnvVars that are set
}

// Response is what the command wrote and its exit code. The streams are
// bytes, not strings, so that text that is not UTF-8 comes back as written.
type Response struct {
	Stdout []byte `json:"stdout"`
	Stderr []byte `json:"stderr"`
	Code   int    `json:"code"`
}

// StatusRefused is the daemon's answer when it does not run the command:
// another data dir, or a command it does not run for the front. The front
// then runs daybook-core, which says what is wrong if anything is.
const StatusRefused = 409
