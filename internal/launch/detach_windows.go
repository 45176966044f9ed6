//go:build windows

package launch

import (
	"os"
	"os/exec"
	"syscall"
)

// detach starts the daemon without a console, in a process group of its
// own, so that the agent's Ctrl-C does not reach it. Windows hands a child
// no descriptor but the standard ones: the lock stays with the starter, and
// a racing starter that comes after it and before the socket listens
// starts a daemon that finds the data dir locked and exits.
func detach(cmd *exec.Cmd, _ *os.File) {
	const detachedProcess = 0x00000008
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}
