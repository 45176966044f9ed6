package redact_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/redact"
	"github.com/daybook/daybook/internal/redact/redacttest"
)

func TestCorpus(t *testing.T) {
	if len(redacttest.Secrets) < 60 || len(redacttest.LookAlikes) < 60 {
		t.Fatalf("the corpus has %d secrets and %d look-alikes; want 60 of each", len(redacttest.Secrets), len(redacttest.LookAlikes))
	}
	kept := 0
	for _, c := range redacttest.Secrets {
		got, found := redact.Text(c[0])
		if strings.Contains(got, c[1]) || !found {
			kept++
			t.Errorf("secret kept: %q -> %q (found %v)", c[0], got, found)
		}
	}
	changed := 0
	for _, s := range redacttest.LookAlikes {
		if got, found := redact.Text(s); got != s || found {
			changed++
			t.Errorf("look-alike changed: %q -> %q", s, got)
		}
	}
	t.Logf("%d secret shapes, %d kept; %d look-alikes, %d changed", len(redacttest.Secrets), kept, len(redacttest.LookAlikes), changed)
}

// TestNamesStay: a name=value keeps its name, a URL all but its password.
func TestNamesStay(t *testing.T) {
	for in, want := range map[string]string{
		"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY": "aws_secret_access_key = " + redact.Mark,
		"postgres://u:pw@host/db":        "postgres://u:" + redact.Mark + "@host/db",
		"my password is hunter2, really": "my password is " + redact.Mark + ", really",
		"mysql -u root -pSECRET mydb":    "mysql -u root -p" + redact.Mark + " mydb",
	} {
		if got, _ := redact.Text(in); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}

// TestIdempotent: redacting redacted text changes nothing.
func TestIdempotent(t *testing.T) {
	for _, c := range redacttest.Secrets {
		once, _ := redact.Text(c[0])
		if twice, found := redact.Text(once); twice != once || found {
			t.Errorf("%q -> %q -> %q", c[0], once, twice)
		}
	}
}

func TestCut(t *testing.T) {
	s := "one two AKIAIOSFODNN7EXAMPLE three"
	for n := 0; n <= len(s); n++ {
		got := redact.Cut(s, n)
		if len(got) > n || !strings.HasPrefix(s, got) {
			t.Fatalf("Cut(%d) = %q", n, got)
		}
		if strings.Contains(got, "AKIA") && !strings.Contains(got, "AKIAIOSFODNN7EXAMPLE") {
			t.Errorf("Cut(%d) = %q cuts the key in two", n, got)
		}
	}
}

// TestRandomAWSSecrets: 40-character keys drawn at random from the AWS
// alphabet are caught alone, with no name near them; 40-hex commit hashes,
// upper or lower case, never are.
func TestRandomAWSSecrets(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 7))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+"
	const n = 2000
	caught, hashes := 0, 0
	for range n {
		var b, h strings.Builder
		for range 40 {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			h.WriteByte("0123456789abcdef"[rng.IntN(16)])
		}
		if got, _ := redact.Text("note " + b.String() + " end"); !strings.Contains(got, b.String()) {
			caught++
		}
		for _, hash := range []string{h.String(), strings.ToUpper(h.String())} {
			if got, _ := redact.Text("commit " + hash); got != "commit "+hash {
				hashes++
			}
		}
	}
	t.Logf("random keys caught: %d of %d; commit hashes changed: %d of %d", caught, n, hashes, 2*n)
	if caught < n*95/100 || hashes > 0 {
		t.Errorf("caught %d of %d random keys (want 95%%), changed %d hashes", caught, n, hashes)
	}
}

// TestHooksCases are the cases the hooks checked before the redactor was
// one for every way in.
func TestHooksCases(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"push with ghp_R2d2C3poLukeLeiaHanSoloChewbacca0123 now", "push with [secret removed] now"},
		{"AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY=[secret removed]"},
		{"key AKIAIOSFODNN7EXAMPLE here", "key [secret removed] here"},
		{`{"api_key": "sk-proj-abcdefghijklmnopqrstuvwx"}`, `{"api_key": "[secret removed]"}`},
		{"export ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuv", "export ANTHROPIC_API_KEY=[secret removed]"},
		{"postgres://app:hunter22@db:5432/billing", "postgres://app:[secret removed]@db:5432/billing"},
		{"Authorization: Bearer abcdefghijklmnop1234", "Authorization: Bearer [secret removed]"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "[secret removed]"},
		// Prose and placeholders stay.
		{"the password: expired yesterday", "the password: expired yesterday"},
		{"token=$GITHUB_TOKEN", "token=$GITHUB_TOKEN"},
		{"Why does the nightly backup fail?", "Why does the nightly backup fail?"},
	} {
		got, found := redact.Text(tc.in)
		if got != tc.want || found != (tc.in != tc.want) {
			t.Errorf("Redact(%q) = %q, %v; want %q", tc.in, got, found, tc.want)
		}
	}
}

// BenchmarkText redacts an entry of the largest size daybook takes (64 KB
// of log lines with a key in them).
func BenchmarkText(b *testing.B) {
	var s strings.Builder
	s.WriteString("the key is AKIAIOSFODNN7EXAMPLE\n")
	for s.Len() < 64<<10 {
		s.WriteString("2026-11-20T08:00:00Z INFO request served path=/api/v1/items status=200 took=12ms\n")
	}
	text := s.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		redact.Text(text)
	}
}
