package app

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/util/atomicfile"
)

// ZoneFile pins the time zone of a data dir whose config says "Local":
// config.ZoneFile.
const ZoneFile = config.ZoneFile

// zonePart is the data dir's zone, resolved once (config.DirZone).
type zonePart struct {
	dir string
	cfg config.Config
	log *slog.Logger

	once sync.Once
	loc  *time.Location
}

func (z *zonePart) get() *time.Location {
	z.once.Do(func() { z.loc = z.cfg.DirZone(z.dir, z.log) })
	return z.loc
}

// pin writes ZoneFile on the first write to a data dir whose config says
// "Local", naming the zone get resolved.
func (z *zonePart) pin() {
	if !z.cfg.LocalZone() {
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
