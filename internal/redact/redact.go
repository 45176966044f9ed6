// Package redact removes secrets from text before daybook keeps it. Every
// way in (the CLI, the socket API, MCP, hooks, the memory proxy and chat,
// import) goes through the App's one entry check, which calls Text; the
// hooks call it too before they spool a capture to disk.
//
// What it removes: keys and tokens of the common services by their shape
// (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, Google, npm,
// Hugging Face, SendGrid), private key blocks, JSON web tokens, bearer
// tokens, the password of a URL, 40-character AWS secret keys by their
// randomness, the value given to a key named like a secret (password=,
// "token": ..., aws_secret_access_key = ...), a password or PIN said in
// prose ("my password is ...", "PIN: 4417"), and passwords on the command
// lines of mysql (-pSECRET) and sshpass (-p '...'). What it leaves: commit
// hashes, UUIDs, entry ids, version strings, dates, phone numbers and other
// numbers, and codes that are not named as secrets ("the door code is
// 4417" stays: only a password, PIN, passcode, secret, token or key is
// taken for one).
package redact

import (
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Mark stands where a secret was.
const Mark = "[secret removed]"

// Margin is how far past its final length a text is cut before it is
// redacted (Cut): what is removed can shorten the text by about that much
// before the final cut, which then never falls inside a secret.
const Margin = 4 << 10

// Cut returns s cut to at most n bytes, at the last space or newline at or
// before n, so that no token is cut in two (a part of a key no pattern
// knows any more). A huge text is cut before it is redacted: redacting
// what is thrown away after costs time and memory for nothing.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	i := strings.LastIndexAny(s[:n+1], " \t\n\r")
	if i < 0 { // one long token: cut at a rune boundary instead
		i = n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
	}
	return s[:i]
}

// rule is one pattern: the whole match is a secret (group 0), or only its
// last group, the value after a name (the name stays, to tell what was
// there); keep, when set, says a match is not a secret after all.
type rule struct {
	re    *regexp.Regexp
	value bool // replace only the last group
	keep  func(v string) bool
}

var rules = sync.OnceValue(func() []rule {
	re := regexp.MustCompile
	return []rule{
		{re: re(`(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`)},
		{re: re(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b`)}, // AWS key ids
		{re: re(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\b`)},                          // GitHub tokens
		{re: re(`\bgithub_pat_[A-Za-z0-9_]{22,}\b`)},                                      // GitHub fine-grained
		{re: re(`\bglpat-[A-Za-z0-9_-]{20,}\b`)},                                          // GitLab
		{re: re(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},                                           // Anthropic
		{re: re(`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`)},               // OpenAI
		{re: re(`\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b`)},                       // Stripe
		{re: re(`\bwhsec_[A-Za-z0-9]{24,}\b`)},                                            // Stripe webhook
		{re: re(`\bxox[abposrce]-[A-Za-z0-9-]{10,}`)},                                     // Slack tokens
		{re: re(`https://hooks\.slack\.com/services/[A-Za-z0-9/]+`)},                      // Slack webhook
		{re: re(`\bAIza[0-9A-Za-z_-]{35}\b`)},                                             // Google API key
		{re: re(`\bya29\.[0-9A-Za-z_-]{20,}`)},                                            // Google OAuth token
		{re: re(`\bnpm_[A-Za-z0-9]{36}\b`)},                                               // npm
		{re: re(`\bhf_[A-Za-z0-9]{30,}\b`)},                                               // Hugging Face
		{re: re(`\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`)},                          // SendGrid
		{re: re(`\bdop_v1_[a-f0-9]{64}\b`)},                                               // DigitalOcean
		{re: re(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},       // JWT
		// Authorization: Bearer ..., Basic ...
		{re: re(`(?i)\b(?:bearer\s+|authorization:\s*basic\s+)([A-Za-z0-9._~+/=-]{16,})`), value: true},
		// mysql -pSECRET (no space: with one, -p asks), --password=... is a name=value.
		{re: re(`\b(?i:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p((?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+))`), value: true},
		// sshpass -p secret, -p 'secret'; PGPASSWORD=... and the like are names.
		{re: re(`\bsshpass\b(?:\s+-[a-oq-zA-Z]\S*)*\s+-p\s*((?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+))`), value: true},
		// A name that says password, then a value: password=x, "pwd": "x",
		// DB_PASSWORD: x, --password x. Any value but a placeholder.
		{re: re(`(?i)((?:\b|_)(?:password|passwd|pwd|passphrase|passcode)["']?\s*[:=]\s*["']?)((?:'[^'\n]*'|"[^"\n]*"|[^\s"',;]+))`), value: true, keep: notPassword},
		{re: re(`(?i)(\s--?(?:password|passwd|passphrase)\s+)((?:'[^'\n]*'|"[^"\n]*"|[^\s"',;-][^\s"',;]*))`), value: true, keep: notPassword},
		// A name that says secret, token or key, then a value that looks
		// like one: api_key=..., "client_secret": "...", aws_secret_access_key = ...
		{re: re(`(?i)(\b[A-Za-z0-9_.-]*(?:secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|credentials?)["']?\s*[:=]\s*["']?)([^\s"',;]+)`), value: true, keep: notKeyValue},
		// Said in prose: "my password is hunter2", "the password for the
		// router is x", "PIN is 4417", "passcode: 0000".
		{re: re(`(?i)\b(?:password|passwd|passphrase|passcode|pass code)(?:\s+(?:for|to|of|on)\s+[^\n.,;:]{1,40}?)?\s+(?:is|was|will be|=|:)\s+((?:'[^'\n]*'|"[^"\n]*"|[^\s"']+))`), value: true, keep: notPassword},
		{re: re(`(?i)\b(?:pin|pin code|pin number)(?:\s+(?:for|to|of|on)\s+[^\n.,;:]{1,40}?)?\s*(?:is|was|will be|=|:)\s*(\d{3,12})\b`), value: true},
		{re: re(`\bPIN\s+(\d{3,12})\b`), value: true},
		{re: re(`(?i)\b(?:secret|token|api key|access key|secret key)(?:\s+(?:for|to|of|on)\s+[^\n.,;:]{1,40}?)?\s+(?:is|was|will be)\s+((?:'[^'\n]*'|"[^"\n]*"|[^\s"']+))`), value: true, keep: notKeyValue},
	}
})

// urlPassword is a URL that carries user:password@.
var urlPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@]*:[^\s/@]+@[^\s]+`)
})

// awsSecret is a candidate 40-character AWS secret access key, told from a
// commit hash or a path by its letters (awsLike).
var awsSecret = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9/+=_.-])([A-Za-z0-9/+]{40})(?:$|[^A-Za-z0-9/+=_-])`)
})

// Text returns s with everything that looks like a secret replaced by Mark
// (a URL keeps all but its password, a name=value its name), and whether
// it replaced any. Cut a huge text first (Cut): Text reads all of it.
func Text(s string) (string, bool) {
	found := false
	s = urlPassword().ReplaceAllStringFunc(s, func(m string) string {
		// scheme://user:password@host...: the user has no ':', the
		// password no '@' (the pattern says so).
		i := strings.Index(m, "://") + 3
		colon := i + strings.IndexByte(m[i:], ':')
		at := colon + strings.IndexByte(m[colon:], '@')
		if placeholder(m[colon+1 : at]) {
			return m
		}
		found = true
		return m[:colon+1] + Mark + m[at:]
	})
	for _, r := range rules() {
		if !r.re.MatchString(s) {
			continue
		}
		if !r.value {
			s = r.re.ReplaceAllString(s, Mark)
			found = true
			continue
		}
		s = replaceLast(r, s, &found)
	}
	s = replaceAWSSecrets(s, &found)
	return s, found
}

// replaceLast replaces the last group of each of r's matches in s, unless
// r.keep says it is not a secret.
func replaceLast(r rule, s string, found *bool) string {
	var b strings.Builder
	last := 0
	for _, m := range r.re.FindAllStringSubmatchIndex(s, -1) {
		g := len(m)/2 - 1
		start, end := m[2*g], m[2*g+1]
		if start < 0 || start < last {
			continue
		}
		if strings.HasPrefix(s[start:], Mark) {
			continue // redacted already
		}
		if v := s[start:end]; v[0] != '\'' && v[0] != '"' {
			// Prose: "my password is hunter2, really."
			end = start + len(strings.TrimRight(v, ",.;:!?)"))
		}
		v := s[start:end]
		if v == "" || strings.Contains(v, Mark) || r.keep != nil && r.keep(unquote(v)) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Mark)
		last = end
		*found = true
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// replaceAWSSecrets replaces 40-character runs of the AWS secret key
// alphabet that look random (awsLike).
func replaceAWSSecrets(s string, found *bool) string {
	re := awsSecret()
	locs := re.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range locs {
		start, end := m[2], m[3]
		if !awsLike(s[start:end]) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Mark)
		last = end
		*found = true
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// awsLike reports whether v, 40 characters of [A-Za-z0-9/+], looks like a
// randomly drawn key: upper and lower case letters both (a commit hash is
// lower-case hex), a digit, no long run of lower-case letters and few runs
// of three (a word, a path or an identifier has them), few slashes, and
// the spread of characters of a
// random draw (Shannon entropy over 4.3 bits a character; a random key of
// 40 has about 4.8, a camel-case identifier about 4).
func awsLike(v string) bool {
	upper, lower, digit, slash, run, longest, words := 0, 0, 0, 0, 0, 0, 0
	counts := map[rune]int{}
	for _, r := range v {
		counts[r]++
		switch {
		case r >= 'a' && r <= 'z':
			lower++
			run++
			longest = max(longest, run)
			if run == 3 {
				words++
			}
			continue
		case r >= 'A' && r <= 'Z':
			upper++
		case r >= '0' && r <= '9':
			digit++
		case r == '/':
			slash++
		}
		run = 0
	}
	if upper < 4 || lower < 4 || digit == 0 || slash > 3 || longest > 7 || words > 5 {
		return false
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(len(v))
		h -= p * math.Log2(p)
	}
	return h > 4.3
}

// notPassword reports whether the value given to a password is not one: a
// placeholder ($VAR, ${VAR}, <...>, ***, [secret removed]) or a word of
// prose that follows "password" ("the password is wrong").
func notPassword(v string) bool {
	if placeholder(v) {
		return true
	}
	switch strings.ToLower(strings.TrimRight(v, ".,!?")) {
	case "", "is", "was", "the", "a", "an", "not", "still", "now", "also", "same", "set", "changed", "reset", "required",
		"optional", "needed", "missing", "wrong", "incorrect", "invalid", "expired", "correct", "empty", "none", "null", "nil",
		"unknown", "hidden", "redacted", "masked", "stored", "saved", "in", "on", "at", "for", "from", "my", "your", "our",
		"their", "his", "her", "its", "too", "very", "being", "been", "prompt", "manager", "managers", "field", "fields",
		"policy", "policies", "reset.", "authentication", "auth", "login", "change", "protected", "less", "and", "or", "to", "of",
		"with", "without", "that", "this", "which", "file", "hash", "hashes", "hashing", "strength", "length", "rotation",
		"true", "false", "yes", "no", "ok", "n/a", "please", "stdin", "env", "prompted", "asked", "given", "entered", "typed":
		return true
	}
	return false
}

// notKeyValue reports whether the value given to a secret, token or key is
// prose or a setting rather than a secret: a placeholder, a word of one
// case or short, a plain number (max_tokens=4096), a file path.
func notKeyValue(v string) bool {
	if placeholder(v) || notPassword(v) {
		return true
	}
	letters, upper, lower, digits, other := 0, 0, 0, 0, 0
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z':
			letters++
			lower++
		case r >= 'A' && r <= 'Z':
			letters++
			upper++
		case r >= '0' && r <= '9':
			digits++
		default:
			other++
		}
	}
	switch {
	case len(v) < 8:
		return true
	case letters == 0 && other == 0: // a number
		return true
	case digits == 0 && other == 0 && (upper == 0 || lower == 0 || letters < 12): // a word
		return true
	case strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./"): // a path
		return true
	case strings.Contains(v, ".") && digits == 0 && other == strings.Count(v, "."): // config.key.name
		return true
	}
	return false
}

// placeholder reports whether v stands for a secret kept elsewhere.
func placeholder(v string) bool {
	if v == "" || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{") ||
		strings.HasPrefix(v, "[") || strings.HasPrefix(v, "%") || strings.Contains(v, "(") {
		return true
	}
	return strings.Trim(v, "*xX.•-_") == ""
}
