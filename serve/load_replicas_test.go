package serve_test

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoadReplicas is the scale-out load test (make loadtest): N serve
// processes (BASHBOX_LOAD_REPLICAS, default 3) share sessions through a
// real redis-server behind a plain round-robin proxy, so consecutive calls
// of a session land on different replicas. Clients
// (BASHBOX_LOAD_CLIENTS, default 64) each drive their own session for
// BASHBOX_LOAD_SECONDS (default 30). It reports runs/s (and per core of
// this machine), p50/p99, the replicas' memory per concurrent run, and
// the session store's save and load latency from their /metrics.
func TestLoadReplicas(t *testing.T) {
	if os.Getenv("BASHBOX_LOADTEST") == "" {
		t.Skip("set BASHBOX_LOADTEST=1 (make loadtest)")
	}
	envInt := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
			return n
		}
		return def
	}
	replicas, clients, secs := envInt("BASHBOX_LOAD_REPLICAS", 3), envInt("BASHBOX_LOAD_CLIENTS", 64), envInt("BASHBOX_LOAD_SECONDS", 30)
	rs := startRedis(t)
	cfg := strings.Replace(serveConfig(""), "max: 20", fmt.Sprintf("max: %d", clients+10), 1)
	cfg = strings.Replace(cfg, "drain_timeout: 20s", "drain_timeout: 20s\n  max_concurrent: 64\n  max_queue: 1000", 1)
	var reps []*replica
	var backends []*url.URL
	for i := 0; i < replicas; i++ {
		r := startReplica(t, cfg, "--session-store", rs.url())
		reps = append(reps, r)
		u, _ := url.Parse(r.url)
		backends = append(backends, u)
	}
	idle := 0
	for _, r := range reps {
		idle += rssKiB(r.cmd.Process.Pid, "VmRSS")
	}
	var next atomic.Uint64
	proxy := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.SetURL(backends[next.Add(1)%uint64(len(backends))])
	}})
	defer proxy.Close()
	front := &replica{url: proxy.URL}
	var mu sync.Mutex
	var lat []time.Duration
	var ok, failed atomic.Int64
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	var wg sync.WaitGroup
	for i := 0; i < clients; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := front.run(t, "new", "n=0; mkdir -p /scratch/w; seq 1 200 > /scratch/w/data")
			if first.Status != 200 {
				failed.Add(1)
				return
			}
			for time.Now().Before(deadline) {
				start := time.Now()
				res := front.run(t, first.Session, `n=$((n+1)); echo "$n" >> /scratch/w/log; wc -l < /scratch/w/data; tail -n 1 /scratch/w/log`)
				d := time.Since(start)
				if res.Status != 200 || res.ExitCode != 0 {
					failed.Add(1)
					continue
				}
				ok.Add(1)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	peak := 0
	for _, r := range reps {
		peak += rssKiB(r.cmd.Process.Pid, "VmHWM")
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(float64(len(lat)-1)*p)]
	}
	rate := float64(ok.Load()) / float64(secs)
	t.Logf("load: %d replicas, %d clients (one session each, round robin), %d s: %d ok, %d failed, %.0f runs/s, %.0f runs/s per core (%d cores), p50 %v, p99 %v",
		replicas, clients, secs, ok.Load(), failed.Load(), rate, rate/float64(runtime.NumCPU()), runtime.NumCPU(), pct(0.5), pct(0.99))
	t.Logf("memory: replicas idle %d KiB, peak %d KiB: %.0f KiB per concurrent run", idle, peak, float64(peak-idle)/float64(clients))
	for _, op := range []string{"load", "restore", "snapshot", "save"} {
		var sum, count float64
		for _, r := range reps {
			s, c := metricSum(t, r.url, `bashbox_session_store_seconds`, `op="`+op+`"`)
			sum, count = sum+s, count+c
		}
		if count > 0 {
			t.Logf("session store %-8s %7.0f ops, mean %v", op, count, time.Duration(sum/count*float64(time.Second)).Round(time.Microsecond))
		}
	}
	if ok.Load() == 0 || failed.Load() > ok.Load()/100 {
		t.Fatalf("%d failed of %d", failed.Load(), ok.Load()+failed.Load())
	}
}

func rssKiB(pid int, field string) int {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

// metricSum reads a histogram's _sum and _count for a label from /metrics.
func metricSum(t *testing.T, base, name, label string) (sum, count float64) {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, label) {
			continue
		}
		fields := strings.Fields(l)
		v, _ := strconv.ParseFloat(fields[len(fields)-1], 64)
		switch {
		case strings.HasPrefix(l, name+"_sum"):
			sum = v
		case strings.HasPrefix(l, name+"_count"):
			count = v
		}
	}
	return sum, count
}
