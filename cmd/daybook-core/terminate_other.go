//go:build !unix

package main

import (
	"errors"
	"os"
)

// terminate has no signal to send here: the daemon is stopped by its
// service manager, or by closing its window.
func terminate(*os.Process) error {
	return errors.New("daybook daemon stop needs Unix signals; stop the service (daybook service stop) or close the daemon's window")
}

func gone(int) bool { return true }
