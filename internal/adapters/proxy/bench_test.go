package proxy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/daybook/daybook"
	"github.com/daybook/daybook/dayfiles/date"
	"github.com/daybook/daybook/internal/adapters/proxy"
	"github.com/daybook/daybook/internal/app"
	"github.com/daybook/daybook/internal/config"
	"github.com/daybook/daybook/internal/models/ollama/ollamatest"
	"github.com/daybook/daybook/internal/tooling/gen"
)

// benchQuestions are the user turns the benchmarks send, in turn.
var benchQuestions = []string{
	"What did I decide about the keyboard shortcuts?",
	"When did I last see the dentist?",
	"Which hotel did I book for the trip?",
	"What is the plan for the garden this spring?",
	"Who did I meet about the budget review?",
	"How much is the rent on the flat?",
}

// benchRig is a proxy and a direct route to the same fake upstream, over a
// generated corpus: 5 years with DAYBOOK_LONG=1 (consolidated, as the
// daemon keeps it), else 1; or the one in $DAYBOOK_PROXY_CORPUS (made by
// daybook gen --seed 7 --end 2026-03-10).
type benchRig struct {
	up    *ollamatest.Server
	app   *app.App
	proxy *httptest.Server
	years int
	dir   string
}

func newBenchRig(b *testing.B) *benchRig {
	b.Helper()
	runtime.MemProfileRate = 0 // as daybook-core's main sets it
	if os.Getenv("DAYBOOK_PROXY_HEAP") != "" {
		runtime.MemProfileRate = 4096 // before anything is allocated: a finer sample for the profiles
	}
	years := 1
	if os.Getenv("DAYBOOK_LONG") != "" {
		years = 5
	}
	dir := os.Getenv("DAYBOOK_PROXY_CORPUS") // a corpus of gen's kept between runs (chat entries go into it)
	if dir == "" {
		dir = b.TempDir()
		if _, err := gen.Write(dir, gen.Options{Years: years, Seed: 7, End: date.MustParse("2026-03-10")}); err != nil {
			b.Fatal(err)
		}
	}
	cfg := config.Default()
	cfg.Timezone = "UTC"
	if err := cfg.Validate(); err != nil {
		b.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 3, 11, 12, 0, 0, 0, time.UTC) }
	a := app.NewWith(dir, cfg, nil, app.Options{BackgroundCatchUp: true, Now: now}) // as the daemon runs it
	b.Cleanup(func() { a.Close() })
	ctx := context.Background()
	if _, err := a.Consolidate(ctx, daybook.ConsolidateRequest{}); err != nil {
		b.Fatal(err)
	}
	if _, err := a.Context(ctx, daybook.ContextRequest{Query: "warm the index"}); err != nil {
		b.Fatal(err)
	}
	up := ollamatest.New(b, "llama3.2")
	p, err := proxy.New(a, proxy.Options{Upstream: up.URL, Budget: config.Default().Proxy.Budget, StateDir: filepath.Join(dir, "state", "proxy"), Now: now})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(p)
	b.Cleanup(srv.Close)
	return &benchRig{up: up, app: a, proxy: srv, years: years, dir: dir}
}

// stream posts a streaming chat to base and returns when the first line
// arrived and the gaps between the lines after it.
func stream(b *testing.B, client *http.Client, base, question string, conv int, header ...string) (first time.Duration, gaps []time.Duration) {
	data, _ := json.Marshal(api.ChatRequest{Model: "llama3.2", Messages: []api.Message{{Role: "user", Content: question}}})
	req, _ := http.NewRequest(http.MethodPost, base+"/api/chat", bytes.NewReader(data))
	req.Header.Set(proxy.HeaderConversation, "bench-"+strconv.Itoa(conv))
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	last := time.Time{}
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			now := time.Now()
			if last.IsZero() {
				first = now.Sub(start)
			} else {
				gaps = append(gaps, now.Sub(last))
			}
			last = now
		}
		if err != nil {
			break
		}
	}
	if resp.StatusCode != 200 {
		b.Fatalf("status %d", resp.StatusCode)
	}
	return first, gaps
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkFirstByteAndChunks times, in one run and in turn, the first
// streamed byte and the gaps between chunks of the same chat sent to the
// fake upstream directly and through the proxy (context block for the
// question within the default budget, tools offered, turns remembered):
// added-p50-ms is the proxy's p50 less the direct p50; chunk-added-p99-ms
// the same for the gaps between chunks.
//
//	DAYBOOK_LONG=1 go test ./internal/adapters/proxy -run '^$' -bench FirstByte -benchtime 200x
func BenchmarkFirstByteAndChunks(b *testing.B) {
	r := newBenchRig(b)
	reply := strings.TrimSpace(strings.Repeat("a word or three ", 150)) // 200 chunks
	r.up.Reply(reply)
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	var direct, proxied, dGaps, pGaps, ctxs []time.Duration
	i := 0
	for b.Loop() {
		q := benchQuestions[i%len(benchQuestions)]
		d, dg := stream(b, client, r.up.URL, q, i)
		p, pg := stream(b, client, r.proxy.URL, q, i)
		start := time.Now()
		if _, err := r.app.Context(context.Background(), daybook.ContextRequest{Query: q, Budget: config.Default().Proxy.Budget}); err != nil {
			b.Fatal(err)
		}
		ctxs = append(ctxs, time.Since(start))
		direct, proxied = append(direct, d), append(proxied, p)
		dGaps, pGaps = append(dGaps, dg...), append(pGaps, pg...)
		i++
	}
	b.StopTimer()
	// The CPU each costs, which a loaded machine does not inflate as it
	// does the times above: n of each in turn, by getrusage.
	n := max(20, min(len(direct), 100))
	phase := func(fn func(q string, i int)) time.Duration {
		t0 := cpuTime()
		for i := range n {
			fn(benchQuestions[i%len(benchQuestions)], 100000+i)
		}
		return (cpuTime() - t0) / time.Duration(n)
	}
	directCPU := phase(func(q string, i int) { stream(b, client, r.up.URL, q, i) })
	proxyCPU := phase(func(q string, i int) { stream(b, client, r.proxy.URL, q, i) })
	readCPU := phase(func(q string, i int) { stream(b, client, r.proxy.URL, q, i, proxy.HeaderMemory, "read") })
	ctxCPU := phase(func(q string, _ int) {
		r.app.Context(context.Background(), daybook.ContextRequest{Query: q, Budget: config.Default().Proxy.Budget})
	})
	b.ReportMetric(ms(directCPU), "direct-cpu-ms")
	b.ReportMetric(ms(proxyCPU), "proxy-cpu-ms")
	b.ReportMetric(ms(ctxCPU), "context-cpu-ms")
	b.ReportMetric(ms(proxyCPU-directCPU-ctxCPU), "proxy-own-cpu-ms")    // forwarding, tools, remembering the turn
	b.ReportMetric(ms(readCPU-directCPU-ctxCPU), "proxy-forward-cpu-ms") // the same without remembering: the first byte's share
	b.ReportMetric(float64(r.years), "years")
	b.ReportMetric(ms(pct(direct, 0.5)), "direct-p50-ms")
	b.ReportMetric(ms(pct(proxied, 0.5)), "proxy-p50-ms")
	b.ReportMetric(ms(pct(proxied, 0.5)-pct(direct, 0.5)), "added-p50-ms")
	b.ReportMetric(ms(pct(ctxs, 0.5)), "context-p50-ms") // app.Context alone, the same question
	b.ReportMetric(ms(pct(dGaps, 0.99)), "chunk-direct-p99-ms")
	b.ReportMetric(ms(pct(pGaps, 0.99)), "chunk-proxy-p99-ms")
	b.ReportMetric(ms(pct(pGaps, 0.99)-pct(dGaps, 0.99)), "chunk-added-p99-ms")
}

// BenchmarkConcurrentChats runs 20 streaming conversations at once through
// the proxy for DAYBOOK_PROXY_SECONDS (default 3; 60 for the report), then
// checks that every turn is in the day files once, and reports the RSS
// growth from after a warm-up to the end.
//
//	DAYBOOK_LONG=1 DAYBOOK_PROXY_SECONDS=60 go test ./internal/adapters/proxy -run '^$' -bench ConcurrentChats -benchtime 1x
func BenchmarkConcurrentChats(b *testing.B) {
	r := newBenchRig(b)
	r.up.Forget() // the fake upstream's record of the requests is not the proxy's memory
	r.up.OnChat(func(n int, req *api.ChatRequest) ollamatest.ChatReply {
		last := req.Messages[len(req.Messages)-1].Content
		return ollamatest.ChatReply{Content: "Answer to " + last + ": " + strings.Repeat("and so on ", 20)}
	})
	secs := 3
	if s, err := strconv.Atoi(os.Getenv("DAYBOOK_PROXY_SECONDS")); err == nil && s > 0 {
		secs = s
	}
	run := 0
	for b.Loop() {
		run++
		tag := fmt.Sprintf("(run %d ", run)
		client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		// warm-up: one turn per conversation
		stream(b, client, r.proxy.URL, "warm up", -1)
		giveBack := func() {
			r.app.IndexWaiting()                           // the turns' index batch, not a measurement's chance
			settled(b, filepath.Join(r.dir, app.IndexDir)) // and bleve's merges of it
			debug.FreeOSMemory()
			r.app.DropIndexPages() // as the daemon does every 30 s
		}
		giveBack()
		rss0, heap0, live0, anon0 := vmRSS(), heapInUse(), heapLive(), procStatus("RssAnon:")
		classes0 := memoryClasses()
		if path := os.Getenv("DAYBOOK_PROXY_HEAP"); path != "" {
			writeHeapProfile(b, path+".start") // go tool pprof -diff_base FILE.start FILE
		}
		var sent atomic.Int64
		deadline := time.Now().Add(time.Duration(secs) * time.Second)
		var wg sync.WaitGroup
		for c := range 20 {
			wg.Go(func() {
				u, _ := url.Parse(r.proxy.URL)
				cl := api.NewClient(u, client)
				var hist []api.Message
				for t := 0; time.Now().Before(deadline); t++ {
					hist = append(hist, api.Message{Role: "user", Content: fmt.Sprintf("%s %sconv %d turn %d)", benchQuestions[t%len(benchQuestions)], tag, c, t)})
					if len(hist) > 12 { // a client keeps a window of the history
						hist = hist[len(hist)-11:]
					}
					var reply strings.Builder
					if err := cl.Chat(context.Background(), &api.ChatRequest{Model: "llama3.2", Messages: hist},
						func(cr api.ChatResponse) error { reply.WriteString(cr.Message.Content); return nil }); err != nil {
						b.Error(err)
						return
					}
					sent.Add(1)
					hist = append(hist, api.Message{Role: "assistant", Content: reply.String()})
				}
			})
		}
		wg.Wait()
		peak := vmHWM()
		giveBack()
		rss1, heap1, live1, anon1 := vmRSS(), heapInUse(), heapLive(), procStatus("RssAnon:")
		for _, c := range slices.Sorted(maps.Keys(classes0)) { // where the runtime's part of the growth is
			if d := int64(memoryClasses()[c]) - int64(classes0[c]); d > 256<<10 || d < -256<<10 {
				b.Logf("%s %+.1f MiB", c, float64(d)/(1<<20))
			}
		}
		if path := os.Getenv("DAYBOOK_PROXY_HEAP"); path != "" { // what the growth is, for pprof
			writeHeapProfile(b, path)
		}
		count := map[string]int{}
		for _, e := range chatEntriesIn(b, r.dir) {
			if strings.Contains(e.Text, tag) {
				count[e.Text]++
			}
		}
		doubled := 0
		for _, n := range count {
			if n > 1 {
				doubled++
			}
		}
		lost := int(sent.Load())*2 - len(count)
		b.ReportMetric(float64(sent.Load()), "turns")
		b.ReportMetric(float64(lost), "lost")
		b.ReportMetric(float64(doubled), "doubled")
		b.ReportMetric(float64(rss1-rss0)/(1<<20), "rss-growth-MiB")
		b.ReportMetric(float64(heap1-heap0)/(1<<20), "heap-growth-MiB")
		b.ReportMetric(float64(live1-live0)/(1<<20), "live-growth-MiB")     // the heap's live objects
		b.ReportMetric(float64(anon1-anon0)/(1<<20), "anon-rss-growth-MiB") // the rest of the RSS growth is the index's files' pages
		b.ReportMetric(float64(peak-rss0)/(1<<20), "peak-over-start-MiB")
		b.ReportMetric(float64(secs), "seconds")
		if lost != 0 || doubled != 0 {
			b.Errorf("%d turns lost, %d doubled", lost, doubled)
		}
	}
}

// heapInUse returns the bytes of the Go heap's spans in use.
func heapInUse() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// settled waits until the files under dir (the index's) have not changed
// for a second: bleve merges and persists in the background after a batch,
// and what that holds meanwhile is not what the chats left. At most 30 s.
func settled(b *testing.B, dir string) {
	b.Helper()
	listing := func() string {
		var sb strings.Builder
		filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if fi, err := d.Info(); err == nil {
					fmt.Fprintf(&sb, "%s %d %d\n", path, fi.Size(), fi.ModTime().UnixNano())
				}
			}
			return nil
		})
		return sb.String()
	}
	prev, since := listing(), time.Now()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond) // polling the condition
		cur := listing()
		if cur != prev {
			prev, since = cur, time.Now()
		} else if time.Since(since) >= time.Second {
			return
		}
	}
	b.Logf("the index's files were still changing after 30 s")
}

// memoryClasses returns the runtime's /memory/classes/ metrics, in bytes.
func memoryClasses() map[string]uint64 {
	var samples []metrics.Sample
	for _, d := range metrics.All() {
		if strings.HasPrefix(d.Name, "/memory/classes/") && d.Kind == metrics.KindUint64 {
			samples = append(samples, metrics.Sample{Name: d.Name})
		}
	}
	metrics.Read(samples)
	out := map[string]uint64{}
	for _, s := range samples {
		out[s.Name] = s.Value.Uint64()
	}
	return out
}

// heapLive returns the bytes of the Go heap's live objects after the last
// collection.
func heapLive() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// writeHeapProfile writes the heap's live objects to path.
func writeHeapProfile(b *testing.B, path string) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Fatal(err)
	}
}

// vmRSS returns the process's resident set in bytes (Linux), else 0.
func vmRSS() int64 { return procStatus("VmRSS:") }

// vmHWM returns the process's peak resident set in bytes (Linux), else 0.
func vmHWM() int64 { return procStatus("VmHWM:") }

func procStatus(key string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, key); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
