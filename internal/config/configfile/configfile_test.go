package configfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/config/configfile"
)

func TestParseOverDefaults(t *testing.T) {
	c, err := configfile.Parse("cfg.yaml", []byte("timezone: Europe/Berlin\nconsolidate:\n  daily: \"30 1 * * *\"\n  debounce: 2s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Consolidate.Daily != "30 1 * * *" || c.Consolidate.Monthly != config.Default().Consolidate.Monthly {
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
	c, err := configfile.Parse("cfg.yaml", []byte("hooks:\n  prompt_budget: 500\n  timeout: 300ms\n  capture: false\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := config.Hooks{Budget: 2000, PromptBudget: 500, Timeout: 300 * time.Millisecond, Capture: false, MaxText: 4000}
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
		_, err := configfile.Parse("cfg.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "cfg.yaml") {
			t.Errorf("%q: err = %v, want it to name %q and the file", c.yaml, err, c.want)
		}
	}
}

func TestUnknownKeyNamesPathFileAndLine(t *testing.T) {
	_, err := configfile.Parse("/home/u/.config/daybook/config.yaml", []byte("timezone: UTC\nrecall:\n  limt: 5\n"))
	want := "/home/u/.config/daybook/config.yaml: line 3: unknown key recall.limt"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
	if strings.Contains(err.Error(), "config.Recall") {
		t.Errorf("err = %v names a Go type", err)
	}
}

func TestDatesWindowConfig(t *testing.T) {
	c, err := configfile.Parse("c", []byte("dates:\n  earliest: 1700-01-01\n  ahead_days: 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Window(); w.Earliest.String() != "1700-01-01" || w.Ahead != 0 {
		t.Errorf("window = %+v", w)
	}
	for _, bad := range []string{"dates:\n  earliest: 1700\n", "dates:\n  ahead_days: -1\n"} {
		if _, err := configfile.Parse("c", []byte(bad)); err == nil || !strings.Contains(err.Error(), "dates.") {
			t.Errorf("%q: err = %v, want it to name the dates key", bad, err)
		}
	}
}

func TestEmptyAndDisabledSpecs(t *testing.T) {
	c, err := configfile.Parse("c", []byte("consolidate:\n  yearly: \"\"\n"))
	if err != nil || c.Consolidate.Yearly != "" {
		t.Fatalf("an empty spec must disable the job: %v %q", err, c.Consolidate.Yearly)
	}
	if _, err := configfile.Parse("c", nil); err != nil {
		t.Fatalf("an empty file is the defaults: %v", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	if _, err := configfile.Load(missing, false); err != nil {
		t.Errorf("a missing default config must give the defaults: %v", err)
	}
	if _, err := configfile.Load(missing, true); err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("a missing named config must fail naming it: %v", err)
	}
}

func TestExampleConfigLoads(t *testing.T) {
	matches, _ := filepath.Glob("../../../configs/*.yaml")
	for _, m := range matches {
		data, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := configfile.Parse(m, data); err != nil {
			t.Errorf("example config does not load: %v", err)
		}
	}
}

func TestProxyConfig(t *testing.T) {
	c, err := configfile.Parse("c", []byte("proxy:\n  listen: 127.0.0.1:11435\n  remember: user\n  budget: 800\n  max_body_mib: 8\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Proxy.Listen != "127.0.0.1:11435" || c.Proxy.Remember != config.RememberUser || c.Proxy.Budget != 800 || c.Proxy.MaxBodyMiB != 8 {
		t.Errorf("proxy = %+v", c.Proxy)
	}
	if got := c.ProxyUpstream(); got != c.Ollama.URL {
		t.Errorf("upstream = %q, want ollama.url %q when proxy.upstream is empty", got, c.Ollama.URL)
	}
	if d := config.Default(); d.Proxy.Listen != "" {
		t.Errorf("the proxy listens by default at %q; it must be off", d.Proxy.Listen)
	}
}

func TestProxyConfigRefusesWhatIsWrong(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"proxy:\n  listen: 0.0.0.0:11435\n", `proxy.listen: "0.0.0.0:11435"`},
		{"proxy:\n  listen: 192.168.1.4:11435\n", "loopback"},
		{"proxy:\n  listen: \":11435\"\n", "every interface"},
		{"proxy:\n  listen: localhost\n", "proxy.listen"},
		{"proxy:\n  remember: some\n", `proxy.remember: "some"`},
		{"proxy:\n  budget: 0\n", "proxy.budget: 0"},
		{"proxy:\n  upstream: 127.0.0.1:11434\n", "proxy.upstream"},
		{"proxy:\n  listn: x\n", "proxy.listn"},
		{"proxy:\n  max_body_mib: 0\n", "proxy.max_body_mib: 0"},
		{"proxy:\n  max_body_mib: 4096\n", "proxy.max_body_mib: 4096"},
		{"proxy:\n  max_body_mib: big\n", "line 2"},
	} {
		_, err := configfile.Parse("cfg.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want it to name %q", c.yaml, err, c.want)
		}
	}
}
