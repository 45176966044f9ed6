package ollama

import (
	"strings"
	"testing"
)

func TestCheckSummary(t *testing.T) {
	for _, tc := range []struct {
		answer, reason string
		ok             bool
	}{
		{"  They fixed the parser.\n", "stop", true},
		{"They tagged it #work and moved on; the ### count stayed low.", "stop", true},
		{"Here's what happened: they fixed it.", "stop", false},
		{"Certainly! They fixed it.", "stop", false},
		{"**Sure**, they fixed it.", "stop", false},
		{"I can summarise that: they fixed it.", "stop", false},
		{"Heretofore unseen, the bug was fixed.", "stop", true},
		{"They fixed it.\n\n# Notes\nmore", "stop", false},
		{"```\nThey fixed it.\n```", "stop", false},
		{"They fixed it.\n---\nmore", "stop", false},
		{"They fixed it.", "length", false},
		{strings.Repeat("word ", 260), "stop", false},
		{strings.Repeat("word ", 250), "stop", true},
		{"\n \t", "stop", false},
	} {
		_, err := checkSummary(tc.answer, 115, tc.reason)
		if (err == nil) != tc.ok {
			t.Errorf("checkSummary(%.40q, %q) = %v, want ok %v", tc.answer, tc.reason, err, tc.ok)
		}
	}
}

func TestSameModel(t *testing.T) {
	for _, tc := range []struct {
		listed, configured string
		want               bool
	}{
		{"llama3.2:latest", "llama3.2", true},
		{"llama3.2:3b", "llama3.2", false},
		{"llama3.2:3b", "llama3.2:3b", true},
		{"registry.local:5000/team/model:latest", "registry.local:5000/team/model", true},
		{"nomic-embed-text:latest", "llama3.2", false},
	} {
		if got := sameModel(tc.listed, tc.configured); got != tc.want {
			t.Errorf("sameModel(%q, %q) = %v", tc.listed, tc.configured, got)
		}
	}
}

func TestParseURL(t *testing.T) {
	for _, bad := range []string{"", "localhost:11434", "ftp://x", "http://"} {
		if _, err := parseURL(bad); err == nil || !strings.Contains(err.Error(), "ollama.url") {
			t.Errorf("parseURL(%q) = %v, want an error naming ollama.url", bad, err)
		}
	}
}
