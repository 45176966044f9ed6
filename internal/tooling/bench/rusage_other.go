//go:build !unix

package bench

import "os"

// maxRSS is unknown here.
func maxRSS(*os.ProcessState) int64 { return 0 }

// minorFaults is unknown here.
func minorFaults(*os.ProcessState) int64 { return 0 }
