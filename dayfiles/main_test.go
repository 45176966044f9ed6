package dayfiles

import (
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// childEnv names the role the test binary plays when a test re-executes it
// as a child process: "append" or "crashloop".
const childEnv = "DAYBOOK_DAYFILES_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "append":
		os.Exit(childAppend())
	case "crashloop":
		os.Exit(childCrashLoop())
	default:
		fmt.Fprintf(os.Stderr, "unknown %s=%q\n", childEnv, os.Getenv(childEnv))
		os.Exit(2)
	}
}

// childAppend appends DAYBOOK_N checked entries of writer DAYBOOK_P, one
// Append call each, to the day file of goldenDay under DAYBOOK_ROOT.
func childAppend() int {
	root, p := os.Getenv("DAYBOOK_ROOT"), os.Getenv("DAYBOOK_P")
	n, _ := strconv.Atoi(os.Getenv("DAYBOOK_N"))
	rng := rand.New(rand.NewPCG(uint64(len(p)), 7))
	for i := range n {
		if _, err := Append(root, time.UTC, checkedEntry(rng, p, i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// childCrashLoop appends batches of checked entries until it is killed,
// printing "ok" after the first batch so the parent knows it is writing.
func childCrashLoop() int {
	root := os.Getenv("DAYBOOK_ROOT")
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 11))
	for i := 0; ; i++ {
		batch := make([]NewEntry, 1+rng.IntN(4))
		for k := range batch {
			batch[k] = checkedEntry(rng, "c", i*10+k)
		}
		if _, err := AppendMany(root, time.UTC, batch); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i == 0 {
			fmt.Println("ok")
		}
	}
}

// checkedEntry returns an entry on goldenDay whose text ends in a CRC-32 of
// the rest, so that a reader can tell a whole entry from a torn one; its text
// starts with "w<writer>-<i> ".
func checkedEntry(rng *rand.Rand, writer string, i int) NewEntry {
	words := []string{"argon2", "lunch", "deploy", "review", "#ops", "bcrypt", "the", "a", "cache", "latency"}
	var b strings.Builder
	fmt.Fprintf(&b, "w%s-%d", writer, i)
	for range 3 + rng.IntN(40) {
		b.WriteString(" " + words[rng.IntN(len(words))])
	}
	if rng.IntN(4) == 0 {
		b.WriteString("\nsecond line")
	}
	body := b.String()
	return NewEntry{
		At:   goldenDay.At(rng.IntN(24), rng.IntN(60), time.UTC),
		Kind: Kinds[rng.IntN(len(Kinds))],
		Text: fmt.Sprintf("%s sum=%08x", body, crc32.ChecksumIEEE([]byte(body))),
	}
}

// verifyChecked parses the day file under root and checks that every entry
// is a whole checked entry and nothing else is in the file; it returns the
// entries' "w<writer>-<i>" keys and how often each occurs.
func verifyChecked(t *testing.T, root string) map[string]int {
	t.Helper()
	day, err := ParseFile(Path(root, goldenDay), goldenDay)
	if err != nil {
		t.Fatal(err)
	}
	if len(day.Notes) != 0 {
		t.Fatalf("the file holds %d notes, the first at line %d: %q", len(day.Notes), day.Notes[0].Line, day.Notes[0].Text)
	}
	seen := map[string]int{}
	for _, e := range day.Entries {
		i := strings.LastIndex(e.Text, " sum=")
		if i < 0 {
			t.Fatalf("line %d: entry without a checksum: %q", e.Line, e.Text)
		}
		body := e.Text[:i] // continuation lines come back dedented, as written
		if got := fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(body))); got != e.Text[i+5:] {
			t.Fatalf("line %d: torn entry, checksum %s of %q is not %s", e.Line, got, body, e.Text[i+5:])
		}
		key, _, _ := strings.Cut(e.Text, " ")
		seen[key]++
	}
	return seen
}
