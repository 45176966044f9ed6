package service

import (
	"context"
	"runtime"

	kservice "github.com/kardianos/service"
)

// UnderManager reports whether this process was started by a service
// manager that expects to be spoken to: the Windows service control manager.
// systemd and launchd start "daybook daemon" as a plain process and stop it
// with SIGTERM, which the daemon handles itself.
func UnderManager() bool { return runtime.GOOS == "windows" && !kservice.Interactive() }

// program adapts a run function to kardianos/service's Interface.
type program struct {
	run    func(ctx context.Context) error
	cancel context.CancelFunc
	done   chan error
}

func (p *program) Start(kservice.Service) error {
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel, p.done = cancel, make(chan error, 1)
	go func() { p.done <- p.run(ctx) }()
	return nil
}

func (p *program) Stop(kservice.Service) error {
	p.cancel()
	return <-p.done
}

// RunManaged runs run under the service manager: Start begins it, Stop
// cancels its context and waits for it to return.
func RunManaged(name string, run func(ctx context.Context) error) error {
	s, err := kservice.New(&program{run: run}, &kservice.Config{Name: name})
	if err != nil {
		return err
	}
	return s.Run()
}
