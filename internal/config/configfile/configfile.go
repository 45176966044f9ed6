// Package configfile reads daybook's config file with the YAML parser: the
// defaults first (config.Default), then the file over them with unknown
// keys refused, naming the key as the user wrote it and its line, then
// validation, the cron specs included. The front (cmd/daybook) links none
// of this: config.ReadSimple reads the plain files, and a file it cannot
// read is read here, by daybook-core.
package configfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/daybook/daybook/internal/config"
	"github.com/robfig/cron/v3"
	yaml "go.yaml.in/yaml/v3"
)

// Parse reads YAML over the defaults. Unknown keys and wrong types are
// errors naming the line; name is used in messages.
func Parse(name string, data []byte) (config.Config, error) {
	c := config.Default()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return config.Config{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := unknownKey(name, &doc, reflect.TypeOf(c)); err != nil {
		return config.Config{}, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return config.Config{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := Validate(&c); err != nil {
		return config.Config{}, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// Load reads the config file at path; a missing file gives the defaults
// unless required (the user named it).
func Load(path string, required bool) (config.Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !required {
		c := config.Default()
		return c, Validate(&c)
	}
	if err != nil {
		return config.Config{}, fmt.Errorf("reading config: %w", err)
	}
	return Parse(path, data)
}

// Validate is c.Validate and a check of the cron specs.
func Validate(c *config.Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	parser := cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)
	for _, s := range c.Schedules() {
		if s.Spec == "" {
			continue
		}
		if _, err := parser.Parse(s.Spec); err != nil {
			return fmt.Errorf("%s: %q is not a cron spec: %v", s.Key, s.Spec, err)
		}
	}
	return nil
}

// unknownKey walks the parsed YAML against the fields of t and returns an
// error naming the first key Config does not have, as the user would write
// it (recall.limt), with its line; "" paths are the top level.
func unknownKey(name string, doc *yaml.Node, t reflect.Type) error {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	return walkKeys(name, doc, t, "")
}

func walkKeys(name string, n *yaml.Node, t reflect.Type, prefix string) error {
	if n.Kind != yaml.MappingNode || t.Kind() != reflect.Struct {
		return nil // a type error, which the decoder reports with its line
	}
	fields := config.Fields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f, ok := fields[k.Value]
		if !ok {
			known := make([]string, 0, len(fields))
			for f := range fields {
				known = append(known, prefix+f)
			}
			sort.Strings(known)
			return fmt.Errorf("%s: line %d: unknown key %s%s (known here: %s)", name, k.Line, prefix, k.Value, strings.Join(known, ", "))
		}
		if err := walkKeys(name, v, f.Type, prefix+k.Value+"."); err != nil {
			return err
		}
	}
	return nil
}
