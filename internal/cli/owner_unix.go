//go:build unix

package cli

import (
	"fmt"
	"os"
	"syscall"
)

// warnForeignOwner warns when daybook runs as root on a data dir that
// another user owns: files root creates there (new day files, summaries,
// the index) would belong to root, and that user could no longer write
// them. It only warns; the command goes on.
func warnForeignOwner(e *Env) {
	if os.Geteuid() != 0 {
		return
	}
	fi, err := os.Stat(e.AbsDir)
	if err != nil {
		return // not created yet: root will own it
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid == 0 {
		return
	}
	fmt.Fprintf(e.Stderr, "daybook: warning: running as root on %s, which uid %d owns; files written now will belong to root (run as that user, e.g. sudo -u '#%d' daybook ...)\n",
		e.AbsDir, st.Uid, st.Uid)
}
