package serve

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	rtmetrics "runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The server's metrics, written in the Prometheus text format (0.0.4) by
// the few lines below rather than by client_golang: that library, its
// protobuf model and procfs cost every `bashbox run` (the same binary)
// about a millisecond of package initialisation, and the lighter
// libraries read cgroup and PSI files at init. Nothing here runs before
// `serve` makes a server.
type metrics struct {
	runs      *family
	duration  *family
	trips     *family
	fallbacks *family
	inFlight  *series
	queued    *series

	storeSeconds *family
	storeErrors  *family
	stateBytes   *series

	all     []*family
	started time.Time
}

func newMetrics() *metrics {
	m := &metrics{started: time.Now()}
	m.runs = m.add("bashbox_runs_total", "counter", "Runs by profile and outcome (ok, error, budget, refused).", nil, "profile", "outcome")
	m.duration = m.add("bashbox_run_duration_seconds", "histogram", "Wall time of runs.", exponentialBuckets(0.001, 4, 10), "profile")
	m.trips = m.add("bashbox_budget_trips_total", "counter", "Runs stopped by a budget, by budget.", nil, "budget")
	m.fallbacks = m.add("bashbox_fallback_calls_total", "counter", "Fallback host commands run.", nil, "profile", "command")
	m.inFlight = m.add("bashbox_runs_in_flight", "gauge", "Runs executing now.", nil).WithLabelValues()
	m.queued = m.add("bashbox_runs_queued", "gauge", "Runs waiting for a slot.", nil).WithLabelValues()
	m.storeSeconds = m.add("bashbox_session_store_seconds", "histogram",
		"Session store operations (load, save, create, ...; snapshot and restore are the local encoding), by operation.", exponentialBuckets(0.0005, 4, 10), "op")
	m.storeErrors = m.add("bashbox_session_store_errors_total", "counter", "Session store operations that failed, by operation.", nil, "op")
	m.stateBytes = m.add("bashbox_session_state_bytes", "histogram", "Size of saved session states.", exponentialBuckets(1024, 4, 10)).WithLabelValues()
	return m
}

func (m *metrics) add(name, typ, help string, buckets []float64, labels ...string) *family {
	f := &family{name: name, typ: typ, help: help, labels: labels, buckets: buckets, series: map[string]*series{}}
	m.all = append(m.all, f)
	return f
}

// handler serves the metrics in the text format.
func (m *metrics) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		bw := bufio.NewWriter(w)
		m.write(bw)
		bw.Flush()
	})
}

func (m *metrics) write(w io.Writer) {
	for _, f := range m.all {
		f.write(w)
	}
	writeRuntime(w, m.started)
}

// family is one metric name with its labelled series.
type family struct {
	name, typ, help string
	labels          []string
	buckets         []float64 // histograms' upper bounds, ascending
	mu              sync.Mutex
	series          map[string]*series // by label values joined with \xff
}

// series is one labelled counter, gauge or histogram. Counters and gauges
// use val; histograms count per bucket and keep the sum under mu.
type series struct {
	f      *family
	labels string // rendered `k="v",...`, sorted by label name
	val    atomic.Int64
	mu     sync.Mutex
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
}

// WithLabelValues is the series for these values of the family's labels,
// in the order the family declared them.
func (f *family) WithLabelValues(values ...string) *series {
	if len(values) != len(f.labels) {
		panic(fmt.Sprintf("metric %s: %d label values for %d labels", f.name, len(values), len(f.labels)))
	}
	key := strings.Join(values, "\xff")
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.series[key]; ok {
		return s
	}
	order := make([]int, len(f.labels))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(f.labels[a], f.labels[b]) })
	var b strings.Builder
	for n, i := range order {
		if n > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=\"%s\"", f.labels[i], labelEscaper.Replace(values[i]))
	}
	s := &series{f: f, labels: b.String()}
	if f.typ == "histogram" {
		s.counts = make([]uint64, len(f.buckets)+1)
	}
	f.series[key] = s
	return s
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func (s *series) Inc() { s.val.Add(1) }
func (s *series) Dec() { s.val.Add(-1) }

// Observe counts v in its histogram bucket.
func (s *series) Observe(v float64) {
	i, _ := slices.BinarySearch(s.f.buckets, v) // le: v == bound falls in that bucket
	s.mu.Lock()
	s.counts[i]++
	s.sum += v
	s.mu.Unlock()
}

func (f *family) write(w io.Writer) {
	f.mu.Lock()
	keys := make([]string, 0, len(f.series))
	for k := range f.series {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ss := make([]*series, len(keys))
	for i, k := range keys {
		ss[i] = f.series[k]
	}
	f.mu.Unlock()
	if len(ss) == 0 && len(f.labels) > 0 {
		return // as client_golang: a labelled family appears once used
	}
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", f.name, strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(f.help), f.name, f.typ)
	for _, s := range ss {
		if f.typ != "histogram" {
			fmt.Fprintf(w, "%s%s %d\n", f.name, braces(s.labels), s.val.Load())
			continue
		}
		s.mu.Lock()
		counts, sum := slices.Clone(s.counts), s.sum
		s.mu.Unlock()
		sep := ""
		if s.labels != "" {
			sep = ","
		}
		var cum uint64
		for i, n := range counts {
			cum += n
			le := "+Inf"
			if i < len(f.buckets) {
				le = formatFloat(f.buckets[i])
			}
			fmt.Fprintf(w, "%s_bucket{%s%sle=\"%s\"} %d\n", f.name, s.labels, sep, le, cum)
		}
		fmt.Fprintf(w, "%s_sum%s %s\n%s_count%s %d\n", f.name, braces(s.labels), formatFloat(sum), f.name, braces(s.labels), cum)
	}
}

func braces(labels string) string {
	if labels == "" {
		return ""
	}
	return "{" + labels + "}"
}

func formatFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func exponentialBuckets(start, factor float64, n int) []float64 {
	b := make([]float64, n)
	for i := range b {
		b[i] = start * math.Pow(factor, float64(i))
	}
	return b
}

// writeRuntime adds the Go runtime's and the process's figures an operator
// reads beside the server's own: goroutines, heap, GC, CPU, RSS, fds.
func writeRuntime(w io.Writer, started time.Time) {
	samples := []rtmetrics.Sample{
		{Name: "/sched/goroutines:goroutines"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
	}
	rtmetrics.Read(samples)
	value := func(s rtmetrics.Sample) float64 {
		switch s.Value.Kind() {
		case rtmetrics.KindUint64:
			return float64(s.Value.Uint64())
		case rtmetrics.KindFloat64:
			return s.Value.Float64()
		}
		return 0
	}
	gauge := func(name, typ, help string, v float64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, typ, name, formatFloat(v))
	}
	gauge("go_goroutines", "gauge", "Goroutines that currently exist.", value(samples[0]))
	gauge("go_memstats_heap_alloc_bytes", "gauge", "Bytes of allocated heap objects.", value(samples[1]))
	gauge("go_memstats_sys_bytes", "gauge", "Bytes of memory obtained from the OS.", value(samples[2]))
	gauge("go_gc_cycles_total", "counter", "Completed GC cycles.", value(samples[3]))
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		gauge("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", cpu.Seconds())
	}
	if rss, ok := residentBytes(); ok {
		gauge("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", float64(rss))
	}
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		gauge("process_open_fds", "gauge", "Number of open file descriptors.", float64(len(ents)))
	}
	gauge("process_start_time_seconds", "gauge", "Start time of the server since the Unix epoch in seconds.", float64(started.Unix()))
}

// residentBytes is the process's resident set from /proc/self/statm.
func residentBytes() (int64, bool) {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
