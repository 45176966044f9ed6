package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
)

// childEnv, when set, makes the test binary run a daemon on the data dir it
// names instead of the tests: the killed-daemon test needs a process to kill.
const childEnv = "DAYBOOK_TEST_DAEMON_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		os.Exit(runChild(dir))
	}
	os.Exit(m.Run())
}

// runChild runs a daemon as "daybook daemon" would, until SIGTERM or SIGINT.
func runChild(dir string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	lock, err := LockPID(dir, os.Getpid())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer lock.Release()
	log := NewLogger(cfg.Log.Level, cfg.Log.Format, os.Stderr, false)
	a := app.New(dir, cfg, log)
	defer a.Close()
	d, err := newDaemon(a, consolidatorFor(a), Options{NoIndex: true, JumpEvery: -1})
	if err == nil {
		err = d.Run()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	<-ctx.Done()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.Close(cctx); err != nil {
		slog.Error("closing", "err", err)
		return 1
	}
	return 0
}
