// Package service installs and controls "daybook daemon" as an OS service
// through github.com/kardianos/service: a systemd unit (system, or user with
// --user), a launchd daemon or agent, or a Windows service. It renders the
// unit files itself, because the library's systemd template hard-codes
// WantedBy=multi-user.target, which a user manager never reaches, and it
// refuses clearly, instead of pretending, where no service manager runs.
//
// It is outside internal/ because installing the daemon as an OS service is a
// part the design names, usable by an installer of its own.
package service
