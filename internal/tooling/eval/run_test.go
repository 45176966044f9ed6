package eval_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/tooling/eval"
	"github.com/daybook/daybook/recall"
)

// now is the fixed "now" of the question set: its temporal phrasings
// ("last March", "yesterday") are meant relative to this instant.
var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

const corpus = "testdata/corpus"

func questions(t *testing.T) []eval.Question {
	t.Helper()
	f, err := os.Open("testdata/questions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := eval.ReadQuestions(f, f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// linearRecaller answers in the linear mode straight from package recall,
// the way the App's linear mode does: the temporal phrase becomes the range.
type linearRecaller struct {
	root string
}

func (l linearRecaller) Recall(ctx context.Context, req daybook.RecallRequest) (daybook.RecallResponse, error) {
	if req.Mode != "linear" {
		return daybook.RecallResponse{}, errors.New("mode " + req.Mode + " is not available")
	}
	r, rest, _ := recall.ParseTemporal(req.Query, now, time.UTC)
	res, err := recall.Linear(ctx, l.root, rest, r, req.Limit, nil)
	return daybook.RecallResponse{Query: req.Query, Range: r.String(), Results: res, Method: daybook.Method{Start: daybook.MethodLinear}}, err
}

// floors are the figures measured on the question set (78 questions, limit
// 10), less a margin of about 0.05 (four questions): a change that drops
// below one of them is a regression. Measured:
//
//	mode    hit@1  hit@5  hit@10  MRR
//	drill   0.872  0.936  0.949   0.900
//	bm25    0.769  0.872  0.872   0.821
//	vector  0.821  0.936  0.949   0.869
//	linear  0.872  0.936  0.949   0.900
var floors = map[string]eval.Metrics{
	"drill":  {Hit1: 0.82, Hit5: 0.88, Hit10: 0.90, MRR: 0.85},
	"bm25":   {Hit1: 0.72, Hit5: 0.82, Hit10: 0.82, MRR: 0.77},
	"vector": {Hit1: 0.77, Hit5: 0.88, Hit10: 0.90, MRR: 0.82},
	"linear": {Hit1: 0.82, Hit5: 0.88, Hit10: 0.90, MRR: 0.85},
}

func checkFloors(t *testing.T, rep eval.Report) {
	t.Helper()
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", table.String())
	for _, m := range rep.Modes {
		for _, miss := range m.Misses {
			t.Logf("%s missed line %d: %q (top: %s)", m.Mode, miss.Line, miss.Q, miss.Top)
		}
		f, ok := floors[m.Mode]
		if !ok {
			continue
		}
		if m.Err != "" {
			t.Errorf("mode %s failed: %s", m.Mode, m.Err)
			continue
		}
		x := m.Metrics
		if x.Hit1 < f.Hit1 || x.Hit5 < f.Hit5 || x.Hit10 < f.Hit10 || x.MRR < f.MRR {
			t.Errorf("mode %s: hit@1 %.3f hit@5 %.3f hit@10 %.3f MRR %.3f; floors %.2f %.2f %.2f %.2f",
				m.Mode, x.Hit1, x.Hit5, x.Hit10, x.MRR, f.Hit1, f.Hit5, f.Hit10, f.MRR)
		}
	}
}

func TestEvalLinear(t *testing.T) {
	qs := questions(t)
	if len(qs) < 50 {
		t.Fatalf("%d questions; the set should hold at least 50", len(qs))
	}
	rep, err := eval.Run(context.Background(), linearRecaller{corpus}, qs, []string{"linear"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	checkFloors(t, rep)
}

// TestEvalApp runs every mode through the App, once the App answers recall.
func TestEvalApp(t *testing.T) {
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	// The App builds its index in the data dir: give it a copy of the corpus.
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(corpus)); err != nil {
		t.Fatal(err)
	}
	a := app.NewWith(dir, cfg, nil, app.Options{Now: func() time.Time { return now }})
	defer a.Close()
	rc, ok := any(a).(eval.Recaller)
	if !ok {
		t.Skip("app.App has no Recall method yet")
	}
	rep, err := eval.Run(context.Background(), rc, questions(t), eval.Modes(), 10)
	if err != nil {
		t.Fatal(err)
	}
	checkFloors(t, rep)
}

// A mode that fails is reported with its error; the others still run.
func TestRunModeError(t *testing.T) {
	qs := questions(t)[:3]
	rep, err := eval.Run(context.Background(), linearRecaller{corpus}, qs, []string{"drill", "linear"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Modes) != 2 || !strings.Contains(rep.Modes[0].Err, "line 1: mode drill is not available") || rep.Modes[1].Err != "" || rep.Modes[1].Metrics.Questions != 3 {
		t.Fatalf("report = %+v", rep)
	}
	var out bytes.Buffer
	if err := rep.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "hit@5") || !strings.Contains(lines[1], "error:") || !strings.Contains(lines[2], "linear") {
		t.Errorf("table:\n%s", out.String())
	}
}
