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
// there); keep, when set, says a match is not a secret after all. need
// lists words of which the text must hold one, lower-cased, for the
// pattern to be tried at all: most text holds none, and a plain search
// costs a fraction of a regular expression's.
type rule struct {
	re     *regexp.Regexp
	need   []string
	value  bool // replace only the last group
	fold   bool // match the lower-cased text
	starts bool // a match must start a word: no letter, digit or _ before it
	keep   func(v string) bool
}

var rules = sync.OnceValue(func() []rule {
	re := regexp.MustCompile
	out := []rule{
		{re: re(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`), need: []string{"-----begin"}},
		{re: re(`https://hooks\.slack\.com/services/[A-Za-z0-9/]+`), need: []string{"hooks.slack.com"}}, // Slack webhook
	}
	// Keys and tokens by their shape, one pattern per prefix, each
	// starting a word (starts): a pattern that starts with a literal is
	// searched for as fast as strings.Index.
	shape := func(prefixes []string, rest string) {
		for _, p := range prefixes {
			out = append(out, rule{re: re(regexp.QuoteMeta(p) + rest), need: []string{strings.ToLower(p)}, starts: true})
		}
	}
	shape([]string{"AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"}, `[0-9A-Z]{16}\b`) // AWS key ids
	shape([]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, `[A-Za-z0-9]{30,}\b`)                                     // GitHub tokens
	shape([]string{"github_pat_"}, `[A-Za-z0-9_]{22,}\b`)                                                             // GitHub fine-grained
	shape([]string{"glpat-"}, `[A-Za-z0-9_-]{20,}\b`)                                                                 // GitLab
	shape([]string{"sk-"}, `(?:ant-|proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`)                                 // Anthropic, OpenAI
	shape([]string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_"}, `[A-Za-z0-9]{16,}\b`)     // Stripe
	shape([]string{"whsec_"}, `[A-Za-z0-9]{24,}\b`)                                                                   // Stripe webhook
	shape([]string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-", "xoxc-", "xoxe-"}, `[A-Za-z0-9-]{10,}`)      // Slack tokens
	shape([]string{"AIza"}, `[0-9A-Za-z_-]{35}\b`)                                                                    // Google API key
	shape([]string{"ya29."}, `[0-9A-Za-z_-]{20,}`)                                                                    // Google OAuth token
	shape([]string{"npm_"}, `[A-Za-z0-9]{36}\b`)                                                                      // npm
	shape([]string{"hf_"}, `[A-Za-z0-9]{30,}\b`)                                                                      // Hugging Face
	shape([]string{"SG."}, `[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`)                                                  // SendGrid
	shape([]string{"dop_v1_"}, `[a-f0-9]{64}\b`)                                                                      // DigitalOcean
	shape([]string{"eyJ"}, `[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)                              // JWT
	// The rules below match the lower-cased text (asciiLower), one
	// pattern per name, each starting with its name: a pattern that
	// starts with a literal is searched for as fast as strings.Index.
	value := func(words []string, pattern string, keep func(string) bool) {
		for _, w := range words {
			out = append(out, rule{re: re(strings.ReplaceAll(pattern, "NAME", regexp.QuoteMeta(w))), need: []string{w},
				value: true, fold: true, keep: keep})
		}
	}
	// Authorization: Bearer ..., Basic ...
	value([]string{"bearer", "authorization: basic", "authorization:basic"}, `\bNAME\s+([a-z0-9._~+/=-]{16,})`, nil)
	// mysql -pSECRET (no space: with one, -p asks), --password=... is a
	// name=value. The -p is matched in the text as written (-P is a port).
	for _, w := range []string{"mysql", "mariadb"} {
		out = append(out, rule{re: re(`\b` + w + `[a-z-]*\b[^\n|;&]*?\s-p((?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+))`), need: []string{w}, value: true})
	}
	// sshpass -p secret, -p 'secret'.
	out = append(out, rule{re: re(`\bsshpass\b(?:\s+-[a-oq-zA-Z]\S*)*\s+-p\s*((?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+))`), need: []string{"sshpass"}, value: true})
	// A name that says password, then a value: password=x, "pwd": "x",
	// DB_PASSWORD: x. Any value but a placeholder.
	pw := []string{"password", "passwd", "pwd", "passphrase", "passcode"}
	value(pw, `NAME["']?\s*[:=]\s*["']?((?:'[^'\n]*'|"[^"\n]*"|[^\s"',;]+))`, notPassword)
	value([]string{"-password", "-passwd", "-passphrase"}, `(?:^|[\s-])NAME\s+((?:'[^'\n]*'|"[^"\n]*"|[^\s"',;-][^\s"',;]*))`, notPassword)
	// A name that says secret, token or key, then a value that looks
	// like one: api_key=..., "client_secret": "...", aws_secret_access_key
	// = ... (what comes before the word, aws_, client_, is part of the name).
	value([]string{"secret", "token", "api_key", "api-key", "apikey", "access_key", "access-key", "accesskey", "secretkey",
		"private_key", "auth_key", "credential", "credentials"}, `NAME["']?\s*[:=]\s*["']?([^\s"',;]+)`, notKeyValue)
	// Said in prose: "my password is hunter2", "the password for the
	// router is x", "PIN is 4417", "the api key is ...".
	const said = `(?:\s+(?:for|to|of|on)\s+[^\n.,;:]{1,40}?)?\s+(?:is|was|will be|=|:)\s+((?:'[^'\n]*'|"[^"\n]*"|[^\s"']+))`
	value([]string{"password", "passwd", "passphrase", "passcode", "pass code"}, `\bNAME`+said, notPassword)
	value([]string{"secret", "token", "api key", "access key", "secret key"}, `\bNAME`+said, notKeyValue)
	value([]string{"pin"}, `\bNAME(?: code| number)?(?:\s+(?:for|to|of|on)\s+[^\n.,;:]{1,40}?)?\s*(?:is|was|will be|=|:)\s*(\d{3,12})\b`, nil)
	out = append(out, rule{re: re(`\bPIN\s+(\d{3,12})\b`), need: []string{"pin"}, value: true})
	return out
})

// urlPassword is a URL that carries user:password@.
var urlPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@]*:[^\s/@]+@[^\s]+`)
})

// Text returns s with everything that looks like a secret replaced by Mark
// (a URL keeps all but its password, a name=value its name), and whether
// it replaced any. Cut a huge text first (Cut): Text reads all of it.
func Text(s string) (string, bool) {
	found := false
	if strings.Contains(s, "://") && strings.Contains(s, "@") {
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
	}
	lower := asciiLower(s)
	for _, r := range rules() {
		subject := s
		if r.fold {
			subject = lower
		}
		if !holdsAny(lower, r.need) || !r.re.MatchString(subject) {
			continue
		}
		was := s
		if !r.value {
			s = replaceWhole(r, s, &found)
		} else {
			s = replaceLast(r, s, subject, &found)
		}
		if len(s) != len(was) || s != was {
			lower = asciiLower(s)
		}
	}
	s = replaceAWSSecrets(s, &found)
	return s, found
}

// asciiLower returns s with A-Z lowered and every other byte as it is, so
// that an offset in one is the same in the other.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// holdsAny reports whether s holds one of words.
func holdsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// replaceWhole replaces r's matches in s whole.
func replaceWhole(r rule, s string, found *bool) string {
	var b strings.Builder
	last := 0
	for _, m := range r.re.FindAllStringIndex(s, -1) {
		if r.starts && m[0] > 0 && wordByte(s[m[0]-1]) {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(Mark)
		last = m[1]
		*found = true
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// replaceLast replaces the last group of each of r's matches in s, unless
// r.keep says it is not a secret.
func replaceLast(r rule, s, subject string, found *bool) string {
	var b strings.Builder
	last := 0
	for _, m := range r.re.FindAllStringSubmatchIndex(subject, -1) {
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
// alphabet ([A-Za-z0-9/+]) that look random (awsLike). A run must stand
// alone: not part of a longer run, nor of a name or a base64 string
// (_ . - = around it), though a sentence may end after it.
func replaceAWSSecrets(s string, found *bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !awsChar(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && awsChar(s[j]) {
			j++
		}
		before := i == 0 || !strings.ContainsRune("_.-=", rune(s[i-1]))
		after := j == len(s) || !strings.ContainsRune("_-=", rune(s[j]))
		if j-i == 40 && before && after && awsLike(s[i:j]) {
			b.WriteString(s[last:i])
			b.WriteString(Mark)
			last = j
			*found = true
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func awsChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '+'
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
