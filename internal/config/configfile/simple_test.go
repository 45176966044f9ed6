package configfile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/config/configfile"
)

// simpleCases are config files: the plain ones the front reads itself
// (config.ParseSimple), and others it must leave to configfile.
var simpleCases = []struct {
	yaml   string
	simple bool // ParseSimple takes it
}{
	{"", true},
	{"# only a comment\n\n", true},
	{"timezone: UTC\n", true},
	{"timezone: Europe/Berlin # a comment\nrecall:\n  limit: 25\n", true},
	{"hooks:                # comment\n  budget: 2000\n  prompt_budget: 500 # x\n  timeout: 300ms\n  capture: false\n  max_text: 100\n", true},
	{"socket:\n    path: /run/user/1000/db.sock\n", true},
	{"socket:\n  path: \"/tmp/a b/#c.sock\"  # quoted, with a hash\n", true},
	{"socket:\n  path: '/tmp/it''s.sock'\n", true},
	{"socket:\n  path: \"/tmp/q\\\"uote\\\\.sock\"\n", true},
	{"socket:\n  path: \"\"\n", true},
	{"context:\n  budget: 3000\n  summary: 0.5\n  recent: 1\n", true},
	{"context:\n  summary: -0.0\n  recent: 1.25\n", true},
	{"consolidate:\n  daily: \"30 1 * * *\"\n  monthly: 0 3 1 * *\n  yearly: \"\"\n  on_edit: False\n  debounce: 1m30s\n", true},
	{"consolidate:\n  daily: \"*/15 0-6,22 1-31/2 * 1-5\"\n", true},
	{"ollama:\n  enabled: TRUE\n  url: http://127.0.0.1:11434\n  timeout: 2m\n", true},
	{"web:\n  listen: 127.0.0.1:7717\n  allow_remote: false\n", true},
	{"proxy:\n  listen: 127.0.0.1:11435\n  remember: user\n  budget: 800\n", true},
	{"dates:\n  earliest: 1700-01-01\n  ahead_days: 0\n", true},
	{"log:\n  level: debug\n  format: json\n", true},
	{"timezone: UTC\nrecall:\n  limit: 5\ntimezone: UTC\n", false}, // repeated
	{"recall:\n  limt: 5\n", false},
	{"timezon: UTC\n", false},
	{"recall: {limit: 5}\n", false},
	{"recall:\n  limit: &n 5\n", false},
	{"recall:\n  limit: 0x10\n", false},
	{"recall:\n  limit: 010\n", false},
	{"recall:\n  limit: +5\n", false},
	{"recall:\n  limit: 1_000\n", false},
	{"recall:\n  limit: \"5\"\n", false},
	{"recall:\n", false},
	{"recall:\n  limit:\n", false},
	{"recall:\n  limit: 5\n   extra: 1\n", false},
	{"hooks:\n  capture: yes\n", false},
	{"hooks:\n  capture: on\n", false},
	{"hooks:\n  timeout: 2\n", false},
	{"hooks:\n  timeout: 1e9\n", false},
	{"hooks:\n\ttimeout: 2s\n", false},
	{"timezone: Mars/Olympus\n", false},
	{"timezone: ~\n", false},
	{"timezone: null\n", false},
	{"timezone: |\n  UTC\n", false},
	{"timezone: >\n  UTC\n", false},
	{"timezone: !!str UTC\n", false},
	{"timezone: \"U\\tTC\"\n", false},
	{"---\ntimezone: UTC\n", false},
	{"- just\n- a list\n", false},
	{"consolidate:\n  daily: \"61 * * * *\"\n", false},
	{"consolidate:\n  daily: \"@daily\"\n", false},
	{"consolidate:\n  daily: \"0 2 * * MON\"\n", false},
	{"consolidate:\n  daily: \"0 2 * * 7\"\n", false},
	{"consolidate:\n  daily: \"0 2 ? * *\"\n", false},
	{"consolidate:\n  daily: \"5/10 2 * * *\"\n", false},
	{"consolidate:\n  daily: \"0 2 * *\"\n", false},
	{"ollama:\n  concurrency: 0\n", false},
	{"context:\n  summary: .5\n", false},
	{"web:\n  listen: 0.0.0.0:7717\n", false},
	{"timezone: UTC\r\n", false},
	{"\ufefftimezone: UTC\n", false},
	{"timezone: UTC #\n  x\n", false},
	{"timezone: a: b\n", false},
	{"timezone: UTC\n...\n", false},
}

// TestSimpleAgrees holds the front's reader to configfile's: a file it
// takes gives the same config, and it takes the plain files, the example
// config among them.
func TestSimpleAgrees(t *testing.T) {
	cases := simpleCases
	examples, _ := filepath.Glob("../../../configs/*.yaml")
	for _, m := range examples {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			yaml   string
			simple bool
		}{string(data), true})
	}
	// The config blocks of the docs are plain files too.
	docs, _ := filepath.Glob("../../../docs/*.md")
	block := regexp.MustCompile("(?ms)^```yaml\n(.*?)```")
	for _, d := range docs {
		data, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range block.FindAllStringSubmatch(string(data), -1) {
			if _, err := configfile.Parse(d, []byte(m[1])); err == nil {
				cases = append(cases, struct {
					yaml   string
					simple bool
				}{m[1], true})
			}
		}
	}
	for _, c := range cases {
		simple, ok := config.ParseSimple([]byte(c.yaml))
		if ok != c.simple {
			t.Errorf("ParseSimple(%q): %v, want %v", c.yaml, ok, c.simple)
		}
		if !ok {
			continue
		}
		full, err := configfile.Parse("c.yaml", []byte(c.yaml))
		if err != nil {
			t.Errorf("ParseSimple took %q, which configfile refuses: %v", c.yaml, err)
			continue
		}
		if a, b := describe(simple), describe(full); a != b {
			t.Errorf("%q:\nParseSimple %s\nconfigfile  %s", c.yaml, a, b)
		}
	}
}

// describe is what a config decides, as text.
func describe(c config.Config) string {
	data, _ := json.Marshal(c)
	w := c.Window()
	return string(data) + " " + c.Location().String() + " " + w.Earliest.String() + " " + strings.Repeat("+", w.Ahead)
}

// TestReadSimple reads files: a missing one is the defaults unless it was
// named.
func TestReadSimple(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.yaml")
	if c, ok := config.ReadSimple(missing, false); !ok || c.Recall.Limit != config.Default().Recall.Limit {
		t.Errorf("a missing default config: %v %+v, want the defaults", ok, c.Recall)
	}
	if _, ok := config.ReadSimple(missing, true); ok {
		t.Error("a missing named config was taken; configfile must say it is missing")
	}
	path := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(path, []byte("recall:\n  limit: 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, ok := config.ReadSimple(path, true); !ok || c.Recall.Limit != 7 {
		t.Errorf("ReadSimple: %v %+v", ok, c.Recall)
	}
}
