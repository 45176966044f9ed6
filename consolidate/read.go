package consolidate

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	yaml "go.yaml.in/yaml/v3"
)

// MaxSummarySize is the largest summary file ReadSummary reads.
const MaxSummarySize = 4 << 20

// ReadSummary reads the summary file at path: its front matter, prose,
// decisions, tags, people and busiest days. A section a person removed is
// empty; a file without daybook's front matter is an error naming the path.
func ReadSummary(path string) (*Summary, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading summary: %w", err)
	}
	return parseSummary(path, data)
}

// splitFrontMatter returns the YAML of a file's front matter and its body.
func splitFrontMatter(data []byte) (fm, body []byte, ok bool) {
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil, nil, false
	}
	rest := data[4:]
	i := bytes.Index(rest, []byte("\n---\n"))
	if i < 0 {
		return nil, nil, false
	}
	return rest[:i+1], rest[i+5:], true
}

func parseSummary(path string, data []byte) (*Summary, error) {
	if len(data) > MaxSummarySize {
		return nil, fmt.Errorf("%s: %d bytes is over the %d MiB limit of a summary", path, len(data), MaxSummarySize>>20)
	}
	fmRaw, body, ok := splitFrontMatter(data)
	if !ok {
		return nil, fmt.Errorf("%s: no front matter: not a daybook summary", path)
	}
	var fm frontMatter
	if err := yaml.Unmarshal(fmRaw, &fm); err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", path, err)
	}
	p, err := ParsePeriod(fm.Level, fm.Period)
	if err != nil {
		return nil, fmt.Errorf("%s: front matter: %w", path, err)
	}
	s := &Summary{
		Period: p, Path: path, Rel: p.Rel(), Digest: fm.Digest, Summarizer: fm.Summarizer,
		ContentHash: fm.ContentHash, Counts: fm.Counts,
		edited: fm.ContentHash != hashBody(body) || !ownFrontMatter(fm, fmRaw),
	}
	if fm.WrittenAt != "" {
		if s.WrittenAt, err = time.Parse(time.RFC3339, fm.WrittenAt); err != nil {
			return nil, fmt.Errorf("%s: front matter: written_at %q: want RFC 3339", path, fm.WrittenAt)
		}
	}
	if err := parseBody(s, string(body)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if p.Level == date.LevelYear && s.Counts.Decisions > len(s.Decisions) {
		s.DecisionsOmitted = s.Counts.Decisions - len(s.Decisions)
	}
	return s, nil
}

func parseBody(s *Summary, body string) error {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	section := ""
	var prose []string
	var pendingBlank int
	for n, l := range lines {
		switch {
		case section == "" && s.Title == "" && strings.HasPrefix(l, "# "):
			s.Title = strings.TrimSpace(l[2:])
			continue
		case strings.HasPrefix(l, "## "):
			section = strings.TrimSpace(l[3:])
			continue
		}
		if section == "" {
			if strings.HasPrefix(l, `\#`) || strings.HasPrefix(l, `\---`) {
				l = l[1:]
			}
			prose = append(prose, l)
			continue
		}
		switch {
		case section == secDecisions && strings.HasPrefix(l, "- ["):
			d, err := parseDecision(l)
			if err != nil {
				return fmt.Errorf("line %d: %w", n+1, err)
			}
			s.Decisions = append(s.Decisions, d)
			pendingBlank = 0
		case section == secDecisions && strings.HasPrefix(l, "  ") && len(s.Decisions) > 0:
			d := &s.Decisions[len(s.Decisions)-1]
			d.Text += strings.Repeat("\n", pendingBlank+1) + l[2:]
			pendingBlank = 0
		case section == secDecisions && strings.TrimSpace(l) == "":
			pendingBlank++
		case section == secDecisions:
			pendingBlank = 0 // the year's note on omitted decisions, or a person's own text
		case section == secTags || section == secPeople:
			if c, ok := parseCount(l); ok {
				c.Name = strings.TrimPrefix(c.Name, "#")
				if section == secTags {
					s.Tags = append(s.Tags, c)
				} else {
					s.People = append(s.People, c)
				}
			}
		case section == secKeywords:
			s.Keywords = append(s.Keywords, parseKeywords(l)...)
		case section == secBusiest:
			if d, ok := parseBusiest(l); ok {
				s.Busiest = append(s.Busiest, d)
			}
		}
	}
	s.Prose = strings.TrimSpace(strings.Join(prose, "\n"))
	return nil
}

// parseDecision parses "- [days/2026/11/22.md:7](../../../days/2026/11/22.md#L7) 09:14 text".
func parseDecision(l string) (Decision, error) {
	end := strings.Index(l, "](")
	if end < 0 {
		return Decision{}, errors.New("decision without a link")
	}
	ref := l[3:end]
	rest := l[end+2:]
	close := strings.Index(rest, ")")
	if close < 0 {
		return Decision{}, fmt.Errorf("decision %q: unclosed link", ref)
	}
	rest = strings.TrimPrefix(rest[close+1:], " ")
	colon := strings.LastIndexByte(ref, ':')
	if colon < 0 {
		return Decision{}, fmt.Errorf("decision link %q: want PATH:LINE", ref)
	}
	line, err := strconv.Atoi(ref[colon+1:])
	if err != nil || line < 1 {
		return Decision{}, fmt.Errorf("decision link %q: want PATH:LINE", ref)
	}
	d := Decision{Ref: ref, Path: ref[:colon], Line: line}
	if len(rest) >= 5 && rest[2] == ':' {
		d.Time, rest = rest[:5], strings.TrimPrefix(rest[5:], " ")
	}
	d.Text = rest
	return d, nil
}

// parseCount parses "- #tag (3)" or "- Alice Smith (2)".
func parseCount(l string) (Count, bool) {
	if !strings.HasPrefix(l, "- ") || !strings.HasSuffix(l, ")") {
		return Count{}, false
	}
	open := strings.LastIndex(l, " (")
	if open < 2 {
		return Count{}, false
	}
	n, err := strconv.Atoi(l[open+2 : len(l)-1])
	if err != nil {
		return Count{}, false
	}
	return Count{Name: l[2:open], N: n}, true
}

// parseBusiest parses "- [2026-11-22](11/22.md) (12 entries)".
func parseBusiest(l string) (DayCount, bool) {
	if !strings.HasPrefix(l, "- [") || len(l) < 3+10 {
		return DayCount{}, false
	}
	d := DayCount{Date: l[3:13]}
	open := strings.LastIndex(l, " (")
	if open < 0 {
		return DayCount{}, false
	}
	f := strings.Fields(l[open+2:])
	if len(f) == 0 {
		return DayCount{}, false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return DayCount{}, false
	}
	d.Entries = n
	return d, true
}
