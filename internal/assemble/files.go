package assemble

import (
	"log/slog"

	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
)

// Files is where Gather lists and reads a data dir's summaries and day
// files. What it returns is shared: Gather only reads it. Disk reads the
// files anew on every call; a long-lived process (the daemon's App) keeps
// them between calls and answers the same.
type Files interface {
	// Summaries lists the summary files of every level, as
	// consolidate.List(dir, "", date.Range{}).
	Summaries() ([]consolidate.File, error)
	// Summary reads the summary at path, as consolidate.ReadSummary.
	Summary(path string) (*consolidate.Summary, error)
	// Days lists the day files in r, as dayfiles.List.
	Days(r date.Range) ([]dayfiles.File, error)
	// Day parses the day file of d, as dayfiles.ParseFile.
	Day(d date.Date) (*dayfiles.Day, error)
}

// Disk is Files read from the data dir Dir on every call.
type Disk struct {
	Dir string
	Log *slog.Logger
}

// Summaries lists the summary files of every level.
func (f Disk) Summaries() ([]consolidate.File, error) {
	return consolidate.List(f.Dir, "", date.Range{})
}

// Summary reads the summary at path.
func (f Disk) Summary(path string) (*consolidate.Summary, error) {
	return consolidate.ReadSummary(path)
}

// Days lists the day files in r.
func (f Disk) Days(r date.Range) ([]dayfiles.File, error) { return dayfiles.List(f.Dir, r, f.Log) }

// Day parses the day file of d.
func (f Disk) Day(d date.Date) (*dayfiles.Day, error) {
	return dayfiles.ParseFile(dayfiles.Path(f.Dir, d), d)
}
