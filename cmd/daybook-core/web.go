package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os/exec"
	"runtime"
	"time"

	"github.com/daybook/daybook/internal/adapters/web"
	"github.com/daybook/daybook/internal/cli"
)

func cmdWeb() cli.Command {
	return cli.Command{
		Name: "web", Args: "[--no-open] [--serve] [--listen HOST:PORT]",
		Summary: "open the timeline page: years, months shaded by activity, summaries, search",
		Help: `Prints the address of the timeline page, with the token that lets a browser
in, and opens it with xdg-open or open when one is installed. The daemon
serves the page when web.listen is set in the config (e.g. 127.0.0.1:7717)
and creates the token (DATA_DIR/state/web.token) at start.

--serve serves the page from this process instead, in the foreground,
until interrupted: for a data dir without a daemon.`,
		Run: runWeb,
	}
}

// probeWeb bounds asking whether anything answers at web.listen.
const probeWeb = 500 * time.Millisecond

func runWeb(ctx context.Context, e *cli.Env, args []string) error {
	flags := e.NewFlags("web")
	noOpen := flags.Bool("no-open", false, "print the address only; do not start a browser")
	serve := flags.Bool("serve", false, "serve the page from this process until interrupted")
	listen := flags.String("listen", "", "HOST:PORT to serve on with --serve (default web.listen)")
	pos, err := e.Parse(flags, args)
	if err != nil {
		return err
	}
	if err := cli.ExactArgs("web", pos, 0, "no arguments"); err != nil {
		return err
	}
	if err := e.Load(); err != nil {
		return err
	}
	addr := e.Cfg.Web.Listen
	if *listen != "" {
		if !*serve {
			return cli.Usagef("web: --listen goes with --serve; the daemon listens on web.listen")
		}
		addr = *listen
	}
	if addr == "" {
		return fmt.Errorf("web.listen is not set in the config: set it (e.g. web: {listen: \"127.0.0.1:7717\"}) and restart the daemon, or run \"daybook web --serve --listen 127.0.0.1:7717\"")
	}
	if *serve {
		return serveWeb(ctx, e, addr, !*noOpen)
	}
	tok, err := web.ReadToken(e.AbsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no web token at %s: the daemon creates it when it starts with web.listen set; start it (\"daybook daemon\"), or run \"daybook web --serve\"", web.TokenPath(e.AbsDir))
	}
	if err != nil {
		return err
	}
	u, err := web.URL(addr, tok)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.Stdout, u)
	if conn, err := net.DialTimeout("tcp", hostPort(u), probeWeb); err != nil {
		fmt.Fprintf(e.Stderr, "daybook: nothing answers at %s yet: is the daemon running with web.listen set?\n", addr)
	} else {
		conn.Close()
	}
	if !*noOpen {
		openBrowser(e, u)
	}
	return nil
}

// serveWeb serves the page from this process until ctx ends.
func serveWeb(ctx context.Context, e *cli.Env, addr string, open bool) error {
	if err := e.MustExist(); err != nil {
		return err
	}
	a, err := local(e)
	if err != nil {
		return err
	}
	srv, err := web.New(a, web.Options{Listen: addr, AllowRemote: e.Cfg.Web.AllowRemote, Dir: a.Dir(),
		Log: e.Logger(), Now: a.Now, Loc: a.Loc()})
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve() }()
	tok, err := web.ReadToken(a.Dir())
	if err == nil {
		var u string
		if u, err = web.URL(srv.Addr().String(), tok); err == nil {
			fmt.Fprintln(e.Stdout, u)
			if open {
				openBrowser(e, u)
			}
		}
	}
	if err == nil {
		select {
		case err = <-done:
			return err
		case <-ctx.Done():
		}
	}
	closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if cerr := srv.Close(closeCtx); err == nil {
		err = cerr
	}
	<-done
	return err
}

// openBrowser starts the desktop's browser on u when an opener is
// installed; without one the printed address is enough.
func openBrowser(e *cli.Env, u string) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return
	}
	cmd := exec.Command(path, u)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(e.Stderr, "daybook: starting %s: %v\n", name, err)
		return
	}
	go cmd.Wait() // reap it; the browser outlives us
}

// hostPort returns the HOST:PORT of the page's address.
func hostPort(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Host
}
