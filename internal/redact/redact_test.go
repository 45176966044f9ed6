package redact_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/daybook/daybook/internal/redact"
)

// secrets are texts with a secret in them: the second string, which must
// not survive Text. Every key here is made up.
var secrets = [][2]string{
	// AWS
	{"export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
	{"the key id is AKIAZ7Q2M4RT6Y8K3LPA for the backup bucket", "AKIAZ7Q2M4RT6Y8K3LPA"},
	{"temporary creds ASIAY34FZKBOKMUTVV7A expire at noon", "ASIAY34FZKBOKMUTVV7A"},
	{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"AWS_SECRET_ACCESS_KEY=Zk3pQ9vLx2Rt7YbN4mWc8HjD1sFg6AeUo0TiKqVw", "Zk3pQ9vLx2Rt7YbN4mWc8HjD1sFg6AeUo0TiKqVw"},
	{"AKIAZ7Q2M4RT6Y8K3LPA 9fJ2kLm8Qp4Rz7Xc1Vb6Nt3Hs5Dg0Aw2Ey8Uo4Ik", "9fJ2kLm8Qp4Rz7Xc1Vb6Nt3Hs5Dg0Aw2Ey8Uo4Ik"},
	{"secret for the deploy user: Tq8mZ2xR5vK9pW3nL7cB1yH4jF6gD0sA2eU5iO8k", "Tq8mZ2xR5vK9pW3nL7cB1yH4jF6gD0sA2eU5iO8k"},
	{"paste this: Rb4Nq7Kx2Mz9Pw5Lt8Hv3Jc6Fy1Gd0Ss4Ae7Uo2I", "Rb4Nq7Kx2Mz9Pw5Lt8Hv3Jc6Fy1Gd0Ss4Ae7Uo2I"},
	{`"SecretAccessKey": "u7Yh3Kp9Lm2Nq5Rt8Vx1Zb4Cd6Fg0Hj3Kl5Mn7Pq9"`, "u7Yh3Kp9Lm2Nq5Rt8Vx1Zb4Cd6Fg0Hj3Kl5Mn7Pq9"},
	// GitHub, GitLab
	{"token ghp_4f8Kz2Lq9Rm3Nx7Vb1Ct5Yh6Jw0Pd8Se2Ua4Io", "ghp_4f8Kz2Lq9Rm3Nx7Vb1Ct5Yh6Jw0Pd8Se2Ua4Io"},
	{"GH_TOKEN=gho_Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0", "gho_Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0"},
	{"use github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQR", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQR"},
	{"ghs_16C7e42F292c6912E7710c838347Ae178B4a in the action log", "ghs_16C7e42F292c6912E7710c838347Ae178B4a"},
	{"gitlab token glpat-xY7vR2kP9qL4mN8bT3wZ", "glpat-xY7vR2kP9qL4mN8bT3wZ"},
	// passwords in URLs
	{"connect to postgres://admin:S3cr3tPw@db.internal:5432/app", "S3cr3tPw"},
	{"DATABASE_URL=postgresql://u:pw@host/db", ":pw@"},
	{"mongodb+srv://root:hunter2@cluster0.mongodb.net/test", "hunter2"},
	{"redis://:redispass99@cache:6379/0 is the cache", "redispass99"},
	{"git clone https://bob:tok3nValue@git.example.com/repo.git", "tok3nValue"},
	{"amqp://guest:guestpw@rabbit:5672/", "guestpw"},
	// passwords said or set
	{"my password is hunter2", "hunter2"},
	{"My password is correcthorse", "correcthorse"},
	{"the password for the router is blue42sky", "blue42sky"},
	{"wifi password is lemonade", "lemonade"},
	{"password: lowercasewords", "lowercasewords"},
	{"password: 'two words'", "two words"},
	{"password=abc", "=abc"},
	{"PASSWORD=x9", "=x9"},
	{"db_password: pw1", "pw1"},
	{`{"password": "qwerty"}`, "qwerty"},
	{"DB_PASSWORD=letmein", "letmein"},
	{"passwd=toor", "toor"},
	{"passphrase: orange banana", "orange"},
	{"the passcode is 0000", "0000"},
	{"psql --password supersecret", "supersecret"},
	{"mysql -u root -pSECRET mydb", "SECRET"},
	{"mysqldump -h db -u app -p'Pa55 word' shop > dump.sql", "Pa55 word"},
	{"mariadb -uroot -ptoor", "toor"},
	{"sshpass -p 'hunter2' ssh pi@raspberry", "hunter2"},
	{"sshpass -p s3cret scp file host:", "s3cret"},
	{`sshpass -e -p "quoted pw" ssh host`, "quoted pw"},
	// PINs
	{"my PIN is 4417", "4417"},
	{"PIN: 9021", "9021"},
	{"the pin for the card is 3355", "3355"},
	{"card PIN 8812 do not share", "8812"},
	{"pin code: 123456", "123456"},
	// private keys
	{"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7b\n-----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEA7b"},
	{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXktdjEAAAAA"},
	{"-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA (cut off", "MC4CAQAwBQYDK2VwBCIEIA"},
	{"-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBk\n-----END EC PRIVATE KEY-----", "MHcCAQEEIBk"},
	// bearer and other tokens
	{"Authorization: Bearer abcDEF123456ghiJKL789", "abcDEF123456ghiJKL789"},
	{"curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==' url", "dXNlcjpwYXNzd29yZDEyMw=="},
	{"slack bot xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"},
	{"xoxp-2222222222-3333333333-4444444444-abcdef0123456789", "xoxp-2222222222-3333333333-4444444444-abcdef0123456789"},
	{"webhook https://hooks.slack.com/services/T0000AAAA/B1111BBBB/XXXXyyyyZZZZ1234", "XXXXyyyyZZZZ1234"},
	{"stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"},
	{"STRIPE_KEY=rk_test_51Hc8sQ2eZvKYlo2CabcdEFGH", "rk_test_51Hc8sQ2eZvKYlo2CabcdEFGH"},
	{"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw for the webhook", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"},
	{"OPENAI_API_KEY=sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90", "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90"},
	{"old key sk-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9876", "sk-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa9876"},
	{"ANTHROPIC_API_KEY=sk-ant-api03-AbCdEf0123456789-GhIjKlMnOpQrStUv_wxyz", "sk-ant-api03-AbCdEf0123456789-GhIjKlMnOpQrStUv_wxyz"},
	{"google AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"},
	{"npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 in .npmrc", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"},
	{"hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 for the hub", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"},
	{"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", "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"},
	{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
	{"api_key=9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
	{`"client_secret": "Gx7-Kp2_Lm9Qr4Tz8Vb1"`, "Gx7-Kp2_Lm9Qr4Tz8Vb1"},
	{"AUTH_TOKEN: 8a7b6c5d4e3f2a1b0c9d8e7f", "8a7b6c5d4e3f2a1b0c9d8e7f"},
	{"the api key is Qm4Zx8Rt2Lp6Wn0Vy3 keep it", "Qm4Zx8Rt2Lp6Wn0Vy3"},
	{"access_key: 7G2kL9mQ4rT8vX1z", "7G2kL9mQ4rT8vX1z"},
}

// lookAlikes must come out as they went in.
var lookAlikes = []string{
	"fixed in commit 3fa2b1c",
	"reverted 9f8e7d6c5b4a3928 yesterday",
	"git show e83c5163316f89bfbde7d9ab23ca2e25604af290",
	"merge base 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b and head",
	"E83C5163316F89BFBDE7D9AB23CA2E25604AF290 in upper case",
	"request id 123e4567-e89b-12d3-a456-426614174000 failed",
	"trace 550E8400-E29B-41D4-A716-446655440000",
	"entry 2026-11-22T09:14-3fa2b1c4d5e6 and 2026-11-22T09:14-3fa2b1c4d5e6-2",
	"upgraded to v1.2.3 then 2.1.328",
	"go1.26.0 and node v22.11.0-rc.1",
	"version 10.0.19045.3803 of windows",
	"call me at +1 415 555 0132 tomorrow",
	"phone (020) 7946 0958 after six",
	"her number is 555-867-5309",
	"meeting on 2026-11-24 at 09:30",
	"due 24/11/2026 or 11/24/2026",
	"the door code is 4417",
	"gate code 2580 for deliveries",
	"we sold 4417 units and 1200 returns",
	"pin 13 on the arduino drives the LED",
	"pin the version to 1.4.2",
	"max_tokens=4096",
	"max_tokens: 1024 and num_tokens=12",
	"the token expired",
	"token: expired",
	"the secret is patience",
	"the key is to keep it simple",
	"my password manager is great",
	"the password is wrong again",
	"password reset link sent",
	"password: $DB_PASSWORD",
	"password=${PGPASSWORD}",
	"password: <your password>",
	"password: ********",
	"mysql -u root -p mydb",
	"mysql -P 3306 -h db",
	"sshpass -e ssh host",
	"api_key: $OPENAI_API_KEY",
	"set tokenizer: bert-base-uncased",
	"the secret_key path is /etc/app/secret.key",
	"cache key: user.profile.settings",
	"see https://example.com/path/to/page?x=1",
	"ssh git@github.com:owner/repo.git",
	"mailto:bob@example.com",
	"https://user@example.com/ without a password",
	"sk-learn is a library",
	"the ghp_ prefix marks a GitHub token",
	"AKIA prefixed ids are AWS key ids",
	"bearer of bad news",
	"basic authentication is off",
	"src/internal/adapters/hooks/redact/file.go",
	"ThisIsAVeryLongJavaClassNameForTestingIt",
	"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	"integrity sha512-Q2w3E4r5T6y7U8i9O0p1A2s3D4f5G6h7J8k9L0Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa==",
	"the PINs arrived",
	"spin 3 times",
	"pinned at 4417 stars",
	"port 5432 on db.internal",
	"1,234,567.89 dollars",
	"ISBN 978-3-16-148410-0",
	"IPv6 fe80::1ff:fe23:4567:890a",
	"mac 00:1A:2B:3C:4D:5E",
	"the eyJ prefix starts a JWT",
	"Password strength is checked on sign up",
	"we discussed password rotation policies",
	"a basic authorization header",
	"token count 4096",
	"secret santa on friday",
}

func TestCorpus(t *testing.T) {
	if len(secrets) < 60 || len(lookAlikes) < 60 {
		t.Fatalf("the corpus has %d secrets and %d look-alikes; want 60 of each", len(secrets), len(lookAlikes))
	}
	kept := 0
	for _, c := range secrets {
		got, found := redact.Text(c[0])
		if strings.Contains(got, c[1]) || !found {
			kept++
			t.Errorf("secret kept: %q -> %q (found %v)", c[0], got, found)
		}
	}
	changed := 0
	for _, s := range lookAlikes {
		if got, found := redact.Text(s); got != s || found {
			changed++
			t.Errorf("look-alike changed: %q -> %q", s, got)
		}
	}
	t.Logf("%d secret shapes, %d kept; %d look-alikes, %d changed", len(secrets), kept, len(lookAlikes), changed)
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
	for _, c := range secrets {
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
