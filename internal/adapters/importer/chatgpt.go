package importer

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// chatGPTFormat reads conversations.json of a ChatGPT data export (the
// file, the unzipped folder, or the .zip as downloaded): each
// conversation's messages on the branch last shown (from current_node up
// to the root), one entry each, "Title · role: text".
type chatGPTFormat struct{}

type chatNode struct {
	Parent  *string `json:"parent"`
	Message *struct {
		Author struct {
			Role string `json:"role"`
		} `json:"author"`
		CreateTime *float64 `json:"create_time"`
		Content    struct {
			ContentType string            `json:"content_type"`
			Parts       []json.RawMessage `json:"parts"`
			Text        string            `json:"text"`
		} `json:"content"`
		Metadata struct {
			Hidden bool `json:"is_visually_hidden_from_conversation"`
		} `json:"metadata"`
	} `json:"message"`
}

func (chatGPTFormat) Read(p string, _ Options) (Result, error) {
	var res Result
	files, err := exportFiles(p, func(base string) bool { return base == "conversations.json" })
	if err != nil {
		return res, fmt.Errorf("reading ChatGPT export: %w", err)
	}
	if len(files) == 0 {
		return res, fmt.Errorf("reading ChatGPT export: no conversations.json in %s", p)
	}
	for _, f := range files {
		if err := readChatGPTFile(f.name, f.data, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

func readChatGPTFile(path string, b []byte, res *Result) error {
	var convs []json.RawMessage
	if err := json.Unmarshal(b, &convs); err != nil {
		return fmt.Errorf("reading ChatGPT export (conversations.json is a JSON list of conversations): %w", jsonError(path, b, err))
	}
	for i, raw := range convs {
		var c struct {
			Title       string              `json:"title"`
			Mapping     map[string]chatNode `json:"mapping"`
			CurrentNode string              `json:"current_node"`
		}
		from := fmt.Sprintf("%s: conversation %d", path, i+1)
		if err := json.Unmarshal(raw, &c); err != nil {
			res.skip(from, WhyMalformed, "not a ChatGPT conversation: %v", jsonWhat(err))
			continue
		}
		if c.Title != "" {
			from += fmt.Sprintf(" (%q)", c.Title)
		}
		readChat(from, c.Title, c.Mapping, c.CurrentNode, res)
	}
	return nil
}

func readChat(from, title string, mapping map[string]chatNode, current string, res *Result) {
	var branch []string // current_node up to the root
	for id, seen := current, map[string]bool{}; id != "" && !seen[id]; {
		n, ok := mapping[id]
		if !ok {
			break
		}
		seen[id] = true
		branch = append(branch, id)
		if n.Parent == nil {
			break
		}
		id = *n.Parent
	}
	if len(branch) == 0 {
		res.skip(from, WhyMalformed, "no current_node in its mapping: no branch of messages to follow")
		return
	}
	slices.Reverse(branch)
	if title == "" {
		title = "Untitled chat"
	}
	k := 0
	for _, id := range branch {
		m := mapping[id].Message
		if m == nil {
			continue
		}
		k++
		where := fmt.Sprintf("%s, message %d", from, k)
		role := m.Author.Role
		if role == "system" || role == "tool" || m.Metadata.Hidden {
			continue // not part of the conversation shown: dropped, as docs/import.md says
		}
		text := chatText(m.Content.ContentType, m.Content.Parts, m.Content.Text)
		switch {
		case text == "":
			res.skip(where, WhyNoText, "no text (content type %s)", m.Content.ContentType)
		case m.CreateTime == nil || *m.CreateTime <= 0:
			res.skip(where, WhyNoTime, "no create_time")
		default:
			sec, frac := math.Modf(*m.CreateTime)
			at := time.Unix(int64(sec), int64(frac*1e9)).UTC()
			res.Entries = append(res.Entries, Entry{At: at, Text: title + " · " + role + ": " + text, From: where})
		}
	}
}

// chatText is a message's text: its string parts (images and other
// objects among them are left out), or the text of a code message.
func chatText(contentType string, parts []json.RawMessage, text string) string {
	switch contentType {
	case "text", "multimodal_text":
		var out []string
		for _, p := range parts {
			var s string
			if json.Unmarshal(p, &s) == nil && strings.TrimSpace(s) != "" {
				out = append(out, s)
			}
		}
		return strings.TrimSpace(strings.Join(out, "\n"))
	case "code":
		if strings.TrimSpace(text) != "" {
			return "```\n" + strings.TrimSpace(text) + "\n```"
		}
	}
	return ""
}
