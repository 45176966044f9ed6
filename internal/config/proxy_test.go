package config

import (
	"strings"
	"testing"
)

func TestProxyConfig(t *testing.T) {
	c, err := Parse("c", []byte("proxy:\n  listen: 127.0.0.1:11435\n  remember: user\n  budget: 800\n  max_body_mib: 8\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Proxy.Listen != "127.0.0.1:11435" || c.Proxy.Remember != RememberUser || c.Proxy.Budget != 800 || c.Proxy.MaxBodyMiB != 8 {
		t.Errorf("proxy = %+v", c.Proxy)
	}
	if got := c.ProxyUpstream(); got != c.Ollama.URL {
		t.Errorf("upstream = %q, want ollama.url %q when proxy.upstream is empty", got, c.Ollama.URL)
	}
	if d := Default(); d.Proxy.Listen != "" {
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
		_, err := Parse("cfg.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want it to name %q", c.yaml, err, c.want)
		}
	}
}
