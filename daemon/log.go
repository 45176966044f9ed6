package daemon

import (
	"io"
	"log/slog"

	"github.com/daybook/daybook/internal/config"
)

// NewLogger returns the daemon's logger as config log.level and log.format
// say: text on a terminal and JSON otherwise when the format is not set.
func NewLogger(c config.Log, w io.Writer, terminal bool) *slog.Logger {
	var level slog.Level
	switch c.Level {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	default: // "info", and "" before validation
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	format := c.Format
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
