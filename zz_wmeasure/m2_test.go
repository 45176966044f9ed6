package zz

import (
	"context"
	"log/slog"
	"testing"
	"time"
)

func TestMeasureCold(t *testing.T) {
	for i := 0; i < 3; i++ {
		act := newActivity("/tmp/wcorpus5", slog.New(slog.DiscardHandler))
		s := time.Now()
		d, err := act.snapshot(context.Background())
		t.Logf("cold snapshot %d days %s %v", len(d), time.Since(s), err)
	}
}
