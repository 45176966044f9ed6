package reliability

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir and returns its combined output and error.
func git(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	c := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main",
		"-c", "pull.rebase=false", "-c", "commit.gpgsign=false"}, args...)...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_TERMINAL_PROMPT=0")
	out, err := c.CombinedOutput()
	return string(out), err
}

func mustGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := git(t, dir, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// gitPair returns two rigs whose days/ are in git, B cloned from A, with a
// daemon on each.
func gitPair(t *testing.T, driver bool) (a, b *rig, da, db *proc) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	a, b = newRig(t, mergeConfig), newRig(t, mergeConfig)
	a.rememberAt("08:00", "written before the clone")
	ignore := "/*\n!/days/\n!/.gitignore\n!/.gitattributes\n"
	if err := os.WriteFile(filepath.Join(a.dir, ".gitignore"), []byte(ignore), 0o644); err != nil {
		t.Fatal(err)
	}
	mustGit(t, a.dir, "init", "-q")
	mustGit(t, a.dir, "add", "-A")
	mustGit(t, a.dir, "commit", "-qm", "start")
	os.RemoveAll(b.dir)
	mustGit(t, filepath.Dir(b.dir), "clone", "-q", a.dir, b.dir)
	if driver {
		if err := os.WriteFile(filepath.Join(b.dir, ".gitattributes"), []byte("days/**/*.md merge=daybook\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		mustGit(t, b.dir, "config", "merge.daybook.driver", b.bin+" merge-driver %O %A %B %P")
		mustGit(t, b.dir, "add", ".gitattributes")
		mustGit(t, b.dir, "commit", "-qm", "the driver")
	}
	return a, b, a.startDaemon(), b.startDaemon()
}

// commitDays commits what changed in days/.
func commitDays(t testing.TB, r *rig, msg string) {
	t.Helper()
	mustGit(t, r.dir, "add", "-A", "days")
	mustGit(t, r.dir, "commit", "-qm", msg)
}

// TestGitPullWithMergeDriver: with daybook's merge driver, pulling a day
// both sides appended to merges cleanly, every entry once, and nothing
// daybook rewrites on a timer is in days/ to conflict.
func TestGitPullWithMergeDriver(t *testing.T) {
	a, b, da, db := gitPair(t, true)
	a.rememberAt("10:00", "from A after the clone")
	b.rememberAt("10:00", "from B after the clone")
	commitDays(t, a, "a")
	commitDays(t, b, "b")
	if out, err := git(t, b.dir, "pull", "-q", "--no-edit", "origin", "main"); err != nil {
		t.Fatalf("git pull with the driver: %v\n%s", err, out)
	}
	if st := mustGit(t, b.dir, "status", "--porcelain"); strings.TrimSpace(st) != "" {
		t.Errorf("after the pull, git status is not clean:\n%s", st)
	}
	b.barrier(1)
	tally(t, b.dir, map[string]int{"written before the clone": 1, "from A after the clone": 1, "from B after the clone": 1, "barrier 1": 1})
	_ = da
	_ = db
}

// TestGitPullConflictMarkers: without the driver, the pull leaves conflict
// markers in the day. They are never content: doctor and status report
// the day, recall does not find the markers, a new entry waits in
// state/pending and joins the day once the conflict is resolved.
func TestGitPullConflictMarkers(t *testing.T) {
	a, b, _, db := gitPair(t, false)
	a.rememberAt("10:00", "from A after the clone")
	b.rememberAt("10:00", "from B after the clone")
	commitDays(t, a, "a")
	commitDays(t, b, "b")
	if out, err := git(t, b.dir, "pull", "-q", "--no-edit", "origin", "main"); err == nil {
		t.Fatalf("git pull merged without a driver:\n%s", out)
	}
	if !strings.Contains(readFile(t, b.dayFile()), "<<<<<<<") {
		t.Fatalf("no conflict markers:\n%s", readFile(t, b.dayFile()))
	}
	out, _ := b.daybook("doctor")
	if !strings.Contains(out, "conflict markers") {
		t.Errorf("doctor does not report the conflict:\n%s", out)
	}
	st, err := b.status()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Conflicted) != 1 {
		t.Errorf("status names conflicted days %q, want the one", st.Conflicted)
	}
	out = b.must("remember", "--at", mergeDay+" 11:00", "written while the day is in conflict")
	if !strings.HasPrefix(out, "state/pending/") {
		t.Errorf("remember wrote to %s, want state/pending/", out)
	}
	if strings.Contains(readFile(t, b.dayFile()), "while the day is in conflict") {
		t.Errorf("the entry went into the conflicted file")
	}
	for _, q := range []string{"=======", "HEAD"} {
		// find names the day it skipped for its markers and exits 1.
		out, err := b.daybook("find", q)
		if strings.Contains(out, "=======") || strings.Contains(out, "<<<<<<<") {
			t.Errorf("find %q shows conflict markers:\n%s", q, out)
		}
		if err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(mergeDay, "-", "/")+".md") {
			t.Errorf("find %q does not say it skipped the conflicted day: %v", q, err)
		}
	}
	if out := b.must("recall", "after the clone HEAD"); strings.Contains(out, "=======") || strings.Contains(out, "<<<<<<<") {
		t.Errorf("recall shows conflict markers:\n%s", out)
	}
	// Once the daemon redid the summaries of what changed (barrier), the
	// conflicted day's summary holds no marker either.
	b.barrier(0)
	if sum, err := os.ReadFile(filepath.Join(b.dir, "summaries", "2026", "11", "24.md")); err == nil &&
		(strings.Contains(string(sum), "=======") || strings.Contains(string(sum), "<<<<<<<")) {
		t.Errorf("the day's summary holds conflict markers:\n%s", sum)
	}
	// The person resolves the conflict by keeping both sides.
	var kept []string
	for _, l := range strings.SplitAfter(readFile(t, b.dayFile()), "\n") {
		if !strings.HasPrefix(l, "<<<<<<<") && !strings.HasPrefix(l, "=======") && !strings.HasPrefix(l, ">>>>>>>") {
			kept = append(kept, l)
		}
	}
	saveByRename(t, b.dayFile(), strings.Join(kept, ""))
	commitDays(t, b, "resolved")
	waitText(t, b.dayFile(), "while the day is in conflict")
	b.barrier(1)
	tally(t, b.dir, map[string]int{"written before the clone": 1, "from A after the clone": 1, "from B after the clone": 1,
		"written while the day is in conflict": 1, "barrier 0": 1, "barrier 1": 1})
	st, err = b.status()
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Conflicted) != 0 {
		t.Errorf("status still names conflicted days: %q\n%s", st.Conflicted, db.logText())
	}
}
