package app

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	agenthooks "github.com/daybook/daybook/internal/adapters/hooks"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/consolidate"
	"github.com/daybook/daybook/dayfiles"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/index"
	"github.com/daybook/daybook/internal/topics"
)

// Sizes of the stats lists.
const (
	statsTopTopics = 10
	statsBusiest   = 5
)

// Statistics describes the memory for stats, from the other parts: the
// topics, the summaries and a default context.
type Statistics struct {
	*env
	topics     *TopicIndex
	summaries  *Summaries
	reader     *Reader
	background bool // Options.BackgroundCatchUp: the process is the daemon
}

// Stats describes the memory: entries and days, summaries per level, how
// much of closed history has a current summary, how much a default context
// compresses the days it covers, the top topics and the busiest periods.
func (st *Statistics) Stats(ctx context.Context, _ daybook.StatsRequest) (daybook.StatsResponse, error) {
	resp := daybook.StatsResponse{Summaries: map[string]int{}, Coverage: map[string]float64{}, Busiest: map[string][]daybook.Count{},
		TopTopics: []daybook.Count{}}
	ix, err := st.topics.load(ctx)
	if err != nil {
		return resp, err
	}
	closed := statsDays(&resp, ix.Days(), st.Today())
	if err := st.summaries.fillStats(ctx, &resp, closed); err != nil {
		return resp, err
	}
	for _, t := range ix.Topics() {
		if t.Count == 0 || len(resp.TopTopics) == statsTopTopics {
			break
		}
		tc := topicOf(t)
		resp.TopTopics = append(resp.TopTopics, daybook.Count{Name: tc.Name, Count: tc.Count, First: tc.First, Last: tc.Last})
	}
	if err := st.statsFootprint(&resp); err != nil {
		return resp, err
	}
	// What the context hooks handed agent sessions.
	if t := agenthooks.Totals(st.dir); t.Sessions > 0 {
		resp.Injected = &daybook.Injected{Sessions: t.Sessions, Starts: t.Starts, StartTokens: t.StartTokens,
			Asked: t.Asked, Prompts: t.Prompts, PromptTokens: t.PromptTokens}
	}

	// Compression of a default context.
	c, err := st.reader.Context(ctx, daybook.ContextRequest{})
	if err != nil {
		return resp, fmt.Errorf("assembling the default context: %w", err)
	}
	if c.Tokens > 0 {
		resp.Compression = float64(c.RawTokens) / float64(c.Tokens)
	}
	return resp, nil
}

// statsDays counts the entries and days into resp with the busiest days,
// months and years, and returns the ids of the closed periods that have
// something to summarise.
func statsDays(resp *daybook.StatsResponse, days []topics.Day, today date.Date) map[string]bool {
	closed := map[string]bool{}
	perLevel := map[date.Level]map[string]*daybook.Count{
		date.LevelDay: {}, date.LevelMonth: {}, date.LevelYear: {},
	}
	for _, d := range days {
		resp.Days++
		resp.Entries += d.Entries
		for _, p := range []consolidate.Period{consolidate.DayPeriod(d.Date), consolidate.MonthPeriod(d.Date.MonthOf()), consolidate.YearPeriod(d.Date.Year)} {
			if (d.Entries > 0 || d.Notes > 0) && p.Closed(today) {
				closed[p.ID()] = true
			}
			if d.Entries == 0 {
				continue
			}
			c := perLevel[p.Level][p.String()]
			if c == nil {
				c = &daybook.Count{Name: p.String(), First: d.Date.String()}
				perLevel[p.Level][p.String()] = c
			}
			c.Count += d.Entries
			c.Last = d.Date.String()
		}
	}
	for level, m := range perLevel {
		list := make([]daybook.Count, 0, len(m))
		for _, c := range m {
			if level == date.LevelDay {
				c.First, c.Last = "", ""
			}
			list = append(list, *c)
		}
		slices.SortFunc(list, func(a, b daybook.Count) int {
			if c := cmp.Compare(b.Count, a.Count); c != 0 {
				return c
			}
			return cmp.Compare(a.Name, b.Name)
		})
		resp.Busiest[string(level)] = list[:min(len(list), statsBusiest)]
	}
	return closed
}

// statsFootprint puts the day files' and the index's bytes into resp, and
// the daemon's memory when a daemon answers (only the daemon runs
// catch-ups in the background).
func (st *Statistics) statsFootprint(resp *daybook.StatsResponse) error {
	days, err := dayfiles.List(st.dir, date.Range{}, st.log)
	if err != nil {
		return err
	}
	for _, f := range days {
		resp.DayFileBytes += f.Size
	}
	resp.IndexBytes = index.DiskBytes(filepath.Join(st.dir, IndexDir))
	if resp.DayFileBytes > 0 {
		resp.IndexRatio = float64(resp.IndexBytes) / float64(resp.DayFileBytes)
	}
	if st.background {
		resp.DaemonRSS = selfRSS()
	}
	return nil
}

// selfRSS returns this process's resident memory in bytes (VmRSS of
// /proc/self/status), 0 where the system does not tell.
func selfRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range bytes.Split(data, []byte("\n")) {
		if f := strings.Fields(string(l)); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
