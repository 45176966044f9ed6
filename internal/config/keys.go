package config

import (
	"reflect"
	"strings"
)

// Schedule is one cron spec of the config and the key it is under.
type Schedule struct{ Key, Spec string }

// Schedules are the cron specs of Consolidate; an empty one is off.
func (c *Config) Schedules() []Schedule {
	return []Schedule{
		{"consolidate.daily", c.Consolidate.Daily},
		{"consolidate.monthly", c.Consolidate.Monthly},
		{"consolidate.yearly", c.Consolidate.Yearly},
	}
}

// Fields maps the key of each exported field of the struct type t, as a
// config file writes it (its yaml tag, else its name in lower case), to the
// field.
func Fields(t reflect.Type) map[string]reflect.StructField {
	out := make(map[string]reflect.StructField, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if key == "-" {
			continue
		}
		if key == "" {
			key = strings.ToLower(f.Name)
		}
		out[key] = f
	}
	return out
}
