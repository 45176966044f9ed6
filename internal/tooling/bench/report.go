package bench

import (
	"time"
)

// Report is one run of the benchmarks.
type Report struct {
	Command string    `json:"command"`
	Started time.Time `json:"started"`
	Machine Machine   `json:"machine"`
	Sizes   []Size    `json:"sizes"` // one per corpus size, smallest first
	Notes   []string  `json:"notes,omitempty"`
	Seconds float64   `json:"seconds"` // the whole run
}

// Machine describes where the figures were taken.
type Machine struct {
	CPU       string `json:"cpu"`
	CPUs      int    `json:"cpus"`
	MemoryMiB int64  `json:"memory_mib"`
	Go        string `json:"go"`
	OS        string `json:"os"`
	Load      string `json:"load,omitempty"` // /proc/loadavg at the start
}

// Proc is one child process: its wall time, CPU time and peak RSS.
type Proc struct {
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	PeakRSS    int64   `json:"peak_rss_bytes"` // rusage maxrss; 0 where the OS does not say
	// Minor page faults (rusage minflt; 0 where the OS does not say): most
	// of what a short command's start costs, and what a bigger binary adds.
	MinorFaults int64 `json:"minor_faults,omitempty"`
}

// Latency summarises repeated timings, in milliseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// Size is the figures of one corpus size.
type Size struct {
	Years   int    `json:"years"`
	Seed    uint64 `json:"seed"`
	Days    int    `json:"days"`
	Entries int    `json:"entries"`
	Lines   int    `json:"lines"`
	Bytes   int64  `json:"bytes"`  // of the day files
	Reused  bool   `json:"reused"` // the corpus came from the cache

	Backfill     Proc    `json:"backfill"`     // daybook consolidate on no summaries
	NoChange     Proc    `json:"no_change"`    // daybook consolidate again: nothing to do
	NoChangeMS   float64 `json:"no_change_ms"` // the run itself, as the command reports it
	Reindex      Proc    `json:"reindex"`      // daybook reindex
	IndexBytes   int64   `json:"index_bytes"`  // on disk after the reindex
	IndexDocs    int     `json:"index_docs"`
	BuildSeconds float64 `json:"build_seconds"` // backfill + reindex wall time

	RecallInProcess Latency `json:"recall_in_process"` // app.App.Recall in this process
	RecallSocket    Latency `json:"recall_socket"`     // api.Client.Recall to a daemon child
	RecallCLI       Latency `json:"recall_cli"`        // exec of "daybook recall" with the daemon up
	// "daybook --version" timed in turns with RecallCLI, and RecallCLI's p50 less
	// its: what recalling through a daemon adds to the program's start.
	StartDaemonUp      Latency `json:"start_daemon_up"`
	RecallCLILessStart float64 `json:"recall_cli_less_start_ms"`

	DaemonIdleRSS int64 `json:"daemon_idle_rss_bytes"` // VmRSS once settled after a first recall
	DaemonPeakRSS int64 `json:"daemon_peak_rss_bytes"` // VmHWM when it was stopped
	// VmRSS at rest after the socket's recalls (at least 100 of them),
	// once the daemon has had the time to give memory back.
	DaemonRecalledRSS int64 `json:"daemon_recalled_rss_bytes"`

	ScanPattern  string  `json:"scan_pattern"`
	ScanMatches  int     `json:"scan_matches"`
	Find         Latency `json:"find"`             // daybook find, exec, no daemon
	Grep         Latency `json:"grep"`             // grep -r -i -F
	Ripgrep      Latency `json:"ripgrep,omitzero"` // rg -i -F; N 0 when rg is not installed
	FindOverRg   float64 `json:"find_over_ripgrep,omitempty"`
	FindOverGrep float64 `json:"find_over_grep"`
	// The start of each program doing nothing, and find's time less its
	// start over ripgrep's less its: the scan's own share.
	FrontStart Latency `json:"front_start"`            // daybook --version: the front, which runs find itself with no daemon
	RgStart    Latency `json:"ripgrep_start,omitzero"` // rg --version
	ScanOverRg float64 `json:"scan_over_ripgrep,omitempty"`
	// A Go hello-world built by the same toolchain, and the front's start
	// (daybook --version)
	// start over its: what daybook adds to any Go program's start.
	Hello          Latency `json:"hello_start,omitzero"`
	StartOverHello float64 `json:"start_over_hello,omitempty"`
	// Medians of the same runs: the minor page faults of daybook --version and
	// of the hello-world. (Not their peak RSS: Linux carries this process's
	// high-water RSS into a child's maxrss at exec, since Go starts children
	// with CLONE_VM|CLONE_VFORK, and the open index makes it far larger than
	// a start's.)
	StartFaults int64 `json:"start_minor_faults,omitempty"`
	HelloFaults int64 `json:"hello_minor_faults,omitempty"`

	Seconds float64 `json:"seconds"` // this size, generation included
}
