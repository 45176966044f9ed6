package hooks

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Redacted stands where a secret was.
const Redacted = "[secret removed]"

// secretPatterns match text that looks like a credential: keys and tokens
// of the common services by their shape, private keys, JSON web tokens, and
// a value given to a key named like a secret. They are compiled at the
// first capture, not at the start of every command of the front.
var secretPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?s)-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\z)`),
		regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),                                   // AWS access key id
		regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}\b`),                    // GitHub tokens
		regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,}\b`),                                // GitHub fine-grained token
		regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}\b`),                                    // GitLab
		regexp.MustCompile(`\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}\b`),            // Anthropic, OpenAI, Stripe
		regexp.MustCompile(`\b(?:rk|pk)_(?:live|test)_[A-Za-z0-9]{20,}\b`),                    // Stripe
		regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`),                               // Slack
		regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`),                                       // Google API key
		regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`),                                         // npm
		regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), // JWT
		// KEY=value, "key": "value", key: value, where the key names a secret.
		regexp.MustCompile(`(?i)\b([A-Za-z0-9_.-]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret)[A-Za-z0-9_.-]*["']?\s*[:=]\s*["']?)([^\s"',;]{6,})`),
		regexp.MustCompile(`(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{16,})`), // Authorization: Bearer ...
	}
})

// urlWithPassword is a URL that carries user:password@.
var urlWithPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@]+:[^\s/@]+@[^\s]+`)
})

// Redact returns text with everything that looks like a secret replaced by
// Redacted (a URL keeps all but its password), and whether it replaced any.
func Redact(text string) (string, bool) {
	found := false
	text = urlWithPassword().ReplaceAllStringFunc(text, func(s string) string {
		u, err := url.Parse(s)
		if err != nil || u.User == nil {
			found = true
			return Redacted
		}
		if _, has := u.User.Password(); !has {
			return s
		}
		found = true
		u.User = url.UserPassword(u.User.Username(), "REDACTED")
		return strings.Replace(u.String(), "REDACTED", Redacted, 1)
	})
	for _, re := range secretPatterns() {
		if re.NumSubexp() == 2 {
			text = re.ReplaceAllStringFunc(text, func(s string) string {
				m := re.FindStringSubmatch(s)
				if looksLikeWord(m[2]) {
					return s // "the token: expired" is prose, not a secret
				}
				found = true
				return m[1] + Redacted
			})
			continue
		}
		if re.MatchString(text) {
			found = true
			text = re.ReplaceAllString(text, Redacted)
		}
	}
	return text, found
}

// looksLikeWord reports whether a value given to a secret's key is a word
// of prose or a placeholder rather than a secret: letters only, all of one
// case, or a reference to where the secret is kept ($VAR, ${VAR}, <...>).
func looksLikeWord(v string) bool {
	if strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") || strings.Contains(v, "(") {
		return true
	}
	letters, upper, lower, other := 0, 0, 0, 0
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z':
			letters++
			lower++
		case r >= 'A' && r <= 'Z':
			letters++
			upper++
		default:
			other++
		}
	}
	return other == 0 && (upper == 0 || lower == 0 || letters < 12)
}
