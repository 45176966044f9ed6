package main

import (
	"testing"

	"github.com/daybook/daybook/api"
)

// The sentence and the error never contradict each other, and their
// plurals agree with their numbers.
func TestImportSummary(t *testing.T) {
	bad := func(n int) []api.ImportError { return make([]api.ImportError, n) }
	for _, c := range []struct {
		r       api.ImportResponse
		want    string
		wantErr string
	}{
		{api.ImportResponse{Added: 8, Days: 3}, "imported 8 entries into 3 days", ""},
		{api.ImportResponse{Added: 1, Days: 1}, "imported 1 entry into 1 day", ""},
		{api.ImportResponse{Added: 3, Days: 2, Skipped: 1}, "imported 3 entries into 2 days; 1 was already there", ""},
		{api.ImportResponse{Added: 3, Days: 2, Skipped: 5}, "imported 3 entries into 2 days; 5 were already there", ""},
		{api.ImportResponse{Skipped: 8}, "imported no new entries; all 8 were already there", ""},
		{api.ImportResponse{Skipped: 1}, "imported no new entries; the 1 entry was already there", ""},
		{api.ImportResponse{Skipped: 2, Rejected: bad(1)},
			"imported no new entries; all 2 were already there; 1 bad line left out (listed above)", "import: 1 bad line was not imported"},
		{api.ImportResponse{Added: 8, Days: 3, Rejected: bad(2)},
			"imported 8 entries into 3 days; 2 bad lines left out (listed above)", "import: 2 bad lines were not imported"},
	} {
		got, err := importSummary(c.r)
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
		if (err == nil) != (c.wantErr == "") || (err != nil && err.Error() != c.wantErr) {
			t.Errorf("%+v: err %v, want %q", c.r, err, c.wantErr)
		}
	}
}
