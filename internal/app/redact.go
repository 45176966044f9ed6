package app

import "net/url"

// redactURL returns raw with any password replaced by "xxxxx", for output
// and logs: an Ollama URL may carry user:password.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
