package eval

import (
	"slices"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
)

// IsHit reports whether res answers q: a result of level day, entry or line
// whose day is one of q's gold days. Month and year results never count, even
// when their period holds a gold day: they do not point at the answer.
func (q Question) IsHit(res daybook.RecallResult) bool {
	switch date.Level(res.Level) {
	case date.LevelDay, date.LevelEntry, date.LevelLine:
	default:
		return false
	}
	if len(res.Period) < len("2006-01-02") {
		return false
	}
	d, err := date.Parse(res.Period[:10])
	return err == nil && q.gold[d]
}

// Rank returns the 1-based rank of the first result that answers q, or 0
// when none does.
func (q Question) Rank(results []daybook.RecallResult) int {
	for i, r := range results {
		if q.IsHit(r) {
			return i + 1
		}
	}
	return 0
}

// DayRank returns the 1-based rank of the first gold day among the distinct
// days the results name, in their order, or 0 when none is gold. Results of
// month and year level name no day and are skipped: ten entries of one day
// count as one day, so a list that spreads over days ranks better.
func (q Question) DayRank(results []daybook.RecallResult) int {
	var seen []string
	for _, r := range results {
		switch date.Level(r.Level) {
		case date.LevelDay, date.LevelEntry, date.LevelLine:
		default:
			continue
		}
		if len(r.Period) < len("2006-01-02") {
			continue
		}
		day := r.Period[:10]
		if slices.Contains(seen, day) {
			continue
		}
		seen = append(seen, day)
		if d, err := date.Parse(day); err == nil && q.gold[d] {
			return len(seen)
		}
	}
	return 0
}

// Metrics sums up the ranks and latencies of one mode over a question set.
type Metrics struct {
	Questions int           `json:"questions"`
	Hit1      float64       `json:"hit_at_1"` // share of questions answered at rank 1
	Hit5      float64       `json:"hit_at_5"`
	Hit10     float64       `json:"hit_at_10"`
	MRR       float64       `json:"mrr"` // mean of 1/rank, 0 for a question not answered
	P50       time.Duration `json:"p50_ns"`
	P99       time.Duration `json:"p99_ns"`
}

// Summarize computes the metrics of ranks (0: not answered) and the
// latencies of the same questions.
func Summarize(ranks []int, latencies []time.Duration) Metrics {
	m := Metrics{Questions: len(ranks)}
	if len(ranks) == 0 {
		return m
	}
	var h1, h5, h10 int
	var rr float64
	for _, r := range ranks {
		if r <= 0 {
			continue
		}
		if r <= 1 {
			h1++
		}
		if r <= 5 {
			h5++
		}
		if r <= 10 {
			h10++
		}
		rr += 1 / float64(r)
	}
	n := float64(len(ranks))
	m.Hit1, m.Hit5, m.Hit10, m.MRR = float64(h1)/n, float64(h5)/n, float64(h10)/n, rr/n
	m.P50, m.P99 = Percentile(latencies, 50), Percentile(latencies, 99)
	return m
}

// Percentile returns the p-th percentile of ds by the nearest-rank method:
// the smallest value that at least p% of ds are at or below. It is 0 for no
// values.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	k := int(float64(len(s))*p/100+0.999999999) - 1 // ceil(n·p/100), 1-based
	return s[min(max(k, 0), len(s)-1)]
}
