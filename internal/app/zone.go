package app

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/daybook/daybook/internal/util/atomicfile"
)

// ZoneFile pins the time zone of a data dir whose config says "Local": the
// zone of the process that first wrote to it, by IANA name. Every process
// then takes entries' days and times in the same zone, whatever its own
// TZ: a CLI run from a shell in Tokyo and a daemon started in UTC agree.
// Setting timezone in the config overrides it.
const ZoneFile = "state/zone"

// Loc returns the zone every entry's day and time are taken in: the
// configured one, or for "Local" the data dir's pinned one (ZoneFile).
func (a *App) Loc() *time.Location { return a.zone.get() }

// zonePart is the data dir's zone, resolved once.
type zonePart struct {
	dir        string
	configured string         // the config's timezone
	fallback   *time.Location // the config's Location
	log        *slog.Logger

	once sync.Once
	loc  *time.Location
}

func (z *zonePart) get() *time.Location {
	z.once.Do(func() { z.loc = z.resolve() })
	return z.loc
}

func (z *zonePart) local() bool { return z.configured == "" || z.configured == "Local" }

func (z *zonePart) resolve() *time.Location {
	if !z.local() {
		return z.fallback
	}
	p := filepath.Join(z.dir, filepath.FromSlash(ZoneFile))
	b, err := os.ReadFile(p)
	if err == nil {
		name := strings.TrimSpace(string(b))
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
		z.log.Warn("the data dir's pinned time zone is unknown; using the process's", "path", p, "zone", name)
	}
	if name := localZoneName(); name != "" {
		if loc, err := time.LoadLocation(name); err == nil {
			return loc
		}
	}
	return z.fallback
}

// pin writes ZoneFile on the first write to a data dir whose config says
// "Local", naming the zone get resolved.
func (z *zonePart) pin() {
	if !z.local() {
		return
	}
	p := filepath.Join(z.dir, filepath.FromSlash(ZoneFile))
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		return
	}
	name := z.get().String()
	if name == "Local" {
		return // the process's zone has no name to pin
	}
	if err := atomicfile.Write(p, []byte(name+"\n"), 0o600); err != nil {
		z.log.Warn("pinning the data dir's time zone", "path", p, "err", err)
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
