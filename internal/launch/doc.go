// Package launch starts the daemon for a data dir where an agent needs one
// and none answers: the hooks, "daybook mcp" and "daybook chat" call Ensure
// before they ask the socket. However many race, one daemon starts: the
// starter holds DATA/state/daemon/autostart.lock while it decides, and hands
// the lock to the daemon it starts, which lets go of it once its socket
// listens (Listening). The daemon runs detached (a session of its own,
// stdin from /dev/null, stdout and stderr appended to
// DATA/state/daemon/daemon.log), so it outlives the hook that started it and
// holds none of the agent's pipes.
//
// The package links no index, markdown parser or watcher: the front
// (cmd/daybook) runs the hooks and stays small.
package launch
