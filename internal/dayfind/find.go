// Package dayfind is find on the day files: the linear scan over a data
// dir's days in a range, newest first, as the App answers it. It links no
// markdown parser, watcher or index (package scan does the reading), so
// that the front (cmd/daybook) runs find itself when no daemon answers,
// with the App's code and so its answers to the byte.
package dayfind

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/dayfiles/scan"
)

// RequestError is a mistake in the request (a bad pattern, a bad date, a
// negative limit): the caller's fault, daybook.CodeUsage.
type RequestError struct{ Err error }

func (e *RequestError) Error() string         { return e.Err.Error() }
func (e *RequestError) Unwrap() error         { return e.Err }
func (e *RequestError) APICode() daybook.Code { return daybook.CodeUsage }
func (e *RequestError) APIField() string      { return "" }
func requestErr(err error) error              { return &RequestError{Err: err} }
func requestErrf(f string, args ...any) error { return &RequestError{Err: fmt.Errorf(f, args...)} }

var _ daybook.Coded = (*RequestError)(nil)

// ConflictReason is why find leaves out a day file holding conflict
// markers, in its answer's Skipped.
const ConflictReason = "conflict markers: resolve them (keep what belongs, remove the <<<<<<<, =======, >>>>>>> lines) and the day is searched again"

// Find scans the day files of the data dir dir in req's range (its
// relative dates taken from today) for req's pattern, newest first. log
// gets the debug lines of the listing (nil: none). An error in the request
// is a *RequestError; a failure to read a file comes with what was found
// before it.
func Find(dir string, today date.Date, log *slog.Logger, req daybook.FindRequest) (daybook.FindResponse, error) {
	if req.Limit < 0 {
		return daybook.FindResponse{}, requestErrf("limit %d is negative", req.Limit)
	}
	m, err := scan.NewMatcher(req.Pattern, req.Regex)
	if err != nil {
		return daybook.FindResponse{}, requestErr(err)
	}
	r, err := date.ParseRangeArgs(req.From, req.To, today)
	if err != nil {
		return daybook.FindResponse{}, requestErr(err)
	}
	files, err := scan.ListPaths(dir, r, log)
	if err != nil {
		return daybook.FindResponse{}, err
	}
	limit := req.Limit
	if limit > 0 {
		limit++ // one more tells whether the list was cut
	}
	scanned, err := scan.ScanFiles(files, m, limit)
	found := scanned.Matches
	resp := daybook.FindResponse{Matches: make([]daybook.Match, 0, len(found)), FilesRead: scanned.Read}
	for _, c := range scanned.Conflicts {
		rel, rerr := filepath.Rel(dir, c.Path)
		if rerr != nil {
			rel = c.Path
		}
		resp.Skipped = append(resp.Skipped, daybook.Skipped{Path: filepath.ToSlash(rel), Line: c.Line, Reason: ConflictReason})
	}
	if req.Limit > 0 && len(found) > req.Limit {
		found, resp.Truncated = found[:req.Limit], true
	}
	for _, f := range found {
		resp.Matches = append(resp.Matches, daybook.Match{Date: f.File.Date.String(), Path: scan.RelPath(f.File.Date), Line: f.Line, Text: f.Text})
	}
	return resp, err
}
