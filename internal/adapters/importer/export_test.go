package importer

import (
	"fmt"
	"io"
)

// ParseLoCoMo is ReadLoCoMo on r, name standing for the file's base name
// and path, for the tests: daybook reads files.
func ParseLoCoMo(name string, r io.Reader) ([]Conversation, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading LoCoMo %s: %w", name, err)
	}
	return parseLoCoMo(name, name, b)
}
