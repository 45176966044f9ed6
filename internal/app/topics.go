package app

import (
	"context"
	"slices"
	"sync"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/internal/topics"
	"github.com/daybook/daybook/internal/util/logkey"
)

// defaultTopicLimit is how many lines per level and entries a topic shows.
const defaultTopicLimit = 10

// TopicIndex answers for the topics of the day files (package topics),
// whose index it loads one request at a time.
type TopicIndex struct {
	*env
	mu sync.Mutex // one topics.Load at a time
}

// load returns the topics of the day files; only changed files are
// parsed again (see package topics).
func (ti *TopicIndex) load(ctx context.Context) (*topics.Index, error) {
	// One at a time: two requests that find the cache old would both parse
	// every changed day (2 s of garbage for 5 years), and write it twice.
	ti.mu.Lock()
	defer ti.mu.Unlock()
	ix, st, err := topics.Load(ctx, ti.dir, ti.log)
	if err != nil {
		return nil, err
	}
	if st.Parsed > 0 {
		ti.log.Debug("topics brought up to date", logkey.System, "topics", "days", st.Days, "parsed", st.Parsed, "bad", st.Bad)
	}
	return ix, nil
}

// Topics lists the topics of the day files, most entries first, with the
// base topics self, user and system always among them.
func (ti *TopicIndex) Topics(ctx context.Context, req daybook.TopicsRequest) (daybook.TopicsResponse, error) {
	if req.Limit < 0 {
		return daybook.TopicsResponse{}, userErrf("limit: %d is negative", req.Limit)
	}
	ix, err := ti.load(ctx)
	if err != nil {
		return daybook.TopicsResponse{}, err
	}
	all := ix.Topics()
	resp := daybook.TopicsResponse{Total: len(all), Topics: []daybook.Topic{}}
	if req.Limit > 0 && req.Limit < len(all) {
		all = all[:req.Limit]
	}
	for _, t := range all {
		resp.Topics = append(resp.Topics, topicOf(t))
	}
	return resp, nil
}

func topicOf(t topics.Topic) daybook.Topic {
	out := daybook.Topic{Name: t.Name, Kind: string(t.Kind), Count: t.Count}
	if t.Count > 0 {
		out.First, out.Last = t.First.String(), t.Last.String()
	}
	return out
}

// Topic returns a topic's pyramid: the lines of the yearly, monthly and
// daily summaries that mention it, each level newest first, then its latest
// entries, newest first. Only the summaries of periods whose entries name
// the topic are read.
func (ti *TopicIndex) Topic(ctx context.Context, req daybook.TopicRequest) (daybook.TopicResponse, error) {
	if req.Name == "" {
		return daybook.TopicResponse{}, userErrf("name: empty: give a topic such as #auth, a name or self")
	}
	if req.Limit < 0 {
		return daybook.TopicResponse{}, userErrf("limit: %d is negative", req.Limit)
	}
	limit := req.Limit
	if limit == 0 {
		limit = defaultTopicLimit
	}
	ix, err := ti.load(ctx)
	if err != nil {
		return daybook.TopicResponse{}, err
	}
	t, ok := ix.Lookup(req.Name)
	if !ok {
		return daybook.TopicResponse{}, notFoundf("no topic %q: no entry names it (\"daybook topics\" lists them)", req.Name)
	}
	resp := daybook.TopicResponse{Topic: topicOf(t), Summaries: []daybook.TopicLine{}, Entries: []daybook.TopicEntry{}}
	days := ix.DaysOf(t.Name)
	slices.Reverse(days) // newest first

	// The periods whose entries name the topic, newest first, per level.
	var years []consolidate.Period
	var months []consolidate.Period
	var dayPeriods []consolidate.Period
	for _, d := range days {
		y, m, dp := consolidate.YearPeriod(d.Year), consolidate.MonthPeriod(d.MonthOf()), consolidate.DayPeriod(d)
		if len(years) == 0 || years[len(years)-1] != y {
			years = append(years, y)
		}
		if len(months) == 0 || months[len(months)-1] != m {
			months = append(months, m)
		}
		dayPeriods = append(dayPeriods, dp)
	}
	for _, level := range [][]consolidate.Period{years, months, dayPeriods} {
		n := 0
		for _, p := range level {
			if n >= limit {
				break
			}
			if err := ctx.Err(); err != nil {
				return resp, err
			}
			lines, err := topics.SummaryLines(p.Path(ti.dir), t.Name)
			if err != nil {
				continue // not consolidated yet, or removed
			}
			for _, l := range lines[:min(len(lines), limit-n)] {
				resp.Summaries = append(resp.Summaries, daybook.TopicLine{ID: p.ID(), Level: string(p.Level),
					Period: p.String(), Path: p.Rel(), Line: l.Line, Text: l.Text})
				n++
			}
		}
	}

	for _, d := range days {
		if len(resp.Entries) >= limit {
			break
		}
		day, err := dayfiles.ParseFile(dayfiles.Path(ti.dir, d), d)
		if err != nil {
			continue
		}
		for i := len(day.Entries) - 1; i >= 0 && len(resp.Entries) < limit; i-- {
			e := day.Entries[i]
			if slices.Contains(topics.EntryTopics(e), t.Name) {
				resp.Entries = append(resp.Entries, topicEntry(e))
			}
		}
	}
	return resp, nil
}

func topicEntry(e dayfiles.Entry) daybook.TopicEntry {
	return daybook.TopicEntry{ID: e.ID, Day: e.Day.String(), Time: e.Clock(), Kind: string(e.Kind), Text: e.Text,
		Path: dayfiles.RelPath(e.Day), Line: e.Line}
}
