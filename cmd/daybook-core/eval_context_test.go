package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eval --dialogue --context --context-misses writes each block that holds
// none of its question's evidence messages, as JSON lines with the entries
// that hold them; it goes only with --context.
func TestEvalContextMisses(t *testing.T) {
	dir, daybook := importEnv(t)
	// Twelve sessions of twenty messages; the question is answered by a
	// message of the first that shares none of its words, while the last
	// session talks about what it asks.
	conv := map[string]any{"speaker_a": "Caroline", "speaker_b": "Melanie"}
	for s := 1; s <= 12; s++ {
		conv[fmt.Sprintf("session_%d_date_time", s)] = fmt.Sprintf("1:56 pm on %d May, 2023", s)
		var msgs []map[string]string
		for m := 1; m <= 20; m++ {
			speaker := []string{"Caroline", "Melanie"}[m%2]
			text := fmt.Sprintf("Session %d, message %d: we talked about the weather, the groceries and the neighbours' new fence.", s, m)
			if s == 12 {
				text = fmt.Sprintf("The lighthouse tour, part %d: Caroline liked the old lamp room and the spiral stairs.", m)
			}
			msgs = append(msgs, map[string]string{"speaker": speaker, "dia_id": fmt.Sprintf("D%d:%d", s, m), "text": text})
		}
		conv[fmt.Sprintf("session_%d", s)] = msgs
	}
	const answer = "Honestly the socks I bought were the best thing this week."
	conv["session_1"].([]map[string]string)[14]["text"] = answer
	set := []map[string]any{{"sample_id": "conv-x", "conversation": conv,
		"qa": []map[string]any{{"question": "What did Caroline think of the lighthouse?", "answer": "x", "evidence": []string{"D1:15"}, "category": 1}}}}
	data, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "set.json")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	missesPath := filepath.Join(t.TempDir(), "misses.jsonl")
	out, errs, code := daybook("eval", "--dialogue", in, "--context", "--context-misses", missesPath)
	if code != 0 || !strings.Contains(out, "context 4000") {
		t.Fatalf("eval: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	f, err := os.Open(missesPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var budgets []int
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			Conversation, Question, Block string
			Budget                        int
			Evidence                      []struct {
				ID, Day, Text string
				Line          int
				DayInBlock    bool `json:"day_in_block"`
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v: %s", missesPath, err, sc.Text())
		}
		budgets = append(budgets, m.Budget)
		if m.Conversation != "conv-x" || m.Question != "What did Caroline think of the lighthouse?" || !strings.Contains(m.Block, "lighthouse") {
			t.Errorf("miss %+v", m)
		}
		if len(m.Evidence) != 1 || m.Evidence[0].Day != "2023-05-01" || m.Evidence[0].Text != "Melanie: "+answer || m.Evidence[0].Line < 1 ||
			m.Evidence[0].DayInBlock != strings.Contains(m.Block, "\n### 2023-05-01 · days/2023/05/01.md\n") {
			t.Errorf("miss at %d: evidence %+v", m.Budget, m.Evidence)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(budgets) != "[1000 2000 4000]" {
		t.Errorf("misses at budgets %v, want [1000 2000 4000]", budgets)
	}
	if _, err := os.Stat(filepath.Join(dir, "days")); !os.IsNotExist(err) {
		t.Errorf("the eval wrote into the data dir: %v", err)
	}

	_, errs, code = daybook("eval", "--dialogue", in, "--context-misses", missesPath)
	if code != 2 || !strings.Contains(errs, "--context-misses goes with --dialogue PATH --context") {
		t.Errorf("--context-misses without --context: exit %d, stderr %q", code, errs)
	}
}
