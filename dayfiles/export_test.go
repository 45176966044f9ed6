package dayfiles

import "github.com/daybook/daybook/internal/util/date"

// ParseGoldmark is Parse without the fast path, for the differential tests
// of package dayfiles_test, which can use gen.
func ParseGoldmark(path string, d date.Date, data []byte) (*Day, error) {
	return parse(path, d, data, false)
}

// FastRest returns the line of data from which Parse hands over to goldmark,
// 0 when the fast path reads all of it.
func FastRest(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	_, rest := fastBlocks(newLineIndex(data))
	return rest
}
