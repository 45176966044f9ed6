package config

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// ReadSimple reads the config file at path as configfile.Load does, for a
// program that links no YAML or cron parser (the front, cmd/daybook). It
// takes the plain files a config is: comments, and top-level keys holding a
// value or a section of keys with values, each value plain, 'single' or
// "double" quoted. It reports false for anything else: a named file that is
// missing, other YAML (flow style, anchors, block scalars, ...), an unknown
// or repeated key, a value of another form than the field takes (true or
// false, a decimal number, a duration such as 2s), a config that does not
// validate, or a cron spec other than five fields of numbers, ranges, steps
// and *. The caller then has configfile read the file, which says what is
// wrong, and whatever ReadSimple takes, configfile takes the same way (a
// test holds the two together).
func ReadSimple(path string, required bool) (Config, bool) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !required {
		c := Default()
		return c, c.Validate() == nil
	}
	if err != nil {
		return Config{}, false
	}
	return ParseSimple(data)
}

// ParseSimple is ReadSimple on the file's contents.
func ParseSimple(data []byte) (Config, bool) {
	c := Default()
	if !decodeSimple(data, reflect.ValueOf(&c).Elem()) || c.Validate() != nil {
		return Config{}, false
	}
	for _, s := range c.Schedules() {
		if s.Spec != "" && !simpleCron(s.Spec) {
			return Config{}, false
		}
	}
	return c, true
}

// decodeSimple sets the fields of the struct v from data, the forms
// ReadSimple takes; false when data holds any other.
func decodeSimple(data []byte, v reflect.Value) bool {
	s := string(data)
	if strings.ContainsAny(s, "\t\r\x00\ufeff") {
		return false
	}
	top := Fields(v.Type())
	seen := map[string]bool{}
	var section reflect.Value // the struct of the section being read, if any
	var sectionKey string
	var sectionFields map[string]reflect.StructField
	indent := -1 // the section's indent, once its first key set it
	for _, line := range strings.Split(s, "\n") {
		body := strings.TrimLeft(line, " ")
		if body == "" || body[0] == '#' {
			continue
		}
		n := len(line) - len(body)
		key, val, ok := keyValue(body)
		if !ok {
			return false
		}
		if n == 0 {
			section = reflect.Value{}
			if seen[key] {
				return false
			}
			seen[key] = true
			f, ok := top[key]
			if !ok {
				return false
			}
			fv := v.FieldByIndex(f.Index)
			if val == "" {
				if fv.Kind() != reflect.Struct || f.Type == reflect.TypeFor[time.Duration]() {
					return false // a null, or a nested form
				}
				section, sectionKey, sectionFields, indent = fv, key, Fields(f.Type), -1
				continue
			}
			if !setScalar(fv, val) {
				return false
			}
			continue
		}
		if !section.IsValid() || indent >= 0 && n != indent || val == "" {
			return false
		}
		indent = n
		if seen[sectionKey+"."+key] {
			return false
		}
		seen[sectionKey+"."+key] = true
		f, ok := sectionFields[key]
		if !ok || !setScalar(section.FieldByIndex(f.Index), val) {
			return false
		}
	}
	// A section with no key under it is a null: not a plain file.
	for key, f := range top {
		if seen[key] && f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Duration]() {
			found := false
			for k := range seen {
				if strings.HasPrefix(k, key+".") {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	return true
}

// keyValue splits "key: value # comment" into the key and the value as
// written (quotes kept, the comment and the spaces around it gone); the key
// is lower-case letters, digits and underscores.
func keyValue(body string) (key, val string, ok bool) {
	i := strings.IndexByte(body, ':')
	if i <= 0 {
		return "", "", false
	}
	key = body[:i]
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return "", "", false
		}
	}
	rest := body[i+1:]
	if rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || rest[0] == '#' {
		return key, "", true
	}
	switch rest[0] {
	case '"', '\'':
		end := closingQuote(rest)
		if end < 0 {
			return "", "", false
		}
		tail := strings.TrimLeft(rest[end+1:], " ")
		if tail != "" && (tail[0] != '#' || len(tail) == len(rest[end+1:])) {
			return "", "", false
		}
		return key, rest[:end+1], true
	}
	if j := strings.Index(rest, " #"); j >= 0 {
		rest = rest[:j]
	}
	return key, strings.TrimRight(rest, " "), true
}

// closingQuote returns the index of the quote that closes the quoted scalar
// s starts with, or -1.
func closingQuote(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// setScalar sets v from the value val as written; false when val is not
// of a form the field takes here.
func setScalar(v reflect.Value, val string) bool {
	quoted := val[0] == '"' || val[0] == '\''
	text := val
	if quoted {
		var ok bool
		if text, ok = unquote(val); !ok {
			return false
		}
	} else if !plainScalar(val) {
		return false
	}
	switch {
	case v.Type() == reflect.TypeFor[time.Duration]():
		if !quoted && isNumber(text) {
			return false
		}
		d, err := time.ParseDuration(text)
		if err != nil {
			return false
		}
		v.SetInt(int64(d))
	case v.Kind() == reflect.String:
		if !quoted && isNull(text) {
			return false
		}
		v.SetString(text)
	case quoted:
		return false
	case v.Kind() == reflect.Bool:
		switch text {
		case "true", "True", "TRUE":
			v.SetBool(true)
		case "false", "False", "FALSE":
			v.SetBool(false)
		default:
			return false
		}
	case v.Kind() == reflect.Int:
		if !isDecimal(text) {
			return false
		}
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
	case v.Kind() == reflect.Float64:
		whole, frac, dot := strings.Cut(text, ".")
		if !isDecimal(whole) || dot && (frac == "" || strings.Trim(frac, "0123456789") != "") {
			return false
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return false
		}
		v.SetFloat(f)
	default:
		return false
	}
	return true
}

// plainScalar reports whether val is a plain scalar of one line that YAML
// reads as its text: no indicator first, no ": " or " #" within.
func plainScalar(val string) bool {
	if strings.ContainsAny(val[:1], "-?:,[]{}#&*!|>'\"%@`") && !(val[0] == '-' && len(val) > 1 && val[1] >= '0' && val[1] <= '9') {
		return false
	}
	return !strings.Contains(val, ": ") && !strings.Contains(val, " #") && !strings.HasSuffix(val, ":")
}

// unquote returns the text of a quoted scalar: in double quotes only \\ and
// \" are taken as escapes, in single quotes ”.
func unquote(val string) (string, bool) {
	inner := val[1 : len(val)-1]
	if val[0] == '\'' {
		return strings.ReplaceAll(inner, "''", "'"), true
	}
	var b strings.Builder
	for i := 0; i < len(inner); i++ {
		if inner[i] != '\\' {
			b.WriteByte(inner[i])
			continue
		}
		i++
		if i == len(inner) || inner[i] != '\\' && inner[i] != '"' {
			return "", false
		}
		b.WriteByte(inner[i])
	}
	return b.String(), true
}

// isDecimal reports whether s is an integer as YAML's core schema reads one
// the same in every version: an optional "-", then 0 or digits not starting
// with 0.
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return false
	}
	return s == "0" || s[0] != '0'
}

// isNumber reports whether YAML may read s as a number.
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	return err == nil || strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0o") || strings.HasPrefix(s, ".")
}

// isNull reports whether YAML reads the plain scalar s as null.
func isNull(s string) bool {
	switch s {
	case "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// simpleCron reports whether spec is five fields (minute, hour, day of the
// month, month, day of the week) of numbers in their ranges, ranges A-B,
// *, and steps /N of either, joined by commas: what every cron parser
// takes alike. Anything else (names, @daily, ?) is configfile's to check.
func simpleCron(spec string) bool {
	fields := strings.Fields(spec)
	bounds := [5][2]int{{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 6}}
	if len(fields) != len(bounds) {
		return false
	}
	for i, f := range fields {
		lo, hi := bounds[i][0], bounds[i][1]
		for _, item := range strings.Split(f, ",") {
			rng, step, hasStep := strings.Cut(item, "/")
			if hasStep {
				if n, ok := cronNumber(step, 1, hi); !ok || n < 1 {
					return false
				}
			}
			if rng == "*" {
				continue
			}
			a, b, isRange := strings.Cut(rng, "-")
			x, ok := cronNumber(a, lo, hi)
			if !ok {
				return false
			}
			if !isRange {
				if hasStep {
					return false // A/N: parsers differ
				}
				continue
			}
			if y, ok := cronNumber(b, lo, hi); !ok || y < x {
				return false
			}
		}
	}
	return true
}

// cronNumber parses s, digits only, as a number in lo..hi.
func cronNumber(s string, lo, hi int) (int, bool) {
	if s == "" || len(s) > 2 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, _ := strconv.Atoi(s)
	return n, n >= lo && n <= hi
}
