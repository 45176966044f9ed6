package daemon

import (
	"io"
	"log/slog"
)

// NewLogger returns the daemon's logger at level ("debug", "info", "warn",
// "error"; config log.level) in format ("text", "json"; config log.format):
// text on a terminal and JSON otherwise when the format is "".
func NewLogger(level, format string, w io.Writer, terminal bool) *slog.Logger {
	var l slog.Level
	switch level {
	case "debug":
		l = slog.LevelDebug
	case "warn":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default: // "info", and "" before validation
		l = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: l}
	if format == "" {
		format = "json"
		if terminal {
			format = "text"
		}
	}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
