package eval

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
)

func question(t *testing.T, line string) Question {
	t.Helper()
	qs, err := ReadQuestions(strings.NewReader(line), "q.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return qs[0]
}

func TestRank(t *testing.T) {
	q := question(t, `{"q": "cutover", "days": ["2025-03-23", "2025-03-24"]}`)
	entry := func(period, level string) daybook.RecallResult {
		return daybook.RecallResult{Period: period, Level: level}
	}
	tests := []struct {
		name    string
		results []daybook.RecallResult
		want    int
	}{
		{"none", nil, 0},
		{"first", []daybook.RecallResult{entry("2025-03-23", "entry")}, 1},
		{"third, a line", []daybook.RecallResult{entry("2025-03-22", "entry"), entry("2024-03-23", "day"), entry("2025-03-24", "line")}, 3},
		{"day result", []daybook.RecallResult{entry("2025-01-01", "entry"), entry("2025-03-24", "day")}, 2},
		// Month and year results hold the day but do not count.
		{"month and year", []daybook.RecallResult{entry("2025-03", "month"), entry("2025", "year"), entry("2025-03-23", "entry")}, 3},
		{"month only", []daybook.RecallResult{entry("2025-03", "month")}, 0},
		{"unknown level", []daybook.RecallResult{entry("2025-03-23", "week")}, 0},
	}
	for _, tt := range tests {
		if got := q.Rank(tt.results); got != tt.want {
			t.Errorf("%s: rank %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	// Ten questions: answered at ranks 1, 1, 2, 5, 6, 10, 11 (outside hit@10), and three not at all.
	ranks := []int{1, 1, 2, 5, 6, 10, 11, 0, 0, 0}
	var lat []time.Duration
	for i := 1; i <= 10; i++ {
		lat = append(lat, time.Duration(11-i)*time.Millisecond) // 10ms down to 1ms
	}
	m := Summarize(ranks, lat)
	want := Metrics{Questions: 10, Hit1: 0.2, Hit5: 0.4, Hit10: 0.6,
		MRR: (1 + 1 + 0.5 + 0.2 + 1.0/6 + 0.1 + 1.0/11) / 10, P50: 5 * time.Millisecond, P99: 10 * time.Millisecond}
	if m.Questions != want.Questions || m.Hit1 != want.Hit1 || m.Hit5 != want.Hit5 || m.Hit10 != want.Hit10 ||
		math.Abs(m.MRR-want.MRR) > 1e-12 || m.P50 != want.P50 || m.P99 != want.P99 {
		t.Errorf("Summarize = %+v\nwant        %+v", m, want)
	}
	if z := Summarize(nil, nil); z != (Metrics{}) {
		t.Errorf("Summarize of nothing = %+v", z)
	}
}

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		var out []time.Duration
		for _, n := range ns {
			out = append(out, time.Duration(n)*time.Millisecond)
		}
		return out
	}
	tests := []struct {
		ds   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 50, 7 * time.Millisecond},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(4, 1, 3, 2), 50, 2 * time.Millisecond},
		{ms(4, 1, 3, 2), 75, 3 * time.Millisecond},
		{ms(4, 1, 3, 2), 99, 4 * time.Millisecond},
		{ms(4, 1, 3, 2), 0, 1 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := Percentile(tt.ds, tt.p); got != tt.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", tt.ds, tt.p, got, tt.want)
		}
	}
	// Percentile leaves its input in order.
	in := ms(3, 1, 2)
	Percentile(in, 50)
	if in[0] != 3*time.Millisecond {
		t.Errorf("Percentile sorted its input: %v", in)
	}
}

func TestReadQuestionsErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "q.jsonl: no questions"},
		{"{\"q\": \"a\", \"days\": [\"2025-01-01\"]}\n\n{\"q\": \"b\", \"days\": [\"2025-02-30\"]}\n", `q.jsonl:3: field "days": parsing date "2025-02-30"`},
		{`{"q": "", "days": ["2025-01-01"]}`, `q.jsonl:1: field "q" is empty`},
		{`{"q": "a"}`, `q.jsonl:1: field "days" is empty`},
		{`{"q": "a", "days": ["2025-01-01"], "day": "x"}`, `q.jsonl:1: parsing question: json: unknown field "day"`},
		{`{"q": "a", "days": ["2025-01-01"]} {}`, `q.jsonl:1: more than one JSON value`},
		{`not json`, `q.jsonl:1: parsing question`},
	}
	for _, tt := range tests {
		_, err := ReadQuestions(strings.NewReader(tt.in), "q.jsonl")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadQuestions(%q) = %v, want an error with %q", tt.in, err, tt.want)
		}
	}
	qs, err := ReadQuestions(strings.NewReader("\n{\"q\": \"a\", \"days\": [\"2025-01-01\"]}\n"), "q.jsonl")
	if err != nil || len(qs) != 1 || qs[0].Line() != 2 || qs[0].Q != "a" {
		t.Errorf("ReadQuestions = %+v, %v; want one question from line 2", qs, err)
	}
}

func TestParseModes(t *testing.T) {
	got, err := ParseModes("linear, drill")
	if err != nil || strings.Join(got, ",") != "linear,drill" {
		t.Errorf("ParseModes = %v, %v", got, err)
	}
	for _, bad := range []string{"", ",", "linear,grep"} {
		if _, err := ParseModes(bad); err == nil {
			t.Errorf("ParseModes(%q) succeeded", bad)
		}
	}
}

// DayRank counts distinct days: ten entries of one day are one rank, and a
// month names no day.
func TestDayRank(t *testing.T) {
	q := question(t, `{"q": "kayak", "days": ["2025-06-03"]}`)
	res := []daybook.RecallResult{
		{Level: "entry", Period: "2025-06-01"},
		{Level: "entry", Period: "2025-06-01"},
		{Level: "month", Period: "2025-06"},
		{Level: "line", Period: "2025-06-02"},
		{Level: "entry", Period: "2025-06-02"},
		{Level: "entry", Period: "2025-06-03"},
	}
	if got := q.DayRank(res); got != 3 {
		t.Errorf("DayRank = %d, want 3 (the third distinct day)", got)
	}
	if got := q.Rank(res); got != 6 {
		t.Errorf("Rank = %d, want 6", got)
	}
	if got := q.DayRank(res[:5]); got != 0 {
		t.Errorf("DayRank without the gold day = %d, want 0", got)
	}
}
