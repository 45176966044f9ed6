package app_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/redact/redacttest"
)

// TestEveryWayInRedacts writes the redactor's corpus through each way into
// the App (Remember: the CLI, the socket and MCP; RememberTurns: the
// memory proxy and chat; Import: import and the hooks' spool), each into a
// data dir of its own, and reads every file under the data dir back: no
// secret of the corpus is stored anywhere (day files, merge base, index),
// and every look-alike is in a day file as it was written.
func TestEveryWayInRedacts(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	var texts []string
	for _, c := range redacttest.Secrets {
		texts = append(texts, c[0])
	}
	texts = append(texts, redacttest.LookAlikes...)
	at := func(i int) string {
		return now.Add(-time.Duration(len(texts)-i) * time.Minute).Format("2006-01-02 15:04")
	}
	ways := map[string]func(t *testing.T, dir string){
		"remember": func(t *testing.T, dir string) {
			a := newAppAt(t, dir, now)
			for i, text := range texts {
				if _, err := a.Remember(ctx, daybook.RememberRequest{Text: text, At: at(i)}); err != nil {
					t.Fatalf("%q: %v", text, err)
				}
			}
		},
		"turns": func(t *testing.T, dir string) {
			a := newAppAt(t, dir, now)
			var reqs []daybook.RememberRequest
			for i, text := range texts {
				reqs = append(reqs, daybook.RememberRequest{Text: text, At: at(i), Tags: []string{"chat"}})
			}
			if _, err := a.RememberTurns(ctx, reqs); err != nil {
				t.Fatal(err)
			}
		},
		"import": func(t *testing.T, dir string) {
			a := newAppAt(t, dir, now)
			var b strings.Builder
			enc := json.NewEncoder(&b)
			for i, text := range texts {
				at, _ := time.Parse("2006-01-02 15:04", at(i))
				enc.Encode(daybook.ImportLine{At: at.Format(time.RFC3339), Text: text})
			}
			resp, err := a.Import(ctx, strings.NewReader(b.String()), daybook.ImportOptions{Strict: true})
			if err != nil || resp.Added != len(texts) {
				t.Fatalf("%+v %v", resp, err)
			}
		},
	}
	for name, write := range ways {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir)
			stored := 0
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				// A short secret (a PIN) is looked for in the day files only:
				// four digits turn up in any hash of the merge base and index.
				inDay := strings.HasPrefix(p, filepath.Join(dir, dayfiles.DaysDir))
				for _, c := range redacttest.Secrets {
					if (inDay || len(c[1]) >= 8) && strings.Contains(string(data), c[1]) {
						stored++
						t.Errorf("%s holds the secret %q", p, c[1])
					}
				}
				return nil
			})
			day, err := dayfiles.ParseFile(dayfiles.Path(dir, date.Of(now)), date.Of(now))
			if err != nil {
				t.Fatal(err)
			}
			have := map[string]bool{}
			for _, e := range day.Entries {
				have[strings.Join(strings.Fields(e.Text), " ")] = true
			}
			changed := 0
			for _, s := range redacttest.LookAlikes {
				if !have[s] && !have[s+" #chat"] {
					changed++
					t.Errorf("look-alike %q is not in the day file as written", s)
				}
			}
			t.Logf("%s: %d secret shapes written, %d stored; %d look-alikes, %d changed", name, len(redacttest.Secrets), stored, len(redacttest.LookAlikes), changed)
		})
	}
}
