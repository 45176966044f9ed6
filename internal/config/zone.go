package config

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ZoneFile pins the time zone of a data dir whose config says "Local": the
// zone of the process that first wrote to it, by IANA name. Every process
// then takes entries' days and times in the same zone, whatever its own
// TZ: a CLI run from a shell in Tokyo and a daemon started in UTC agree.
// Setting timezone in the config overrides it.
const ZoneFile = "state/zone"

// LocalZone reports whether c's timezone is "Local" (or unset): the data
// dir's pinned zone (ZoneFile) then decides.
func (c *Config) LocalZone() bool { return c.Timezone == "" || c.Timezone == "Local" }

// DirZone returns the zone every entry's day and time in the data dir dir
// are taken in: c's timezone, or for "Local" the one the data dir pins
// (ZoneFile), else the process's by name ($TZ, /etc/localtime), else
// Location's. An unknown pinned zone is warned of on log. The App and the
// front's find take their days from it.
func (c *Config) DirZone(dir string, log *slog.Logger) *time.Location {
	if !c.LocalZone() {
		return c.Location()
	}
	p := filepath.Join(dir, filepath.FromSlash(ZoneFile))
	b, err := os.ReadFile(p)
	if err == nil {
		name := strings.TrimSpace(string(b))
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
		if log != nil {
			log.Warn("the data dir's pinned time zone is unknown; using the process's", "path", p, "zone", name)
		}
	}
	if name := localZoneName(); name != "" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	return c.Location()
}

// localZoneName returns the IANA name of the process's zone: $TZ, or the
// target of /etc/localtime; "" when neither names one.
func localZoneName() string {
	if tz, ok := os.LookupEnv("TZ"); ok {
		tz = strings.TrimPrefix(tz, ":")
		if tz == "" {
			return "UTC"
		}
		if _, err := time.LoadLocation(tz); err == nil {
			return tz
		}
		return ""
	}
	target, err := os.Readlink("/etc/localtime")
	if err != nil {
		return ""
	}
	if i := strings.Index(target, "zoneinfo/"); i >= 0 {
		return target[i+len("zoneinfo/"):]
	}
	return ""
}
