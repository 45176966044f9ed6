package hooks_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/adapters/hooks"
)

// userSettings is a settings.json with keys and hooks of its own, and a
// daybook hook of an earlier install at another path.
const userSettings = `{
  "model": "opus",
  "permissions": {"allow": ["Bash(npm test:*)"], "deny": []},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "check-bash && echo <ok>"}]}],
    "Stop": [
      {"hooks": [{"type": "command", "command": "notify-send done"}, {"type": "command", "command": "/old/bin/daybook hook capture", "timeout": 5}]}
    ],
    "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "/old/bin/daybook hook session-start"}]}]
  },
  "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"}
}
`

func TestInstall(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(userSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	const cmd = "/usr/local/bin/daybook"
	var log bytes.Buffer
	if err := hooks.Install(path, cmd, &log); err != nil {
		t.Fatal(err)
	}
	once, _ := os.ReadFile(path)
	if backup, _ := os.ReadFile(path + ".daybook.bak"); string(backup) != userSettings {
		t.Errorf("the backup is not the old file:\n%s", backup)
	}
	var got struct {
		Model       string
		Permissions map[string][]string
		StatusLine  map[string]string `json:"statusLine"`
		Hooks       map[string][]struct {
			Matcher string
			Hooks   []struct {
				Type, Command string
				Timeout       int
			}
		}
	}
	if err := json.Unmarshal(once, &got); err != nil {
		t.Fatalf("%v\n%s", err, once)
	}
	if got.Model != "opus" || got.Permissions["allow"][0] != "Bash(npm test:*)" || got.StatusLine["command"] != "~/.claude/statusline.sh" {
		t.Errorf("other keys changed:\n%s", once)
	}
	if !strings.Contains(string(once), `"check-bash && echo <ok>"`) {
		t.Errorf("a user's hook command was rewritten:\n%s", once)
	}
	commands := map[string][]string{}
	for ev, groups := range got.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				commands[ev] = append(commands[ev], h.Command)
			}
		}
	}
	want := map[string][]string{
		"PreToolUse":       {"check-bash && echo <ok>"},
		"Stop":             {"notify-send done", cmd + " hook capture"},
		"SessionStart":     {cmd + " hook session-start"},
		"UserPromptSubmit": {cmd + " hook prompt"},
		"PreCompact":       {cmd + " hook capture"},
		"SessionEnd":       {cmd + " hook capture"},
	}
	for ev, w := range want {
		if strings.Join(commands[ev], "|") != strings.Join(w, "|") {
			t.Errorf("%s: commands %q, want %q", ev, commands[ev], w)
		}
	}
	if len(commands) != len(want) {
		t.Errorf("events %v, want %v", commands, want)
	}

	// Twice is once: the file is not written again.
	log.Reset()
	if err := hooks.Install(path, cmd, &log); err != nil {
		t.Fatal(err)
	}
	if twice, _ := os.ReadFile(path); !bytes.Equal(once, twice) {
		t.Errorf("a second install changed the file:\n%s\n----\n%s", once, twice)
	}
	if !strings.Contains(log.String(), "already") {
		t.Errorf("second install said %q", log.String())
	}
}

func TestInstallRefusesBadSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	bad := []byte(`{"hooks": [1, 2]}`)
	os.WriteFile(path, bad, 0o600)
	err := hooks.Install(path, "daybook", &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `"hooks"`) {
		t.Fatalf("err = %v, want one naming the file and \"hooks\"", err)
	}
	if data, _ := os.ReadFile(path); !bytes.Equal(data, bad) {
		t.Error("a settings file that was refused was written")
	}
}

func TestInstallNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claude", "settings.json")
	if err := hooks.Install(path, "daybook", &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !bytes.Equal(data, hooks.SettingsJSON("daybook")) {
		t.Errorf("a new settings.json is not SettingsJSON:\n%s", data)
	}
	if _, err := os.Stat(path + ".daybook.bak"); err == nil {
		t.Error("a backup of no file")
	}
}
