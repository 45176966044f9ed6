package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/daybook/daybook"
	"github.com/google/jsonschema-go/jsonschema"
)

// forOptions infer the schemas of the tools' Go types; a type that goes over
// the wire as text (daybook.Method) is a string there.
var forOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[daybook.Method](): {Type: "string", Description: "how recall found its results: drill, months, days, bm25, vector, linear or none, with +linear or +outside"},
}}

// inputSchema derives a tool's input schema from In, in the plainest shapes
// every client parses: one "type" per property (an optional list is
// "array", not ["null","array"], which the official Inspector sends as a
// string), the allowed values of a property as an enum, the least and most
// of an integer as its minimum and maximum, and no other properties
// allowed.
func inputSchema[In any](enums map[string][]string, ranges map[string][2]int) (*jsonschema.Schema, error) {
	s, err := jsonschema.For[In](forOptions)
	if err != nil {
		return nil, err
	}
	for name, p := range s.Properties {
		if p.Type == "" && len(p.Types) == 2 && slices.Contains(p.Types, "null") {
			p.Type = p.Types[0]
			if p.Type == "null" {
				p.Type = p.Types[1]
			}
			p.Types = nil
		}
		for _, v := range enums[name] {
			p.Enum = append(p.Enum, v)
		}
		if r, ok := ranges[name]; ok {
			if p.Type != "integer" {
				return nil, fmt.Errorf("argument %s has a range but is a %s", name, p.Type)
			}
			lo, hi := float64(r[0]), float64(r[1])
			p.Minimum, p.Maximum = &lo, &hi
		}
	}
	return s, nil
}

// decodeArgs reads a tool call's arguments into In, checking them against
// the schema first so that every mistake comes back in one shape, "ARG:
// what is wrong", with no Go type in it. A number sent as a string ("5",
// as some clients send every argument) is taken.
func decodeArgs[In any](raw json.RawMessage, s *jsonschema.Schema) (In, error) {
	var in In
	var args map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return in, argErrorf("arguments", "want a JSON object of named arguments")
		}
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	clean := make(map[string]json.RawMessage, len(args))
	for _, name := range slices.Sorted(maps.Keys(args)) {
		p, ok := s.Properties[name]
		if !ok {
			return in, argErrorf(name, "is not an argument of this tool: want %s", wantList(names))
		}
		v, err := checkType(name, p.Type, args[name])
		if err != nil {
			return in, err
		}
		if v != nil {
			clean[name] = v
		}
	}
	for _, name := range s.Required {
		if _, ok := clean[name]; !ok {
			return in, argErrorf(name, "is missing")
		}
	}
	data, err := json.Marshal(clean)
	if err != nil {
		return in, err
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return in, argErrorf("arguments", "cannot be read: %v", err)
	}
	return in, nil
}

// checkType checks one argument's JSON against its schema type and returns
// it as In reads it; nil for a JSON null, which is taken as not given.
func checkType(name, typ string, v json.RawMessage) (json.RawMessage, error) {
	v = bytes.TrimSpace(v)
	if string(v) == "null" {
		return nil, nil
	}
	shown := string(v)
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	switch typ {
	case "string":
		if v[0] != '"' {
			return nil, argErrorf(name, "%s is not a string", shown)
		}
	case "integer":
		s := string(v)
		if v[0] == '"' { // "5": a client that sends every argument as a string
			if err := json.Unmarshal(v, &s); err != nil {
				return nil, argErrorf(name, "%s is not a whole number", shown)
			}
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
			return nil, argErrorf(name, "%s is not a whole number", shown)
		}
		return json.RawMessage(strconv.FormatInt(int64(f), 10)), nil
	case "array":
		if v[0] == '"' { // a JSON list sent as a string
			var s string
			if err := json.Unmarshal(v, &s); err == nil && strings.HasPrefix(strings.TrimSpace(s), "[") {
				v = json.RawMessage(s)
			}
		}
		var list []string
		if err := json.Unmarshal(v, &list); err != nil {
			return nil, argErrorf(name, `%s is not a list of strings such as ["a","b"]`, shown)
		}
		return v, nil
	case "boolean":
		if string(v) != "true" && string(v) != "false" {
			return nil, argErrorf(name, "%s is not true or false", shown)
		}
	default:
		return nil, fmt.Errorf("argument %s: schema type %q is not handled", name, typ)
	}
	return v, nil
}
