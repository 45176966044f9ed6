package main

import (
	"log/slog"
	"path/filepath"

	"github.com/daybook/daybook/internal/adapters/api"
	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/spool"
)

// The two backends cli.Env.Backend returns, the App and
// the daemon's client, are each the proxy's Memory ("daybook chat").
var (
	_ proxy.Memory = (*app.App)(nil)
	_ proxy.Memory = (*api.Client)(nil)
)

// proxyStateDir is where the memory proxy keeps its spool and the keys of
// the turns it wrote, under the data dir.
func proxyStateDir(dir string) string { return filepath.Join(dir, "state", "proxy") }

// newProxy builds the memory proxy over a, as configured.
func newProxy(a *app.App, cfg config.Config, log *slog.Logger) (*proxy.Proxy, error) {
	return proxy.New(a, proxy.Options{
		Upstream: cfg.ProxyUpstream(), Budget: cfg.Proxy.Budget, Remember: cfg.Proxy.Remember,
		StateDir: proxyStateDir(a.Dir()), Spool: spool.New(a.Dir()), Log: log, Now: a.Now, IsUserError: app.IsUserError,
		MaxBody: int64(cfg.Proxy.MaxBodyMiB) << 20,
	})
}

// startProxy listens on proxy.listen for the daemon.
func startProxy(a *app.App, cfg config.Config, log *slog.Logger) (*proxy.Server, error) {
	p, err := newProxy(a, cfg, log)
	if err != nil {
		return nil, err
	}
	return proxy.Listen(cfg.Proxy.Listen, p, proxy.ServerOptions{Log: log, TokenFile: proxy.TokenPath(a.Dir())})
}
