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

// HookEvents are the arguments of "daybook hook" that a daemon runs for the
// front, with the hook's JSON from the front's stdin: an agent runs them at
// every prompt, so they must not pay daybook-core's start.
var HookEvents = []string{"session-start", "prompt", "capture"}

// Takes reports whether the daemon runs the command args names (after the
// global flags) for the front: one of Commands, or "hook" with one of
// HookEvents.
func Takes(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if args[0] == "hook" {
		return len(args) == 2 && slices.Contains(HookEvents, args[1])
	}
	return Forwarded(args[0])
}

// Hook reports whether args (after the global flags) is a hook the daemon
// runs for the front: its stdin goes in Request.Stdin.
func Hook(args []string) bool { return len(args) > 0 && args[0] == "hook" && Takes(args) }

// MaxStdin is the most of its stdin the front sends with a hook.
const MaxStdin = 8 << 20

// EnvVars are the environment variables that decide, with the arguments
// and the working folder, which data dir and config a command uses; the
// front sends them so that the daemon resolves both as the front would.
var EnvVars = []string{"DAYBOOK_DIR", "DAYBOOK_CONFIG", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "HOME",
	"DAYBOOK_NOCAPTURE"}

// Request asks a daemon to run one command.
type Request struct {
	Args []string          `json:"args"` // as given to daybook, global flags included
	Cwd  string            `json:"cwd"`  // the front's working folder: relative paths are from it
	Env  map[string]string `json:"env"`  // EnvVars that are set
	// Stdin is the front's standard input, for a hook (Hook): the JSON
	// the agent wrote to it.
	Stdin []byte `json:"stdin,omitempty"`
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
