package topics_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/daybook/daybook/internal/daybooktest"
	"github.com/daybook/daybook/internal/topics"
)

func TestTopicsCountsAndCache(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	daybooktest.WriteFile(t, root, "days/2026/03/01.md", "# 2026-03-01\n\n- 09:00 [decision] Chose Argon2 with Dana Reyes. #auth\n- 10:00 I think my plan works. #self\n- 11:00 The user asked for shorter answers.\n")
	daybooktest.WriteFile(t, root, "days/2026/03/02.md", "# 2026-03-02\n\n- 09:00 Reviewed the login page with Dana Reyes. #auth #frontend\n")
	daybooktest.WriteFile(t, root, "days/2026/03/03.md", "# 2026-03-03\n\n- 09:00 caf\xe9\n")
	ix, st, err := topics.Load(ctx, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Days != 3 || st.Parsed != 3 || st.Bad != 1 {
		t.Fatalf("first load: %+v", st)
	}
	want := map[string]topics.Topic{
		"#auth":      {Name: "#auth", Kind: topics.KindTag, Count: 2},
		"Dana Reyes": {Name: "Dana Reyes", Kind: topics.KindPerson, Count: 2},
		"self":       {Name: "self", Kind: topics.KindBase, Count: 1},
		"user":       {Name: "user", Kind: topics.KindBase, Count: 1},
		"system":     {Name: "system", Kind: topics.KindBase, Count: 0},
		"#frontend":  {Name: "#frontend", Kind: topics.KindTag, Count: 1},
	}
	got := map[string]topics.Topic{}
	for _, tp := range ix.Topics() {
		got[tp.Name] = tp
	}
	for name, w := range want {
		g := got[name]
		if g.Name != w.Name || g.Kind != w.Kind || g.Count != w.Count {
			t.Errorf("%s: %+v, want %+v", name, g, w)
		}
	}
	if a := got["#auth"]; a.First.String() != "2026-03-01" || a.Last.String() != "2026-03-02" {
		t.Errorf("#auth seen %s..%s", a.First, a.Last)
	}
	if _, ok := got["#self"]; ok {
		t.Error("#self is a tag topic beside the base topic self")
	}
	if tp, ok := ix.Lookup("AUTH"); !ok || tp.Name != "#auth" {
		t.Errorf("lookup AUTH: %+v %v", tp, ok)
	}
	if days := ix.DaysOf("Dana Reyes"); len(days) != 2 {
		t.Errorf("days of Dana Reyes: %v", days)
	}

	// Nothing changed: nothing parsed.
	if _, st, _ := topics.Load(ctx, root, nil); st.Parsed != 0 {
		t.Fatalf("unchanged load parsed %d files", st.Parsed)
	}
	// One file changed: one parsed, and its new topics counted.
	daybooktest.WriteFile(t, root, "days/2026/03/02.md", "# 2026-03-02\n\n- 09:00 Reviewed the login page with Dana Reyes. #auth #frontend\n- 12:00 Fixed the daybook hook. #system\n")
	os.Chtimes(filepath.Join(root, "days/2026/03/02.md"), time.Now(), time.Now().Add(time.Second))
	ix, st, err = topics.Load(ctx, root, nil)
	if err != nil || st.Parsed != 1 {
		t.Fatalf("after one edit: %+v %v", st, err)
	}
	if tp, _ := ix.Lookup("system"); tp.Count != 1 {
		t.Errorf("system after the edit: %+v", tp)
	}
	// A broken cache is rebuilt, not trusted.
	os.WriteFile(filepath.Join(root, "state", "topics.json"), []byte("{"), 0o644)
	if _, st, err := topics.Load(ctx, root, nil); err != nil || st.Parsed != 3 {
		t.Fatalf("broken cache: %+v %v", st, err)
	}
}

func TestMentions(t *testing.T) {
	for _, c := range []struct {
		topic, line string
		want        bool
	}{
		{"#auth", "Chose Argon2. #auth", true},
		{"#auth", "planning auth infra", true},
		{"#auth", "the oauth callback", false},
		{"#auth", "#authn is another tag", false},
		{"Dana", "Met Dana about it", true},
		{"Dana", "Met Danae about it", false},
		{"@maya", "Asked @maya for numbers", true},
		{"self", "I decided to rest", true},
		{"self", "Rested", false},
		{"system", "Restarted daybook", true},
	} {
		if got := topics.Mentions(c.topic, c.line); got != c.want {
			t.Errorf("Mentions(%q, %q) = %v", c.topic, c.line, got)
		}
	}
}

func TestSummaryLines(t *testing.T) {
	root := t.TempDir()
	daybooktest.WriteFile(t, root, "s.md", "---\nlevel: day\nperiod: \"2026-03-01\"\n---\n# 2026-03-01 Sunday\n\nChose Argon2 with Dana. auth\n\n## Decisions\n\n- [days/2026/03/01.md:3](x) 09:00 Chose Argon2. #auth\n\n## Tags\n\n- #auth (2)\n")
	got, err := topics.SummaryLines(filepath.Join(root, "s.md"), "#auth")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Line != 7 || got[1].Line != 11 {
		t.Fatalf("lines: %+v", got)
	}
}
