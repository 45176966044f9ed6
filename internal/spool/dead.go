package spool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// DeadItems returns the dead-letter file's items, oldest first.
func (s *Spool) DeadItems() ([]Dead, error) {
	f, err := os.Open(s.DeadPath())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Dead
	err = eachLine(f, func(line []byte) {
		var d Dead
		if json.Unmarshal(line, &d) != nil {
			d = Dead{Line: string(line), Error: "a line of the dead-letter file that is not an item"}
		}
		out = append(out, d)
	})
	return out, err
}

// Bury puts items that a write refused for good (err) in the dead-letter
// file, synced, without trying them.
func (s *Spool) Bury(ctx context.Context, err error, items ...Item) error {
	var data []byte
	for _, it := range items {
		b, _ := json.Marshal(deadOf(it, "", err))
		data = append(append(data, b...), '\n')
	}
	unlock, lerr := s.lock(ctx)
	if lerr != nil {
		return lerr
	}
	defer unlock()
	return appendSynced(s.DeadPath(), data)
}

// Requeue moves the dead-letter file's items back into the spool, for the
// next replay to try again (after the day file or the config was mended),
// and returns how many. Lines that were not items stay dead.
func (s *Spool) Requeue(ctx context.Context) (int, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	dead, err := s.DeadItems()
	if err != nil || len(dead) == 0 {
		return 0, err
	}
	var back, stay []byte
	n := 0
	for _, d := range dead {
		if d.Line != "" || Check(d.Item) != nil {
			data, _ := json.Marshal(d)
			stay = append(append(stay, data...), '\n')
			continue
		}
		data, _ := json.Marshal(d.Item)
		back = append(append(back, data...), '\n')
		n++
	}
	if n > 0 {
		if err := appendSynced(s.Path(), back); err != nil {
			return 0, err
		}
	}
	return n, s.replaceDead(stay)
}

// Drop empties the dead-letter file and returns how many items it held.
func (s *Spool) Drop(ctx context.Context) (int, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	dead, err := s.DeadItems()
	if err != nil {
		return 0, err
	}
	return len(dead), s.replaceDead(nil)
}

func (s *Spool) replaceDead(data []byte) error {
	if len(data) == 0 {
		if err := os.Remove(s.DeadPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	tmp := s.DeadPath() + ".new"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, s.DeadPath())
}

// The spools of daybook before this one, under the data dir: the hooks'
// (import lines) and the proxy's (turns with their key).
var oldSpools = []struct{ path, from string }{
	{"state/hooks/spool.jsonl", FromHooks},
	{"state/proxy/spool.jsonl", FromProxy},
}

// Adopt moves the items of the spools an earlier daybook kept into this
// one, and returns how many. Their lines have the fields of an Item.
func (s *Spool) Adopt(ctx context.Context) (int, error) {
	n := 0
	for _, old := range oldSpools {
		path := filepath.Join(s.root, filepath.FromSlash(old.path))
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return n, err
		}
		var items []Item
		var bad []Dead
		err = eachLine(f, func(line []byte) {
			var it Item
			if err := json.Unmarshal(line, &it); err != nil {
				bad = append(bad, deadOf(Item{}, string(line), fmt.Errorf("a line of %s that is not an item: %v", old.path, err)))
				return
			}
			if it.From == "" {
				it.From = old.from
			}
			if err := Check(it); err != nil {
				bad = append(bad, deadOf(it, "", err))
				return
			}
			items = append(items, it)
		})
		f.Close()
		if err != nil {
			return n, err
		}
		if err := s.Add(ctx, items...); err != nil {
			return n, err
		}
		if len(bad) > 0 {
			var data []byte
			for _, d := range bad {
				b, _ := json.Marshal(d)
				data = append(append(data, b...), '\n')
			}
			if err := appendSynced(s.DeadPath(), data); err != nil {
				return n, err
			}
		}
		if err := os.Remove(path); err != nil {
			return n, err
		}
		n += len(items)
	}
	return n, nil
}
