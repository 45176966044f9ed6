// Package config resolves daybook's data dir and config file and holds the
// config: its defaults and its validation, with errors that name the field
// and the value. The file is read by configfile, with the YAML parser, over
// the defaults; ReadSimple reads the plain files most configs are without
// one, for the front (cmd/daybook), which links no YAML or cron parser.
package config

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
)

// Config is daybook's configuration. The zero value is not useful: start from Default.
type Config struct {
	// Timezone names the IANA zone whose days entries belong to; "Local" (the
	// default) is the machine's zone, which the App pins per data dir at its
	// first write (ZoneFile) so that every process agrees.
	Timezone    string      `yaml:"timezone"`
	Consolidate Consolidate `yaml:"consolidate"`
	Socket      Socket      `yaml:"socket"`
	Ollama      Ollama      `yaml:"ollama"`
	Recall      Recall      `yaml:"recall"`
	Context     Context     `yaml:"context"`
	Hooks       Hooks       `yaml:"hooks"`
	Web         Web         `yaml:"web"`
	Proxy       Proxy       `yaml:"proxy"`
	Log         Log         `yaml:"log"`
	Dates       Dates       `yaml:"dates"`

	loc    *time.Location
	window date.Window
}

// Dates bounds the days new entries may be filed under, so that one entry
// dated 9999-12-31 or 0001-01-01 cannot poison the timeline.
type Dates struct {
	Earliest  string `yaml:"earliest"`   // YYYY-MM-DD; default 1900-01-01
	AheadDays int    `yaml:"ahead_days"` // days past today; default 2
}

// Consolidate schedules the summaries. An empty spec disables that job.
type Consolidate struct {
	Daily    string        `yaml:"daily"`    // cron spec; default "0 2 * * *": yesterday's day
	Monthly  string        `yaml:"monthly"`  // default "0 3 1 * *": last month
	Yearly   string        `yaml:"yearly"`   // default "0 4 1 1 *": last year
	OnEdit   bool          `yaml:"on_edit"`  // redo an edited day after Debounce
	Debounce time.Duration `yaml:"debounce"` // quiet time after the last change to a day file
}

// Socket is the daemon's local API.
type Socket struct {
	Path string `yaml:"path"` // default $XDG_RUNTIME_DIR/daybook/daybook.sock, else DATA_DIR/daybook.sock
}

// Ollama configures summaries and embeddings from an Ollama server.
type Ollama struct {
	Enabled       bool          `yaml:"enabled"`
	URL           string        `yaml:"url"`
	SummaryModel  string        `yaml:"summary_model"`
	EmbedModel    string        `yaml:"embed_model"`
	Timeout       time.Duration `yaml:"timeout"`       // one summary request
	EmbedTimeout  time.Duration `yaml:"embed_timeout"` // one embedding batch
	Concurrency   int           `yaml:"concurrency"`
	ContextTokens int           `yaml:"context_tokens"` // the summary model's context window
}

// Recall tunes the drill.
type Recall struct {
	Limit int `yaml:"limit"` // results when a query gives no --limit
}

// Context tunes the assembled agent context.
type Context struct {
	Budget  int     `yaml:"budget"`  // tokens when a request gives none
	Summary float64 `yaml:"summary"` // share of what the foundation leaves for summaries
	Recent  float64 `yaml:"recent"`  // share of what the foundation leaves for recent entries
}

// Hooks tunes "daybook hook", which an agent (Claude Code) runs at its
// events: the context it is handed and how long a hook waits for the
// daemon before it gives up and prints nothing.
type Hooks struct {
	Budget       int           `yaml:"budget"`        // tokens of the block at a session's start
	PromptBudget int           `yaml:"prompt_budget"` // tokens of the block for a prompt
	Timeout      time.Duration `yaml:"timeout"`       // the wait for the daemon's answer to a context hook
	Capture      bool          `yaml:"capture"`       // remember the sessions' prompts and answers
	MaxText      int           `yaml:"max_text"`      // bytes of one captured prompt or answer kept
}

// Web is the opt-in timeline page.
type Web struct {
	Listen string `yaml:"listen"` // "" is off; e.g. 127.0.0.1:7717
	// AllowRemote lets Listen be an address other machines can reach
	// (0.0.0.0:7717, a LAN address). Off, only loopback addresses are taken.
	AllowRemote bool `yaml:"allow_remote"`
}

// Validate checks Listen: a host and a port, and a loopback host (127.0.0.1,
// ::1, localhost) unless AllowRemote is set. An empty Listen is valid: off.
func (w Web) Validate() error {
	if w.Listen == "" {
		return nil
	}
	host, port, err := splitHostPort(w.Listen)
	if err != nil {
		return fmt.Errorf("web.listen: %q is not HOST:PORT (e.g. 127.0.0.1:7717): %v", w.Listen, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("web.listen: %q: port %q is not a number 0..65535", w.Listen, port)
	}
	if w.AllowRemote || IsLoopbackHost(host) {
		return nil
	}
	if host == "" {
		host = "every interface"
	}
	return fmt.Errorf("web.listen: %q listens on %s, which other machines can reach; use 127.0.0.1 or set web.allow_remote: true", w.Listen, host)
}

// IsLoopbackHost reports whether host (from a HOST:PORT) names this machine
// only: localhost or a loopback IP.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.IsLoopback()
}

// splitHostPort splits HOST:PORT, [IPv6]:PORT, or :PORT as net.SplitHostPort
// does. It is here so that config does not import net, which on a machine
// with a C compiler links libc into every binary that reads the config, the
// fast-starting front "daybook" among them (cmd/daybook).
func splitHostPort(s string) (host, port string, err error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", "", errors.New("missing port")
	}
	host, port = s[:i], s[i+1:]
	if strings.HasPrefix(host, "[") {
		if !strings.HasSuffix(host, "]") {
			return "", "", errors.New("missing ']'")
		}
		host = host[1 : len(host)-1]
	} else if strings.Contains(host, ":") {
		return "", "", errors.New("too many colons")
	}
	if strings.ContainsAny(host, "[]") || strings.ContainsAny(port, "[]") {
		return "", "", errors.New("unexpected '[' or ']'")
	}
	return host, port, nil
}

// Proxy is the opt-in memory proxy in front of Ollama (docs/chat.md).
type Proxy struct {
	Listen   string `yaml:"listen"`   // "" is off; a loopback HOST:PORT, e.g. 127.0.0.1:11435
	Upstream string `yaml:"upstream"` // the Ollama server it forwards to; "" is ollama.url
	Budget   int    `yaml:"budget"`   // tokens of the context block injected per turn
	Remember string `yaml:"remember"` // all, user or none
	// MaxBodyMiB bounds the body of a chat or generate request, which the
	// proxy reads whole to add memory: a bigger one gets 413 as soon as
	// the count is passed. Other paths (a model's blob) stream untouched.
	MaxBodyMiB int `yaml:"max_body_mib"`
}

// MaxProxyBodyMiB is the largest proxy.max_body_mib: a body is held in
// memory, decoded and encoded again on its way upstream.
const MaxProxyBodyMiB = 256

// Proxy remember modes.
const (
	RememberAll  = "all"  // the user's turn and the model's reply
	RememberUser = "user" // the user's turn only
	RememberNone = "none" // nothing: the proxy only injects memory
)

// Validate checks the proxy's fields: Listen a loopback HOST:PORT (the
// proxy answers for the user's memory without asking who calls), Upstream
// an http(s) URL, Budget positive, Remember one of all, user, none,
// MaxBodyMiB 1..MaxProxyBodyMiB.
func (p Proxy) Validate() error {
	if p.Listen != "" {
		if err := CheckProxyListen(p.Listen); err != nil {
			return err
		}
	}
	if p.Upstream != "" && !strings.HasPrefix(p.Upstream, "http://") && !strings.HasPrefix(p.Upstream, "https://") {
		return fmt.Errorf("proxy.upstream: %q is not an http:// or https:// URL", p.Upstream)
	}
	if p.Budget < 1 {
		return fmt.Errorf("proxy.budget: %d must be positive", p.Budget)
	}
	switch p.Remember {
	case RememberAll, RememberUser, RememberNone:
	default:
		return fmt.Errorf("proxy.remember: %q is not one of all, user, none", p.Remember)
	}
	if p.MaxBodyMiB < 1 || p.MaxBodyMiB > MaxProxyBodyMiB {
		return fmt.Errorf("proxy.max_body_mib: %d must be 1..%d (MiB of a chat request's body)", p.MaxBodyMiB, MaxProxyBodyMiB)
	}
	return nil
}

// CheckProxyListen checks that addr, as proxy.listen, is a loopback
// HOST:PORT: the proxy answers for the user's memory without asking who
// calls.
func CheckProxyListen(addr string) error {
	host, port, err := splitHostPort(addr)
	if err != nil {
		return fmt.Errorf("proxy.listen: %q is not HOST:PORT (e.g. 127.0.0.1:11435): %v", addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("proxy.listen: %q: port %q is not a number 0..65535", addr, port)
	}
	if !IsLoopbackHost(host) {
		if host == "" {
			host = "every interface"
		}
		return fmt.Errorf("proxy.listen: %q listens on %s, which other machines can reach; the proxy serves your memory to whoever connects, so it takes a loopback address only (127.0.0.1, ::1, localhost)", addr, host)
	}
	return nil
}

// ProxyUpstream returns the URL the proxy forwards to: proxy.upstream, else
// ollama.url.
func (c *Config) ProxyUpstream() string {
	if c.Proxy.Upstream != "" {
		return c.Proxy.Upstream
	}
	return c.Ollama.URL
}

// Log configures logging.
type Log struct {
	Level  string `yaml:"level"`  // debug, info, warn, error
	Format string `yaml:"format"` // text, json, or "" for text on a terminal and JSON otherwise
}

// Default returns the embedded defaults: offline models, local time zone.
func Default() Config {
	return Config{
		Timezone: "Local",
		Consolidate: Consolidate{
			Daily: "0 2 * * *", Monthly: "0 3 1 * *", Yearly: "0 4 1 1 *",
			OnEdit: true, Debounce: 5 * time.Second,
		},
		Ollama: Ollama{
			URL: "http://127.0.0.1:11434", SummaryModel: "llama3.2", EmbedModel: "nomic-embed-text",
			Timeout: 120 * time.Second, EmbedTimeout: 30 * time.Second, Concurrency: 1, ContextTokens: 8192,
		},
		Recall:  Recall{Limit: 10},
		Context: Context{Budget: 4000, Summary: 0.6, Recent: 0.4},
		Proxy:   Proxy{Budget: 1500, Remember: RememberAll, MaxBodyMiB: 32},
		Hooks:   Hooks{Budget: 2000, PromptBudget: 1000, Timeout: 2 * time.Second, Capture: true, MaxText: 4000},
		Log:     Log{Level: "info"},
		Dates:   Dates{Earliest: date.DefaultEarliest.String(), AheadDays: date.DefaultAhead},
	}
}

// Validate checks every field and names the first one that is wrong, but
// for the cron specs of Consolidate, which configfile.Validate checks too.
func (c *Config) Validate() error {
	loc, err := loadLocation(c.Timezone)
	if err != nil {
		return fmt.Errorf("timezone: %q is not a time zone (want an IANA name such as Europe/Berlin, or Local)", c.Timezone)
	}
	c.loc = loc
	switch {
	case c.Consolidate.Debounce < 0:
		return fmt.Errorf("consolidate.debounce: %v is negative", c.Consolidate.Debounce)
	case c.Ollama.Timeout <= 0:
		return fmt.Errorf("ollama.timeout: %v must be positive", c.Ollama.Timeout)
	case c.Ollama.EmbedTimeout <= 0:
		return fmt.Errorf("ollama.embed_timeout: %v must be positive", c.Ollama.EmbedTimeout)
	case c.Ollama.Concurrency < 1:
		return fmt.Errorf("ollama.concurrency: %d must be at least 1", c.Ollama.Concurrency)
	case c.Ollama.ContextTokens < 512:
		return fmt.Errorf("ollama.context_tokens: %d must be at least 512", c.Ollama.ContextTokens)
	case c.Ollama.Enabled && c.Ollama.URL == "":
		return errors.New("ollama.url: empty while ollama.enabled is true")
	case c.Recall.Limit < 1 || c.Recall.Limit > 1000:
		return fmt.Errorf("recall.limit: %d must be 1..1000", c.Recall.Limit)
	case c.Context.Budget < 1:
		return fmt.Errorf("context.budget: %d must be positive", c.Context.Budget)
	case c.Context.Summary < 0 || c.Context.Recent < 0 || c.Context.Summary+c.Context.Recent <= 0:
		return fmt.Errorf("context.summary, context.recent: %v and %v must be shares >= 0 with a positive sum", c.Context.Summary, c.Context.Recent)
	case c.Hooks.Budget < 1 || c.Hooks.Budget > 1<<20:
		return fmt.Errorf("hooks.budget: %d must be 1..%d tokens", c.Hooks.Budget, 1<<20)
	case c.Hooks.PromptBudget < 1 || c.Hooks.PromptBudget > 1<<20:
		return fmt.Errorf("hooks.prompt_budget: %d must be 1..%d tokens", c.Hooks.PromptBudget, 1<<20)
	case c.Hooks.Timeout <= 0:
		return fmt.Errorf("hooks.timeout: %v must be positive", c.Hooks.Timeout)
	case c.Hooks.MaxText < 100 || c.Hooks.MaxText > 60000:
		return fmt.Errorf("hooks.max_text: %d must be 100..60000 bytes", c.Hooks.MaxText)
	}
	if err := c.Web.Validate(); err != nil {
		return err
	}
	if err := c.Proxy.Validate(); err != nil {
		return err
	}
	if err := c.validateDates(); err != nil {
		return err
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log.level: %q is not one of debug, info, warn, error", c.Log.Level)
	}
	switch c.Log.Format {
	case "", "text", "json":
	default:
		return fmt.Errorf("log.format: %q is not one of text, json", c.Log.Format)
	}
	return nil
}

func (c *Config) validateDates() error {
	d, err := date.Parse(c.Dates.Earliest)
	if err != nil {
		return fmt.Errorf("dates.earliest: %q is not a date YYYY-MM-DD", c.Dates.Earliest)
	}
	w := date.Window{Earliest: d, Ahead: c.Dates.AheadDays}
	if err := w.Validate(); err != nil {
		return err
	}
	c.window = w
	return nil
}

// Window returns the configured window of dates new entries may take;
// before Validate it is the default.
func (c *Config) Window() date.Window {
	if c.window.Earliest.IsZero() {
		return date.DefaultWindow()
	}
	return c.window
}

// Location returns the configured time zone; Validate must have succeeded.
func (c *Config) Location() *time.Location {
	if c.loc == nil {
		return time.Local
	}
	return c.loc
}

func loadLocation(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return time.Local, nil
	}
	return time.LoadLocation(name)
}

// The environment variables daybook reads, and the one list of them with
// what each decides, which "daybook help" prints.
const (
	VarDir        = "DAYBOOK_DIR"
	VarConfig     = "DAYBOOK_CONFIG"
	VarDataHome   = "XDG_DATA_HOME"
	VarConfigHome = "XDG_CONFIG_HOME"
	VarRuntimeDir = "XDG_RUNTIME_DIR"
	VarHome       = "HOME"
)

// Variable is an environment variable and what it decides.
type Variable struct{ Name, Decides string }

// Variables are the environment variables Env reads, in the order they are
// looked at.
var Variables = []Variable{
	{VarDir, "the data dir, when no --dir"},
	{VarDataHome, "the data dir is $" + VarDataHome + "/daybook, when neither says"},
	{VarConfig, "the config file, when no --config"},
	{VarConfigHome, "the config file is $" + VarConfigHome + "/daybook/config.yaml, when neither says"},
	{VarRuntimeDir, "the socket is $" + VarRuntimeDir + "/daybook/daybook.sock, unless socket.path is set"},
	{VarHome, "~/.local/share/daybook and ~/.config/daybook/config.yaml, when none of the above is set"},
}

// The defaults as the flags' help says them.
const (
	DataDirDefault    = "$" + VarDir + ", $" + VarDataHome + "/daybook or ~/.local/share/daybook"
	ConfigPathDefault = "$" + VarConfig + " or $" + VarConfigHome + "/daybook/config.yaml"
)

// Env is the part of the environment that decides where things are.
type Env struct {
	Getenv  func(string) string
	HomeDir func() (string, error)
}

// abs returns p as an absolute path.
func (e Env) abs(p string) (string, error) { return filepath.Abs(p) }

// OSEnv reads the process environment.
func OSEnv() Env { return Env{Getenv: os.Getenv, HomeDir: os.UserHomeDir} }

// DataDir returns flagDir, else $DAYBOOK_DIR, else $XDG_DATA_HOME/daybook,
// else ~/.local/share/daybook, as an absolute path.
func (e Env) DataDir(flagDir string) (string, error) {
	dir := flagDir
	if dir == "" {
		dir = e.Getenv(VarDir)
	}
	if dir == "" {
		if x := e.Getenv(VarDataHome); x != "" {
			dir = filepath.Join(x, "daybook")
		}
	}
	if dir == "" {
		home, err := e.HomeDir()
		if err != nil {
			return "", fmt.Errorf("finding the data dir: no --dir, $DAYBOOK_DIR or $XDG_DATA_HOME, and no home: %w", err)
		}
		dir = filepath.Join(home, ".local", "share", "daybook")
	}
	return e.abs(dir)
}

// ConfigPath returns flagPath, else $DAYBOOK_CONFIG, else
// $XDG_CONFIG_HOME/daybook/config.yaml, else ~/.config/daybook/config.yaml.
// required is true when the user named the file, so it must exist.
func (e Env) ConfigPath(flagPath string) (path string, required bool, err error) {
	if flagPath != "" {
		p, err := e.abs(flagPath)
		return p, true, err
	}
	if p := e.Getenv(VarConfig); p != "" {
		p, err := e.abs(p)
		return p, true, err
	}
	if x := e.Getenv(VarConfigHome); x != "" {
		return filepath.Join(x, "daybook", "config.yaml"), false, nil
	}
	home, err := e.HomeDir()
	if err != nil {
		return "", false, nil // no home: defaults
	}
	return filepath.Join(home, ".config", "daybook", "config.yaml"), false, nil
}

// SocketPath returns the configured socket path, else
// $XDG_RUNTIME_DIR/daybook/daybook.sock, else dataDir/daybook.sock.
func (e Env) SocketPath(c Config, dataDir string) string {
	if c.Socket.Path != "" {
		return c.Socket.Path
	}
	if x := e.Getenv(VarRuntimeDir); x != "" {
		return filepath.Join(x, "daybook", "daybook.sock")
	}
	return filepath.Join(dataDir, "daybook.sock")
}
