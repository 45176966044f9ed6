// Package progress draws daybook's progress bars on a terminal, all with the
// same look: a description, a count, at most ten redraws a second, and the
// bar cleared when the work ends.
package progress

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Bar returns a bar for total steps (-1 when not yet known) described as
// what, drawn on w.
func Bar(w io.Writer, what string, total int) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// Func returns a (done, total) callback that draws a bar on w once the
// first call says how much there is (never when total is under min), and a
// func that ends the bar.
func Func(w io.Writer, what string, min int) (update func(done, total int), finish func()) {
	var bar *progressbar.ProgressBar
	update = func(done, total int) {
		if bar == nil {
			if total < min {
				return
			}
			bar = Bar(w, what, total)
		}
		if bar.GetMax() != total {
			bar.ChangeMax(total)
		}
		bar.Set(done)
	}
	finish = func() {
		if bar != nil {
			bar.Finish()
		}
	}
	return update, finish
}
