package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

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
	fields := yamlFields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		ft, ok := fields[k.Value]
		if !ok {
			known := make([]string, 0, len(fields))
			for f := range fields {
				known = append(known, prefix+f)
			}
			sort.Strings(known)
			return fmt.Errorf("%s: line %d: unknown key %s%s (known here: %s)", name, k.Line, prefix, k.Value, strings.Join(known, ", "))
		}
		if err := walkKeys(name, v, ft, prefix+k.Value+"."); err != nil {
			return err
		}
	}
	return nil
}

// yamlFields maps the yaml key of each exported field of t to its type.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := make(map[string]reflect.Type, t.NumField())
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
		out[key] = f.Type
	}
	return out
}
