package zz

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/daybook/daybook/api"
	"github.com/daybook/daybook/app"
	"github.com/daybook/daybook/config"
	"github.com/daybook/daybook/date"
	"github.com/daybook/daybook/gen"
)

func TestMeasureTmp(t *testing.T) {
	dir := "/tmp/wcorpus5"
	cfg := config.Default(); cfg.Timezone = "UTC"; cfg.Validate()
	a := app.New(dir, cfg, nil)
	a.Now = func() time.Time { return time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC) }
	ctx := context.Background()
	if _, err := gen.Write(dir, gen.Options{Years: 5, Seed: 1, End: date.MustParse("2025-12-31")}); err == nil {
		s := time.Now()
		if _, err := a.Consolidate(ctx, api.ConsolidateRequest{}); err != nil { t.Fatal(err) }
		t.Logf("consolidate %s", time.Since(s))
	}
	act := newActivity(dir, slog.New(slog.DiscardHandler))
	for i := 0; i < 2; i++ {
		s := time.Now()
		d, err := act.snapshot(ctx)
		t.Logf("snapshot %d days %s %v", len(d), time.Since(s), err)
	}
	s := time.Now()
	r, err := a.Browse(ctx, api.BrowseRequest{Level: "month", From: "2024-03-01", To: "2024-03-31"})
	t.Logf("browse %s %v %+v", time.Since(s), err, r.Summaries)
}
