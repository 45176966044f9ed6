package dayfiles

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestAppendProcesses runs 8 processes that each append 500 entries to the
// same day file at once; every entry must be there exactly once.
func TestAppendProcesses(t *testing.T) {
	procs, per := 8, 500
	if testing.Short() {
		per = 100
	}
	root := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan error, procs)
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=append", "DAYBOOK_ROOT="+root,
			"DAYBOOK_P="+strconv.Itoa(p), "DAYBOOK_N="+strconv.Itoa(per))
		wg.Go(func() {
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("writer %d: %v: %s", p, err, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkAllOnce(t, verifyChecked(t, root), procs, per)
}

// TestAppendGoroutines is TestAppendProcesses within one process.
func TestAppendGoroutines(t *testing.T) {
	writers, per := 8, 100
	root := t.TempDir()
	var wg sync.WaitGroup
	for p := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(p), 3))
			for i := range per {
				if _, err := Append(root, time.UTC, checkedEntry(rng, strconv.Itoa(p), i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkAllOnce(t, verifyChecked(t, root), writers, per)
}

func checkAllOnce(t *testing.T, seen map[string]int, writers, per int) {
	t.Helper()
	if len(seen) != writers*per {
		t.Errorf("%d distinct entries, want %d", len(seen), writers*per)
	}
	for p := range writers {
		for i := range per {
			if n := seen[fmt.Sprintf("w%d-%d", p, i)]; n != 1 {
				t.Errorf("entry w%d-%d is there %d times", p, i, n)
			}
		}
	}
}

// TestAppendCrash kills a child that appends batches in a loop at a random
// moment, many times over, and checks that the file parses and holds only
// whole entries each time.
func TestAppendCrash(t *testing.T) {
	rounds := 20
	root := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	total := 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=crashloop", "DAYBOOK_ROOT="+root)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ok\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("round %d: child said %q, %v", round, line, err)
		}
		time.Sleep(time.Duration(rng.IntN(30_000)) * time.Microsecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		seen := verifyChecked(t, root)
		n := 0
		for _, c := range seen {
			n += c
		}
		if n <= total {
			t.Fatalf("round %d: %d entries, no more than the %d before", round, n, total)
		}
		total = n
	}
	t.Logf("%d rounds, %d whole entries", rounds, total)
}
