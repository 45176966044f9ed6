package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/atomicfile"
)

// ZoneFile pins the time zone of a data dir whose config says "Local": the
// zone of the process that first wrote to it, by IANA name. Every process
// then takes entries' days and times in the same zone, whatever its own
// TZ: a CLI run from a shell in Tokyo and a daemon started in UTC agree.
// Setting timezone in the config overrides it.
const ZoneFile = "state/zone"

// Loc returns the zone every entry's day and time are taken in: the
// configured one, or for "Local" the data dir's pinned one (ZoneFile).
func (a *App) Loc() *time.Location {
	a.zone.once.Do(func() { a.zone.loc = a.resolveZone() })
	return a.zone.loc
}

type zonePart struct {
	once sync.Once
	loc  *time.Location
}

func (a *App) localConfigured() bool {
	return a.Config.Timezone == "" || a.Config.Timezone == "Local"
}

func (a *App) resolveZone() *time.Location {
	if !a.localConfigured() {
		return a.Config.Location()
	}
	p := filepath.Join(a.Dir, filepath.FromSlash(ZoneFile))
	b, err := os.ReadFile(p)
	if err == nil {
		name := strings.TrimSpace(string(b))
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
		a.Log.Warn("the data dir's pinned time zone is unknown; using the process's", "path", p, "zone", name)
	}
	if name := localZoneName(); name != "" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	return a.Config.Location()
}

// pinZone writes ZoneFile on the first write to a data dir whose config
// says "Local", naming the zone Loc resolved.
func (a *App) pinZone() {
	if !a.localConfigured() {
		return
	}
	p := filepath.Join(a.Dir, filepath.FromSlash(ZoneFile))
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		return
	}
	name := a.Loc().String()
	if name == "Local" {
		return // the process's zone has no name to pin
	}
	if err := atomicfile.Write(p, []byte(name+"\n"), 0o600); err != nil {
		a.Log.Warn("pinning the data dir's time zone", "path", p, "err", err)
	}
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
