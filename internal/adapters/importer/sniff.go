package importer

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// sniffSize is how much of a file Sniff reads.
const sniffSize = 64 << 10

var (
	jsonKey = func(k string) *regexp.Regexp { return regexp.MustCompile(`"` + k + `"\s*:`) }
	// What each JSON format has near its start, compiled at the first
	// Sniff rather than at every start of daybook-core.
	chatGPTKeys = sync.OnceValue(func() []*regexp.Regexp { return []*regexp.Regexp{jsonKey("mapping"), jsonKey("current_node")} })
	dayOneKeys  = sync.OnceValue(func() []*regexp.Regexp { return []*regexp.Regexp{jsonKey("entries"), jsonKey("creationDate")} })
	jrnlKeys    = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{jsonKey("entries"), jsonKey("title"), jsonKey("body")}
	})
	loCoMoKeys = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{regexp.MustCompile(`"(session_\d+|speaker_[ab12]|sample_id)"\s*:`)}
	})
	// jrnlLine is the line a jrnl entry starts with: [2012-03-29 09:00].
	jrnlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\[\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}`) })
)

// Sniff guesses which format the input at p is in, by its shape: "jsonl"
// or one of Names; "" when it cannot tell. It reads a little of p and
// never fails: an input it cannot read is "".
func Sniff(p string) string {
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return ""
	case st.IsDir():
		return sniffDir(p)
	case strings.EqualFold(filepath.Ext(p), ".zip"):
		return sniffZip(p)
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	head, _ := io.ReadAll(io.LimitReader(f, sniffSize))
	return sniffBytes(head)
}

func sniffDir(dir string) string {
	has := func(rel string, wantDir bool) bool {
		st, err := os.Stat(filepath.Join(dir, rel))
		return err == nil && st.IsDir() == wantDir
	}
	switch {
	case has(".obsidian", true):
		return "obsidian"
	case has(filepath.Join("logseq", "config.edn"), false), has("journals", true) && has("pages", true):
		return "logseq"
	case has("conversations.json", false):
		return "chatgpt"
	}
	jsons, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, j := range jsons {
		if got := Sniff(j); got == "dayone" || got == "locomo" {
			return got
		}
	}
	if mds, _ := filepath.Glob(filepath.Join(dir, "*.md")); len(mds) > 0 {
		return "obsidian"
	}
	return ""
}

func sniffZip(p string) string {
	z, err := zip.OpenReader(p)
	if err != nil {
		return ""
	}
	defer z.Close()
	for _, m := range z.File {
		if path.Base(m.Name) == "conversations.json" {
			return "chatgpt"
		}
	}
	for _, m := range z.File {
		if strings.EqualFold(path.Ext(m.Name), ".json") && !strings.HasPrefix(m.Name, "__MACOSX/") {
			r, err := m.Open()
			if err != nil {
				continue
			}
			head, _ := io.ReadAll(io.LimitReader(r, sniffSize))
			r.Close()
			if got := sniffBytes(head); got != "" {
				return got
			}
		}
	}
	return ""
}

func sniffBytes(head []byte) string {
	t := bytes.TrimSpace(head)
	all := func(keys []*regexp.Regexp) bool {
		for _, k := range keys {
			if !k.Match(t) {
				return false
			}
		}
		return true
	}
	switch {
	case len(t) == 0:
		return ""
	case jrnlLine().Match(t):
		return "jrnl"
	case t[0] == '[':
		switch {
		case all(chatGPTKeys()):
			return "chatgpt"
		case all(loCoMoKeys()):
			return "locomo"
		}
	case t[0] == '{':
		first, _, _ := bytes.Cut(t, []byte("\n"))
		var line map[string]json.RawMessage
		if json.Unmarshal(first, &line) == nil && line["at"] != nil {
			return "jsonl"
		}
		switch {
		case all(dayOneKeys()):
			return "dayone"
		case all(jrnlKeys()):
			return "jrnl"
		case all(loCoMoKeys()):
			return "locomo"
		}
	}
	return ""
}
