package dayfiles

import (
	"bytes"

	"github.com/daybook/daybook/dayfiles/scan"
)

// The scan lives in package scan (see layout.go); these are its names here.

// MaxPattern is the longest pattern Scan accepts.
const MaxPattern = scan.MaxPattern

// Matcher finds the matching lines of a file's content: see scan.Matcher.
type Matcher = scan.Matcher

// ScanMatch is one line found by ScanFiles.
type ScanMatch = scan.ScanMatch

// Scanned is what ScanFiles found: see scan.Scanned.
type Scanned = scan.Scanned

// NewMatcher compiles pattern: see scan.NewMatcher.
func NewMatcher(pattern string, regex bool) (*Matcher, error) { return scan.NewMatcher(pattern, regex) }

// ScanFiles reads files newest first and returns their matching lines: see
// scan.ScanFiles.
func ScanFiles(files []File, m *Matcher, limit int) (Scanned, error) {
	return scan.ScanFiles(files, m, limit)
}

// ReadDay reads the day file f into buf, reused and grown as needed, with
// the scan's reader, and refuses a file over MaxFileSize, or one holding
// conflict markers (a *ConflictError), as Parse does.
func ReadDay(buf []byte, f File) ([]byte, error) {
	buf, err := scan.ReadInto(buf, f)
	if err == nil {
		if serr := CheckSize(f.Path, int64(len(buf))); serr != nil {
			return buf[:0], serr
		}
	}
	if err == nil && bytes.Contains(buf, conflictOpen) {
		if line := ConflictLine(buf); line > 0 {
			return buf[:0], &ConflictError{Path: f.Path, Line: line}
		}
	}
	return buf, err
}
