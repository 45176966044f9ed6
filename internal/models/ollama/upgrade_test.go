package ollama

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

func upgradeItems() []UpgradeItem {
	var items []UpgradeItem
	for _, p := range []struct {
		l date.Level
		p string
	}{{"day", "2026-10-31"}, {"month", "2026-11"}, {"day", "2026-11-02"}, {"year", "2025"}, {"day", "2026-11-01"}, {"month", "2026-10"}} {
		items = append(items, UpgradeItem{Level: p.l, Period: p.p, Model: "offline/extractive-v2"})
	}
	return items
}

// TestUpgradePaces: newest first, a month after its days, one at a time,
// with the pause or the item's own time between two items.
func TestUpgradePaces(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var order []string
		var at []time.Duration
		redo := func(ctx context.Context, it UpgradeItem) error {
			order = append(order, it.Period)
			at = append(at, time.Since(start))
			if it.Period == "2026-11" {
				time.Sleep(40 * time.Second) // a slow one: the next pause is as long
			}
			return nil
		}
		res, err := Upgrade(context.Background(), upgradeItems(), redo, UpgradeOptions{Pause: 10 * time.Second})
		if err != nil || res.Redone != 6 || len(res.Left) != 0 {
			t.Fatalf("res %+v err %v", res, err)
		}
		if got, want := fmt.Sprint(order), "[2026-11-02 2026-11-01 2026-11 2026-10-31 2026-10 2025]"; got != want {
			t.Errorf("order %s, want %s", got, want)
		}
		if got, want := fmt.Sprint(at), "[0s 10s 20s 1m40s 1m50s 2m0s]"; got != want {
			t.Errorf("started at %s, want %s", got, want)
		}
	})
}

// TestUpgradeStopsOnOutage: the items not done are left for next time.
func TestUpgradeStopsOnOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		redo := func(ctx context.Context, it UpgradeItem) error {
			n++
			switch n {
			case 2:
				return errors.New("disk full")
			case 4:
				return &UnavailableError{Op: "summarizing", Model: "ollama/llama3.2", Err: errors.New("connection refused")}
			}
			return nil
		}
		res, err := Upgrade(context.Background(), upgradeItems(), redo, UpgradeOptions{})
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err = %v", err)
		}
		if res.Redone != 2 || res.Failed != 1 || len(res.Left) != 3 || res.Left[0].Period != "2026-10-31" {
			t.Errorf("res = %+v", res)
		}
	})
}

func TestUpgradeCanceled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(15 * time.Second) // during the second pause
			cancel()
		}()
		res, err := Upgrade(ctx, upgradeItems(), func(context.Context, UpgradeItem) error { return nil }, UpgradeOptions{Pause: 10 * time.Second})
		if !errors.Is(err, context.Canceled) || res.Redone != 2 || len(res.Left) != 4 {
			t.Errorf("res %+v err %v", res, err)
		}
	})
}

func TestNeedsUpgrade(t *testing.T) {
	if !NeedsUpgrade("offline/extractive-v2") || NeedsUpgrade("ollama/llama3.2") {
		t.Error("NeedsUpgrade")
	}
}
