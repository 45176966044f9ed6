package dayfiles_test

import (
	"testing"

	"github.com/daybook/daybook/dayfiles"
)

func TestCheckSizeMessage(t *testing.T) {
	err := dayfiles.CheckSize("days/2026/11/20.md", dayfiles.MaxFileSize+1)
	if err == nil || err.Error() != "days/2026/11/20.md: 8388609 bytes is over the 8 MiB limit of a day file" {
		t.Errorf("CheckSize = %v", err)
	}
	if dayfiles.CheckSize("x", dayfiles.MaxFileSize) != nil {
		t.Error("a file of the limit is refused")
	}
}
