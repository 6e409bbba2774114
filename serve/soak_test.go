package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bashbox/bashbox/config"
)

// The soak runs normal clients (searches over this repository, jq, sed,
// sessions) throughout, and hostile clients of another profile in
// windows between quiet ones (the baseline), and checks that the normal
// ones never fail and keep their p99 within twice the baseline's, that
// the process stays under its memory limit, and that goroutines,
// descriptors and CPU come back to their baseline once traffic stops.
// make test runs it for 10 s under the race detector, which judges every
// pass condition but the p99 (see raceDetector); make soak runs it for
// 60 s (BASHBOX_SOAK_SECONDS) without, and so does go test ./serve for
// 10 s, judging them all. The p99s are judged on enough runs in
// each kind of window to be stable (soakMinRuns; the run goes on, up to
// three times its length, until it has them), and the windows are short
// and alternate, so that both see the same load from other processes on
// a shared machine.

const soakMaxMemory = 2 << 30

// soakMinRuns is how many normal runs each kind of window needs before
// its p99 is judged: the p99 then rests on at least 5 runs above it.
const soakMinRuns = 500

// soakWindow is the length of each quiet and hostile window.
const soakWindow = 1500 * time.Millisecond

func soakConfig(t *testing.T) *config.File {
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	yml := fmt.Sprintf(`
server:
  max_concurrent: 6
  max_queue: 32
  max_request_bytes: 1048576
  max_memory: %d
volumes:
  repo: {host: %s, guest: /work, mode: ro}
  scratch: {host: %s, guest: /scratch, mode: rw}
profiles:
  normal:
    volumes: [repo]
    token: normal-token
    sessions: {max: 8}
  hostile:
    volumes: [repo, scratch]
    token: hostile-token
    max_concurrent: 1
    rate: 50
    burst: 10
    sessions: {max: 2}
    limits:
      timeout: 1s
      max_memory: 64MiB
      max_output: 1MiB
      max_write_bytes: 32MiB
      max_write_files: 1000
`, soakMaxMemory, repo, scratch)
	cfg, err := config.Parse("soak.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// normalCalls are an agent's everyday requests, with a check of each
// answer.
var normalCalls = []struct{ script, want string }{
	{`grep -rn 'func New' --include='*.go' serve config | wc -l`, "\n"},
	{`find . -name '*.go' -path './serve/*' | sort | head -3`, "./serve/"},
	{`echo '{"a":[1,2,3],"b":{"c":"x"}}' | jq -c '[(.a | add), .b.c]'`, `[6,"x"]`},
	{`sed -n 's/^module //p' go.mod`, "github.com/bashbox/bashbox\n"},
	{`grep -c '' README.md THREAT_MODEL.md | sed 's/:.*//' | sort -u`, "README.md\nTHREAT_MODEL.md\n"},
	{`cat go.mod | awk '/^require/ {n++} END {print (n > 0)}'`, "1\n"},
}

// hostileCalls each try to hurt the server or the other tenants.
var hostileCalls = []string{
	`f() { f; }; f`,
	`e='eval "$e"'; eval "$e"`,
	`echo 'source /tmp/s' > /tmp/s; source /tmp/s`,
	`f() { (f); }; f`,
	`x=a; while :; do x=$x$x; done`,
	`sort /dev/zero`,
	`yes | sed -n 'H; $p'`,
	`yes`,
	`cat /dev/zero > /scratch/flood.bin`,
	`i=0; while :; do : > /scratch/f$i; i=$((i+1)); done`,
	`while :; do :; done`,
	`yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa! | grep -P '^(a+)+$'`,
	`yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa | sed -E 's/^(a|aa)+\1\1b/x/'`,
	`for i in $(seq 200); do sleep 5 & done; wait`,
	`echo {1..300}{1..300}{1..30} | wc -c`,
	`cat /dev/zero | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | cat | tr '\0' a | head -c 100000000 | wc -c`,
	`:(){ :|:& };:`,
	`head -c 100000000 /dev/zero | gzip > /tmp/b.gz; x=$(zcat /tmp/b.gz | tr '\0' a)`,
	`grep -r . / > /dev/null`,
}

// Soak phases: quiet windows (no hostile request in flight), the drain
// before one, and hostile windows. Quiet and hostile windows alternate
// through the run, so that the baseline and the mixed figures share the
// machine's load of the moment (other processes on a shared machine move
// latencies by more than the 2x bound from one minute to the next).
const (
	phaseQuiet int32 = iota
	phaseDrain
	phaseHostile
)

type soakStats struct {
	mu      sync.Mutex
	quiet   []time.Duration // latencies of normal runs in quiet windows
	lat     []time.Duration // and in hostile windows
	failed  []string
	codes   map[int]int
	noRetry int // 429 answers without Retry-After
	normals atomic.Int64

	phase   atomic.Int32
	hostile atomic.Int64 // hostile requests in flight
}

func (st *soakStats) fail(format string, args ...any) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.failed) < 20 {
		st.failed = append(st.failed, fmt.Sprintf(format, args...))
	}
}

func p99(lat []time.Duration) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[(len(s)-1)*99/100]
}

func soakPost(ctx context.Context, client *http.Client, url, token string, body []byte) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, "POST", url+"/v1/run", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	return client.Do(req)
}

// normalClient runs normal calls until stop, every fourth in a session.
func normalClient(client *http.Client, url string, stop <-chan struct{}, st *soakStats, id int) {
	session := ""
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		default:
		}
		call := normalCalls[(n+id)%len(normalCalls)]
		req := map[string]any{"script": call.script}
		if n%4 == 3 {
			if session == "" {
				req["session"] = "new"
			} else {
				req["session"] = session
			}
		}
		body, _ := json.Marshal(req)
		phase := st.phase.Load()
		start := time.Now()
		resp, err := soakPost(context.Background(), client, url, "normal-token", body)
		if err != nil {
			st.fail("normal %q: %v", call.script, err)
			continue
		}
		var out struct {
			Stdout   string `json:"stdout"`
			Stderr   string `json:"stderr"`
			ExitCode int    `json:"exit_code"`
			Session  string `json:"session"`
		}
		json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		d := time.Since(start)
		if resp.StatusCode != 200 || out.ExitCode != 0 || !strings.Contains(out.Stdout, call.want) {
			st.fail("normal %q: HTTP %d, exit %d, stdout %q, stderr %q", call.script, resp.StatusCode, out.ExitCode, out.Stdout, out.Stderr)
			continue
		}
		if out.Session != "" {
			session = out.Session
		}
		st.mu.Lock()
		switch {
		case phase != st.phase.Load():
		case phase == phaseQuiet:
			st.quiet = append(st.quiet, d)
		case phase == phaseHostile:
			st.lat = append(st.lat, d)
		}
		st.mu.Unlock()
		st.normals.Add(1)
	}
}

// hostileClient cycles through the attacks, plus oversize bodies, slow
// readers and clients that disconnect mid-run.
func hostileClient(client *http.Client, url string, stop <-chan struct{}, st *soakStats, id int) {
	huge := append(append([]byte(`{"script": "`), bytes.Repeat([]byte("a"), 2<<20)...), `"}`...)
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		default:
		}
		if st.phase.Load() != phaseHostile {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		st.hostile.Add(1)
		hostileRequest(client, url, st, n+id, huge)
		st.hostile.Add(-1)
	}
}

func hostileRequest(client *http.Client, url string, st *soakStats, n int, huge []byte) {
	{
		var resp *http.Response
		var err error
		switch k := n % (len(hostileCalls) + 3); {
		case k < len(hostileCalls):
			body, _ := json.Marshal(map[string]any{"script": hostileCalls[k]})
			resp, err = soakPost(context.Background(), client, url, "hostile-token", body)
		case k == len(hostileCalls):
			resp, err = soakPost(context.Background(), client, url, "hostile-token", huge)
		case k == len(hostileCalls)+1:
			ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
			resp, err = soakPost(ctx, client, url, "hostile-token", []byte(`{"script": "while :; do :; done"}`))
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			cancel()
			return
		default: // a slow reader of a large answer
			resp, err = soakPost(context.Background(), client, url, "hostile-token", []byte(`{"script": "head -c 900000 /dev/zero | tr '\\0' a"}`))
			if err == nil {
				buf := make([]byte, 4096)
				for i := 0; i < 50; i++ {
					if _, err := resp.Body.Read(buf); err != nil {
						break
					}
					time.Sleep(2 * time.Millisecond)
				}
			}
		}
		if err != nil {
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		st.mu.Lock()
		st.codes[resp.StatusCode]++
		if resp.StatusCode == 429 && resp.Header.Get("Retry-After") == "" {
			st.noRetry++
		}
		st.mu.Unlock()
		if resp.StatusCode == 429 || resp.StatusCode == 503 {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func openFDCount(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func rssBytes() int64 {
	status, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TM-SRV-012, TM-SRV-013: the hostile-traffic soak.
func TestSoak(t *testing.T) {
	secs := 10
	if v, err := strconv.Atoi(os.Getenv("BASHBOX_SOAK_SECONDS")); err == nil && v > 0 {
		secs = v
	}
	s, err := New(soakConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	normalHTTP := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	hostileHTTP := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	st := &soakStats{codes: map[int]int{}}

	// Warm up, then take the resting baseline.
	warm := make(chan struct{})
	close(warm)
	normalClient(normalHTTP, ts.URL, warm, st, 0)
	for _, c := range normalCalls {
		body, _ := json.Marshal(map[string]any{"script": c.script})
		if resp, err := soakPost(context.Background(), normalHTTP, ts.URL, "normal-token", body); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	normalHTTP.CloseIdleConnections()
	time.Sleep(1500 * time.Millisecond)
	runtime.GC()
	goBase, fdBase := runtime.NumGoroutine(), openFDCount(t)
	cpu0 := cpuTime()
	time.Sleep(time.Second)
	restCPU := cpuTime() - cpu0

	const normals, hostiles = 1, 4
	stopNormal, stopHostile := make(chan struct{}), make(chan struct{})
	var peakRSS atomic.Int64
	sampling := make(chan struct{})
	go func() {
		for {
			peakRSS.Store(max(peakRSS.Load(), rssBytes()))
			select {
			case <-sampling:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	var wg, hwg sync.WaitGroup
	for i := range normals {
		wg.Go(func() { normalClient(normalHTTP, ts.URL, stopNormal, st, i) })
	}
	for i := range hostiles {
		hwg.Go(func() { hostileClient(hostileHTTP, ts.URL, stopHostile, st, i*5) })
	}
	// Quiet windows (after the hostile requests in flight have ended)
	// and hostile ones alternate, of the same length.
	start := time.Now()
	var quietM, hostileM phaseMetrics
	enough := func() bool {
		st.mu.Lock()
		defer st.mu.Unlock()
		return raceDetector || len(st.quiet) >= soakMinRuns && len(st.lat) >= soakMinRuns
	}
	for time.Since(start) < time.Duration(secs)*time.Second || !enough() && time.Since(start) < time.Duration(3*secs)*time.Second {
		st.phase.Store(phaseDrain)
		for st.hostile.Load() > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		st.phase.Store(phaseQuiet)
		m0 := markPhase()
		time.Sleep(soakWindow)
		st.phase.Store(phaseHostile)
		m1 := markPhase()
		time.Sleep(soakWindow)
		quietM.add(m0, m1)
		hostileM.add(m1, markPhase())
	}
	st.phase.Store(phaseDrain)
	ran := time.Since(start)
	close(stopHostile)
	close(stopNormal)
	hwg.Wait()
	wg.Wait()
	close(sampling)
	end := time.Now()

	// Back to baseline within 2 s of the last request.
	normalHTTP.CloseIdleConnections()
	hostileHTTP.CloseIdleConnections()
	var g, fds int
	for {
		g, fds = runtime.NumGoroutine(), openFDCount(t)
		if g <= goBase && fds <= fdBase || time.Since(end) > 2*time.Second {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	settle := time.Since(end)
	cpu1 := cpuTime()
	time.Sleep(time.Second)
	afterCPU := cpuTime() - cpu1

	st.mu.Lock()
	qp99, mp99 := p99(st.quiet), p99(st.lat)
	t.Logf("soak %v: normal runs %d (quiet p99 %v over %d, hostile p99 %v over %d: %.2fx), failed %d; hostile answers %v; peak RSS %d MiB (limit %d MiB); goroutines %d -> %d, fds %d -> %d after %v; CPU at rest %v/s before, %v/s after",
		ran.Round(time.Second), st.normals.Load(), qp99.Round(time.Microsecond), len(st.quiet), mp99.Round(time.Microsecond), len(st.lat), float64(mp99)/float64(max(qp99, 1)),
		len(st.failed), st.codes, peakRSS.Load()>>20, soakMaxMemory>>20, goBase, g, fdBase, fds, settle.Round(time.Millisecond), restCPU, afterCPU)
	t.Logf("quiet windows:   %v", &quietM)
	t.Logf("hostile windows: %v", &hostileM)
	for _, f := range st.failed {
		t.Errorf("failed: %s", f)
	}
	if st.codes[429] == 0 || st.noRetry > 0 {
		t.Errorf("hostile answers %v, %d 429s without Retry-After: the profile's limits did not answer the flood", st.codes, st.noRetry)
	}
	nq, nh := len(st.quiet), len(st.lat)
	st.mu.Unlock()
	switch {
	case raceDetector:
		// make soak (and go test without -race) judges the p99.
		t.Logf("p99 not judged under the race detector (%.2fx)", float64(mp99)/float64(max(qp99, 1)))
	case nq < soakMinRuns || nh < soakMinRuns:
		t.Errorf("too few normal runs to judge their p99: %d quiet, %d hostile (want %d each)", nq, nh, soakMinRuns)
	case mp99 > 2*qp99:
		t.Errorf("normal p99 %v beside hostile traffic, more than twice the quiet %v", mp99, qp99)
	}
	if peakRSS.Load() > soakMaxMemory {
		t.Errorf("peak RSS %d over the server's limit %d", peakRSS.Load(), soakMaxMemory)
	}
	if g > goBase || fds > fdBase {
		buf := make([]byte, 1<<20)
		t.Errorf("not back to baseline 2 s after: goroutines %d (base %d), fds %d (base %d)\n%s", g, goBase, fds, fdBase, buf[:runtime.Stack(buf, true)])
	}
	if afterCPU > restCPU+100*time.Millisecond {
		t.Errorf("CPU still busy after the soak: %v in 1 s (at rest %v)", afterCPU, restCPU)
	}
	if st.codes[200] == 0 || st.codes[413] == 0 {
		t.Errorf("hostile answers %v: the attacks did not run", st.codes)
	}
	ts.Close()
	s.Close()
}
