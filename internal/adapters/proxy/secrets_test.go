package proxy_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook/internal/adapters/proxy"
)

// A chat turn carrying an AWS key, a GitHub token and a database password,
// and a reply that repeats the key, leaves none of them in the data dir:
// the proxy writes through the App, which redacts every way in. The door
// code, which is not named a secret, stays.
func TestSecretsInAChatAreNotStored(t *testing.T) {
	r := newRig(t, proxy.Options{})
	r.up.Reply("Rotate AKIAZ7Q2M4RT6Y8K3LPA now; the door code 4417 is fine.")
	stream := false
	chatVia(t, r.client(), &api.ChatRequest{Model: "llama3.2", Stream: &stream, Messages: []api.Message{
		{Role: "user", Content: "My key is AKIAZ7Q2M4RT6Y8K3LPA, the token ghp_4f8Kz2Lq9Rm3Nx7Vb1Ct5Yh6Jw0Pd8Se2Ua4Io and the db is postgres://app:Hunter22pw@db:5432/billing. The door code is 4417."},
	}})
	r.waitIdle()
	es := r.chatEntries()
	if len(es) != 2 {
		t.Fatalf("chat entries = %q, want the turn and the reply", texts(es))
	}
	secrets := []string{"AKIAZ7Q2M4RT6Y8K3LPA", "ghp_4f8Kz2Lq9Rm3Nx7Vb1Ct5Yh6Jw0Pd8Se2Ua4Io", "Hunter22pw"}
	filepath.WalkDir(r.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(p)
		for _, s := range secrets {
			if strings.Contains(string(data), s) {
				t.Errorf("%s holds %q", p, s)
			}
		}
		return nil
	})
	if !strings.Contains(es[0].Text, "postgres://app:[secret removed]@db:5432/billing") || !strings.Contains(es[0].Text, "door code is 4417") {
		t.Errorf("the turn as written: %q", es[0].Text)
	}
	if !strings.Contains(es[1].Text, "door code 4417") {
		t.Errorf("the reply as written: %q", es[1].Text)
	}
}
