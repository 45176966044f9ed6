package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultsValidate(t *testing.T) {
	c := Default()
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	if c.Ollama.Enabled {
		t.Error("Ollama is on by default; a fresh install must need no model")
	}
}

func TestParseOverDefaults(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte("timezone: Europe/Berlin\nconsolidate:\n  daily: \"30 1 * * *\"\n  debounce: 2s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Consolidate.Daily != "30 1 * * *" || c.Consolidate.Monthly != Default().Consolidate.Monthly {
		t.Errorf("consolidate = %+v: unset keys must keep defaults", c.Consolidate)
	}
	if c.Consolidate.Debounce != 2*time.Second || !c.Consolidate.OnEdit {
		t.Errorf("debounce/on_edit = %v/%v", c.Consolidate.Debounce, c.Consolidate.OnEdit)
	}
	if c.Location().String() != "Europe/Berlin" {
		t.Errorf("location = %v", c.Location())
	}
}

func TestHooksConfig(t *testing.T) {
	c, err := Parse("cfg.yaml", []byte("hooks:\n  prompt_budget: 500\n  timeout: 300ms\n  capture: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Hooks{Budget: 2000, PromptBudget: 500, Timeout: 300 * time.Millisecond, Capture: false, MaxText: 4000}
	if c.Hooks != want {
		t.Errorf("hooks = %+v, want %+v", c.Hooks, want)
	}
}

func TestBadConfigsNameWhatIsWrong(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"timezon: UTC\n", "timezon"},                // unknown key, with its line
		{"consolidate:\n  dayly: x\n", "dayly"},      // unknown nested key
		{"consolidate:\n  debounce: soon\n", "soon"}, // wrong type
		{"recall:\n  limit: many\n", "many"},         // wrong type
		{"timezone: Mars/Olympus\n", "Mars/Olympus"}, // no such zone
		{"consolidate:\n  daily: \"61 * * * *\"\n", "consolidate.daily"},
		{"ollama:\n  concurrency: 0\n", "ollama.concurrency"},
		{"log:\n  level: loud\n", "log.level"},
		{"context:\n  summary: 0\n  recent: 0\n", "context.summary"},
		{"hooks:\n  budget: 0\n", "hooks.budget"},
		{"hooks:\n  prompt_budget: -5\n", "hooks.prompt_budget"},
		{"hooks:\n  timeout: 0s\n", "hooks.timeout"},
		{"hooks:\n  max_text: 10\n", "hooks.max_text"},
		{"hooks:\n  capture: sometimes\n", "sometimes"},
		{"hooks:\n  budgets: 10\n", "hooks.budgets"},
		{"- just\n- a list\n", "cfg.yaml"},
	} {
		_, err := Parse("cfg.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "cfg.yaml") {
			t.Errorf("%q: err = %v, want it to name %q and the file", c.yaml, err, c.want)
		}
	}
}

func TestUnknownKeyNamesPathFileAndLine(t *testing.T) {
	_, err := Parse("/home/u/.config/daybook/config.yaml", []byte("timezone: UTC\nrecall:\n  limt: 5\n"))
	want := "/home/u/.config/daybook/config.yaml: line 3: unknown key recall.limt"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
	if strings.Contains(err.Error(), "config.Recall") {
		t.Errorf("err = %v names a Go type", err)
	}
}

func TestDatesWindowConfig(t *testing.T) {
	c, err := Parse("c", []byte("dates:\n  earliest: 1700-01-01\n  ahead_days: 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Window(); w.Earliest.String() != "1700-01-01" || w.Ahead != 0 {
		t.Errorf("window = %+v", w)
	}
	for _, bad := range []string{"dates:\n  earliest: 1700\n", "dates:\n  ahead_days: -1\n"} {
		if _, err := Parse("c", []byte(bad)); err == nil || !strings.Contains(err.Error(), "dates.") {
			t.Errorf("%q: err = %v, want it to name the dates key", bad, err)
		}
	}
}

func TestEmptyAndDisabledSpecs(t *testing.T) {
	c, err := Parse("c", []byte("consolidate:\n  yearly: \"\"\n"))
	if err != nil || c.Consolidate.Yearly != "" {
		t.Fatalf("an empty spec must disable the job: %v %q", err, c.Consolidate.Yearly)
	}
	if _, err := Parse("c", nil); err != nil {
		t.Fatalf("an empty file is the defaults: %v", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	if _, err := Load(missing, false); err != nil {
		t.Errorf("a missing default config must give the defaults: %v", err)
	}
	if _, err := Load(missing, true); err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("a missing named config must fail naming it: %v", err)
	}
}

func env(vars map[string]string, home string) Env {
	return Env{Getenv: func(k string) string { return vars[k] }, HomeDir: func() (string, error) { return home, nil }}
}

func TestDataDirOrder(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		flag string
		vars map[string]string
		want string
	}{
		{"/f", map[string]string{"DAYBOOK_DIR": "/e", "XDG_DATA_HOME": "/x"}, "/f"},
		{"", map[string]string{"DAYBOOK_DIR": "/e", "XDG_DATA_HOME": "/x"}, "/e"},
		{"", map[string]string{"XDG_DATA_HOME": "/x"}, "/x/daybook"},
		{"", nil, filepath.Join(home, ".local", "share", "daybook")},
	} {
		got, err := env(c.vars, home).DataDir(c.flag)
		if err != nil || got != c.want {
			t.Errorf("DataDir(%q, %v) = %q, %v; want %q", c.flag, c.vars, got, err, c.want)
		}
	}
}

func TestConfigAndSocketPaths(t *testing.T) {
	home := t.TempDir()
	p, req, _ := env(map[string]string{"DAYBOOK_CONFIG": "/c.yaml"}, home).ConfigPath("")
	if p != "/c.yaml" || !req {
		t.Errorf("$DAYBOOK_CONFIG: %q %v", p, req)
	}
	p, req, _ = env(map[string]string{"XDG_CONFIG_HOME": "/xc"}, home).ConfigPath("")
	if p != "/xc/daybook/config.yaml" || req {
		t.Errorf("XDG_CONFIG_HOME: %q %v", p, req)
	}
	c := Default()
	if got := env(map[string]string{"XDG_RUNTIME_DIR": "/run/user/1"}, home).SocketPath(c, "/d"); got != "/run/user/1/daybook/daybook.sock" {
		t.Errorf("socket with XDG_RUNTIME_DIR = %q", got)
	}
	if got := env(nil, home).SocketPath(c, "/d"); got != "/d/daybook.sock" {
		t.Errorf("socket without XDG_RUNTIME_DIR = %q", got)
	}
}

func TestExampleConfigLoads(t *testing.T) {
	matches, _ := filepath.Glob("../../configs/*.yaml")
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(m, data); err != nil {
			t.Errorf("example config does not load: %v", err)
		}
	}
}
