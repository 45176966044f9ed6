package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/daybook/daybook/internal/util/atomicfile"
)

// Timeouts, in seconds, that the installed hooks give Claude Code: past
// them it stops waiting for the command. Context hooks answer in well under
// a second or print nothing; a capture of a long session takes longer.
const (
	contextTimeout = 10
	captureTimeout = 60
)

// NoCaptureFile in a project's folder, or one above it, turns capture off
// for the sessions in it; so does NoCaptureEnv set to anything but "" or 0.
const (
	NoCaptureFile = ".daybook-nocapture"
	NoCaptureEnv  = "DAYBOOK_NOCAPTURE"
)

// NoCapture says why capture is off for a session in cwd, or "" when it is
// on: getenv reads the hook's environment.
func NoCapture(cwd string, getenv func(string) string) string {
	if v := getenv(NoCaptureEnv); v != "" && v != "0" {
		return "$" + NoCaptureEnv + " is set"
	}
	if cwd == "" || !filepath.IsAbs(cwd) {
		return ""
	}
	for dir := filepath.Clean(cwd); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, NoCaptureFile)); err == nil {
			return filepath.Join(dir, NoCaptureFile) + " exists"
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// hookCommand is one entry of a settings.json matcher group.
type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

type matcherGroup struct {
	Hooks []hookCommand `json:"hooks"`
}

// Settings returns the "hooks" block of Claude Code's settings.json that
// runs daybook (command: the daybook binary, with any global flags) on
// every event it answers.
func Settings(command string) map[string][]matcherGroup {
	out := map[string][]matcherGroup{}
	for _, ev := range Events {
		timeout := contextTimeout
		if ev.Arg == "capture" {
			timeout = captureTimeout
		}
		out[ev.Name] = []matcherGroup{{Hooks: []hookCommand{{Type: "command", Command: command + " hook " + ev.Arg, Timeout: timeout}}}}
	}
	return out
}

// SettingsJSON is Settings as the whole of a settings.json, indented: what
// Install merges into an empty one.
func SettingsJSON(command string) []byte {
	data, _ := Merge(nil, command) // nothing to refuse in no settings
	return data
}

// ShellQuote quotes path for the shell Claude Code runs a hook command in,
// when it needs quoting.
func ShellQuote(path string) string {
	if path != "" && strings.Trim(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:=@%,") == "" {
		return path
	}
	return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
}

// isDaybookHook reports whether command is a daybook hook command, of this
// or an earlier install: "PATH/daybook[-core] [FLAGS] hook EVENT".
func isDaybookHook(command string) bool {
	f := strings.Fields(command)
	if len(f) < 3 || f[len(f)-2] != "hook" {
		return false
	}
	base := filepath.Base(strings.Trim(f[0], `'"`))
	return base == "daybook" || base == "daybook-core" || base == "daybook.exe" || base == "daybook-core.exe"
}

// Merge returns the settings.json old (nil or empty: none yet) with the
// daybook hooks of Settings(command) in it: every other key, event and hook
// kept as it was, daybook's own hooks of an earlier install replaced, so
// that merging twice gives what merging once gave.
func Merge(old []byte, command string) ([]byte, error) {
	keys, top, err := objectKeys(old)
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	events := map[string][]json.RawMessage{}
	var order []string
	if raw, ok := top["hooks"]; ok {
		if order, _, err = objectKeys(raw); err != nil {
			return nil, fmt.Errorf("settings: \"hooks\": %w", err)
		}
		if err := json.Unmarshal(raw, &events); err != nil {
			return nil, fmt.Errorf("settings: \"hooks\": want an object of event name to a list of matcher groups: %w", err)
		}
	} else {
		keys = append(keys, "hooks")
	}
	ours := Settings(command)
	for _, ev := range Events {
		var kept []json.RawMessage
		for i, g := range events[ev.Name] {
			g, err := withoutDaybook(g)
			if err != nil {
				return nil, fmt.Errorf("settings: \"hooks\".%s[%d]: %w", ev.Name, i, err)
			}
			if g != nil {
				kept = append(kept, g)
			}
		}
		mine, _ := marshal(ours[ev.Name][0])
		events[ev.Name] = append(kept, mine)
		if !contains(order, ev.Name) {
			order = append(order, ev.Name)
		}
	}
	hooks, err := encodeObject(order, events)
	if err != nil {
		return nil, err
	}
	top["hooks"] = hooks
	out, err := encodeObject(keys, top)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, out, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// withoutDaybook returns matcher group g without daybook's hooks, or nil
// when none is left; its other fields are kept.
func withoutDaybook(g json.RawMessage) (json.RawMessage, error) {
	keys, fields, err := objectKeys(g)
	if err != nil {
		return nil, err
	}
	var hooks []json.RawMessage
	if raw, ok := fields["hooks"]; ok {
		if err := json.Unmarshal(raw, &hooks); err != nil {
			return nil, fmt.Errorf("\"hooks\": want a list: %w", err)
		}
	}
	var kept []json.RawMessage
	for _, h := range hooks {
		var c hookCommand
		if json.Unmarshal(h, &c) == nil && c.Type == "command" && isDaybookHook(c.Command) {
			continue
		}
		kept = append(kept, h)
	}
	if len(kept) == 0 {
		return nil, nil
	}
	if len(kept) == len(hooks) {
		return g, nil
	}
	fields["hooks"], _ = marshal(kept)
	return encodeObject(keys, fields)
}

// objectKeys decodes a JSON object into its keys, in order, and raw values;
// empty data is an empty object.
func objectKeys(data []byte) ([]string, map[string]json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fields, nil
	}
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, nil, fmt.Errorf("not a JSON object: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token() // {
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := t.(string)
		if !contains(keys, k) {
			keys = append(keys, k)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, nil, err
		}
	}
	return keys, fields, nil
}

// encodeObject writes fields as a JSON object with keys in order.
func encodeObject[V any](keys []string, fields map[string]V) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := marshal(k)
		vj, err := marshal(fields[k])
		if err != nil {
			return nil, err
		}
		b.Write(kj)
		b.WriteByte(':')
		b.Write(vj)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without the escaping of <, > and &, which would
// rewrite a user's "a && b" as "a \u0026\u0026 b".
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Install merges the hooks into the settings.json at path (created when
// missing) and says what it did. A file that changes keeps its old version
// as path+".daybook.bak"; a file that already holds the hooks is not
// written.
func Install(path, command string, log io.Writer) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	merged, err := Merge(old, command)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if bytes.Equal(merged, old) {
		fmt.Fprintf(log, "%s holds the daybook hooks already; not written\n", path)
		return nil
	}
	if old != nil {
		if err := atomicfile.Write(path+".daybook.bak", old, 0o600); err != nil {
			return fmt.Errorf("keeping a backup of %s: %w", path, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := atomicfile.Write(path, merged, 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if old != nil {
		fmt.Fprintf(log, "merged the daybook hooks into %s (the old version is %s.daybook.bak)\n", path, path)
	} else {
		fmt.Fprintf(log, "wrote the daybook hooks to %s\n", path)
	}
	return nil
}
