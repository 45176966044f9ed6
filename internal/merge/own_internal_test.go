package merge

import "testing"

// ownTail tells daybook's own append, cut short before its head, from any
// other change of the file.
func TestOwnTail(t *testing.T) {
	head := "# 2026-11-24 Tuesday\n\n- 08:00 one\n"
	st := &dayState{Hash: hash([]byte(head)), Len: int64(len(head)),
		pending: []appended{{Lines: "- 09:00 two\n"}, {Lines: "- 09:01 three\n"}}}
	for content, want := range map[string]bool{
		head + "- 09:00 two\n- 09:01 three\n":                  true,
		head + "\n- 09:00 two\n- 09:01 three\n":                true,
		head + "- 09:00 two\n- 09:01 thr":                      false, // torn
		head + "- 09:00 two\n":                                 false,
		"# 2026-11-24 Tuesday\n\n- 09:00 two\n":                false,
		head + "- 10:00 by hand\n- 09:00 two\n- 09:01 three\n": false,
		head: false,
	} {
		if got := ownTail([]byte(content), st); got != want {
			t.Errorf("ownTail(%q) = %v, want %v", content, got, want)
		}
	}
}
