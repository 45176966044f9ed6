package consolidate

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/util/words"
	yaml "go.yaml.in/yaml/v3"
)

// frontMatter is the YAML head of a summary file.
type frontMatter struct {
	Level       date.Level `yaml:"level"`
	Period      string     `yaml:"period"`
	Digest      string     `yaml:"digest"`
	Summarizer  string     `yaml:"summarizer"`
	WrittenAt   string     `yaml:"written_at"`
	ContentHash string     `yaml:"content_hash"`
	Counts      Counts     `yaml:"counts"`
}

// ownFrontMatter reports whether raw, decoded as f, is a front matter as
// daybook writes it: f marshalled again gives the same bytes, so a person
// added no comment, key or formatting of their own that a rewrite would
// drop. (The content_hash answers for the body; this for the head.
// Summaries have been written by this one frontMatter and yaml.Marshal
// since the first release, so none of daybook's own fails the test. A new
// field, or a YAML library that lays it out otherwise, would make every
// summary on disk an edit: TestWrittenSummariesAreNotEdits holds summaries
// an earlier daybook wrote to catch that.)
func ownFrontMatter(f frontMatter, raw []byte) bool {
	again, err := yaml.Marshal(f)
	return err == nil && bytes.Equal(again, raw)
}

// Section headings of a summary body.
const (
	secDecisions = "Decisions"
	secTags      = "Tags"
	secPeople    = "People"
	secKeywords  = "Keywords"
	secBusiest   = "Busiest days"
	secStats     = "Stats"
)

// render returns the file content of s and sets s.ContentHash.
func render(s *Summary) ([]byte, error) {
	body := renderBody(s)
	s.ContentHash = hashBody(body)
	fm, err := yaml.Marshal(frontMatter{
		Level: s.Period.Level, Period: s.Period.String(), Digest: s.Digest,
		Summarizer: s.Summarizer, WrittenAt: s.WrittenAt.Format(time.RFC3339),
		ContentHash: s.ContentHash, Counts: s.Counts,
	})
	if err != nil {
		return nil, fmt.Errorf("encoding front matter of %s: %w", s.Rel, err)
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(fm)
	b.WriteString("---\n")
	b.Write(body)
	return b.Bytes(), nil
}

func renderBody(s *Summary) []byte {
	var b bytes.Buffer
	p := s.Period
	fmt.Fprintf(&b, "# %s\n\n", s.Title)
	if prose := strings.TrimSpace(s.Prose); prose != "" {
		for _, l := range strings.Split(prose, "\n") {
			l = strings.TrimRight(l, " \t\r")
			if strings.HasPrefix(l, "#") || strings.HasPrefix(l, "---") {
				l = `\` + l // a heading in the prose would end it early when read back
			}
			b.WriteString(l + "\n")
		}
		b.WriteByte('\n')
	}
	if len(s.Decisions) > 0 {
		fmt.Fprintf(&b, "## %s\n\n", secDecisions)
		if p.Level == date.LevelYear && s.Counts.Decisions > len(s.Decisions) {
			fmt.Fprintf(&b, "The %d most salient of the year's %d decisions; each month's summary lists all of its own:", len(s.Decisions), s.Counts.Decisions)
			for m := 1; m <= 12; m++ {
				if s.hasMonth(m) {
					fmt.Fprintf(&b, " [%04d-%02d](%04d/%02d.md)", p.Year, m, p.Year, m)
				}
			}
			b.WriteString(".\n\n")
		}
		for _, d := range s.Decisions {
			fmt.Fprintf(&b, "- [%s](%s%s#L%d) %s ", d.Ref, p.toRoot(), d.Path, d.Line, d.Time)
			for i, l := range strings.Split(d.Text, "\n") {
				switch {
				case i == 0:
					b.WriteString(l)
				case strings.TrimSpace(l) == "":
					b.WriteString("\n")
				default:
					b.WriteString("\n  " + l)
				}
			}
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	writeCounts(&b, secTags, "#", s.Tags)
	writeCounts(&b, secPeople, "", s.People)
	if len(s.Keywords) > 0 {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", secKeywords, renderKeywords(s.Keywords))
	}
	if len(s.Busiest) > 0 {
		fmt.Fprintf(&b, "## %s\n\n", secBusiest)
		for _, d := range s.Busiest {
			link := d.Date[5:7] + "/" + d.Date[8:] + ".md"
			if p.Level == date.LevelYear {
				link = d.Date[:4] + "/" + link
			}
			fmt.Fprintf(&b, "- [%s](%s) (%s)\n", d.Date, link, words.Count(d.Entries, "entry"))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "## %s\n\n%s.\n", secStats, s.Counts.statsLine(p.Level))
	return b.Bytes()
}

// hasMonth reports whether month m of a year summary has decisions shown or
// days listed; the months a year links are those its busiest days and
// decisions come from, and any month with entries.
func (s *Summary) hasMonth(m int) bool {
	prefix := fmt.Sprintf("days/%04d/%02d/", s.Period.Year, m)
	for _, d := range s.Decisions {
		if strings.HasPrefix(d.Path, prefix) {
			return true
		}
	}
	return s.months != nil && s.months[m]
}

func writeCounts(b *bytes.Buffer, heading, prefix string, cs []Count) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(b, "## %s\n\n", heading)
	for _, c := range cs {
		fmt.Fprintf(b, "- %s%s (%d)\n", prefix, c.Name, c.N)
	}
	b.WriteByte('\n')
}
