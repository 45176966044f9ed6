package config

import (
	"path/filepath"
	"testing"
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
