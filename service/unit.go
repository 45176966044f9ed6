package service

import (
	"fmt"
	"html"
	"strings"
)

// Spec is what a service runs: "EXE daemon --dir DIR [--config FILE]".
type Spec struct {
	Name       string // service name, "daybook"
	Exe        string // absolute path of the daybook binary
	DataDir    string
	ConfigPath string // "" when none: the daemon then uses its defaults
	User       bool   // a per-user service (systemd --user, a launchd agent)
	RunAs      string // system services only: the account to run as ("" = the manager's default)
	LogDir     string // launchd only: where stdout/stderr go
	// RunningPID is a daemon already running on DataDir (started by
	// hand), or 0: where no service manager runs, daybook then says that
	// it runs rather than how to start one.
	RunningPID int
}

// Args returns the daemon's arguments.
func (s Spec) Args() []string {
	args := []string{"daemon", "--dir", s.DataDir}
	if s.ConfigPath != "" {
		args = append(args, "--config", s.ConfigPath)
	}
	return args
}

// SystemdUnit renders the systemd unit. A user unit is wanted by
// default.target, the target a user manager starts; a system unit by
// multi-user.target.
func SystemdUnit(s Spec) string {
	var b strings.Builder
	b.WriteString("[Unit]\n")
	b.WriteString("Description=daybook memory daemon (" + systemdEscape(s.DataDir) + ")\n")
	b.WriteString("Documentation=https://github.com/daybook/daybook\n")
	if !s.User {
		b.WriteString("After=local-fs.target\n")
	}
	b.WriteString("\n[Service]\nType=simple\n")
	b.WriteString("ExecStart=" + systemdQuote(s.Exe))
	for _, a := range s.Args() {
		b.WriteString(" " + systemdQuote(a))
	}
	b.WriteString("\n")
	if !s.User && s.RunAs != "" {
		b.WriteString("User=" + s.RunAs + "\n")
	}
	b.WriteString("Restart=on-failure\nRestartSec=5\n")
	// The daemon logs JSON when stdout is not a terminal; journald keeps it.
	b.WriteString("\n[Install]\n")
	if s.User {
		b.WriteString("WantedBy=default.target\n")
	} else {
		b.WriteString("WantedBy=multi-user.target\n")
	}
	return b.String()
}

// systemdQuote quotes one ExecStart word: double quotes, C escapes, and the
// specifier (%) and variable ($) characters doubled.
func systemdQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%", "$", "$$", "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func systemdEscape(s string) string { return strings.NewReplacer("%", "%%", "\n", " ").Replace(s) }

// LaunchdPlist renders the launchd property list: a LaunchAgent for a user
// service, a LaunchDaemon otherwise; kept alive and started at load.
func LaunchdPlist(s Spec) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
`)
	fmt.Fprintf(&b, "  <key>Label</key><string>%s</string>\n", html.EscapeString(s.Name))
	b.WriteString("  <key>ProgramArguments</key>\n  <array>\n")
	for _, a := range append([]string{s.Exe}, s.Args()...) {
		fmt.Fprintf(&b, "    <string>%s</string>\n", html.EscapeString(a))
	}
	b.WriteString("  </array>\n")
	if !s.User && s.RunAs != "" {
		fmt.Fprintf(&b, "  <key>UserName</key><string>%s</string>\n", html.EscapeString(s.RunAs))
	}
	b.WriteString("  <key>RunAtLoad</key><true/>\n")
	b.WriteString("  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>\n")
	if s.LogDir != "" {
		fmt.Fprintf(&b, "  <key>StandardOutPath</key><string>%s</string>\n", html.EscapeString(s.LogDir+"/daybook.out.log"))
		fmt.Fprintf(&b, "  <key>StandardErrorPath</key><string>%s</string>\n", html.EscapeString(s.LogDir+"/daybook.err.log"))
	}
	b.WriteString("</dict>\n</plist>\n")
	return b.String()
}
