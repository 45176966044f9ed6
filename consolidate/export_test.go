package consolidate

import "github.com/daybook/daybook/dayfiles/date"

// SummaryPath returns the path of the summary of the period written as
// 2026-11-22, 2026-11 or 2026 at level, under the data dir root.
func SummaryPath(root string, level date.Level, period string) (string, error) {
	p, err := ParsePeriod(level, period)
	if err != nil {
		return "", err
	}
	return p.Path(root), nil
}
