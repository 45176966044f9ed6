package config_test

import (
	"slices"
	"testing"

	"github.com/daybook/daybook/internal/config"
)

// config.Variables, the list "daybook help" prints, holds every environment
// variable Env reads to find the data dir, the config and the socket, and
// nothing it does not read.
func TestVariablesAreWhatEnvReads(t *testing.T) {
	read := map[string]bool{}
	env := config.Env{
		Getenv:  func(k string) string { read[k] = true; return "" },
		HomeDir: func() (string, error) { read[config.VarHome] = true; return "/home/x", nil },
	}
	if _, err := env.DataDir(""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := env.ConfigPath(""); err != nil {
		t.Fatal(err)
	}
	env.SocketPath(config.Default(), "/data")
	var listed []string
	for _, v := range config.Variables {
		listed = append(listed, v.Name)
		if !read[v.Name] {
			t.Errorf("config.Variables lists $%s, which Env does not read", v.Name)
		}
	}
	for k := range read {
		if !slices.Contains(listed, k) {
			t.Errorf("Env reads $%s, which config.Variables does not list", k)
		}
	}
}
