//go:build unix

package launch

import (
	"os"
	"os/exec"
	"syscall"
)

// detach puts the daemon in a session of its own (no controlling terminal:
// the agent's Ctrl-C and the end of its process group do not reach it), and
// hands it the autostart lock as its descriptor 3.
func detach(cmd *exec.Cmd, lock *os.File) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.ExtraFiles = []*os.File{lock}
	cmd.Env = append(cmd.Env, envLockFD+"=3")
}
