//go:build !unix

package bench

import "os"

// maxRSS is unknown here.
func maxRSS(*os.ProcessState) int64 { return 0 }
