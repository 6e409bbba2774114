package serve

import (
	"fmt"
	"net/http"
	"net/http/httptest"
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

// TestLoad is the serve load test (make loadtest): 200 concurrent clients
// on loopback run a small script over HTTP for BASHBOX_LOAD_SECONDS
// (default 60). It reports throughput, p50/p99 latency, peak RSS and
// goroutines before and after, and fails on a goroutine leak.
func TestLoad(t *testing.T) {
	if os.Getenv("BASHBOX_LOADTEST") == "" {
		t.Skip("set BASHBOX_LOADTEST=1 (make loadtest)")
	}
	secs, _ := strconv.Atoi(os.Getenv("BASHBOX_LOAD_SECONDS"))
	if secs <= 0 {
		secs = 60
	}
	cfg := testConfig(t, "")
	cfg.Server.MaxConcurrent = 64
	cfg.Server.MaxQueue = 1000
	s, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}}
	runtime.GC()
	before := runtime.NumGoroutine()
	var mu sync.Mutex
	var lat []time.Duration
	var ok, failed atomic.Int64
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for n := 0; time.Now().Before(deadline); n++ {
				body := fmt.Sprintf(`{"script":"x=%d; for i in 1 2 3; do x=$((x+i)); done; echo $x; cat hello.txt | wc -l"}`, n)
				req, _ := http.NewRequest("POST", ts.URL+"/v1/run", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer secret-token")
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil || resp.StatusCode != 200 {
					failed.Add(1)
					if resp != nil {
						resp.Body.Close()
					}
					continue
				}
				resp.Body.Close()
				d := time.Since(start)
				ok.Add(1)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	ts.Close()
	client.CloseIdleConnections()
	s.Close()
	time.Sleep(500 * time.Millisecond)
	runtime.GC()
	after := runtime.NumGoroutine()
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[int(float64(len(lat)-1)*p)]
	}
	status, _ := os.ReadFile("/proc/self/status")
	var hwm string
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			hwm = strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	t.Logf("load: %d s, 200 clients: %d ok, %d failed, %.0f runs/s, p50 %v, p99 %v, peak RSS %s, goroutines %d before, %d after",
		secs, ok.Load(), failed.Load(), float64(ok.Load())/float64(secs), pct(0.5), pct(0.99), hwm, before, after)
	if after > before+10 {
		t.Fatalf("goroutine leak: %d before, %d after", before, after)
	}
	if ok.Load() == 0 {
		t.Fatal("no run succeeded")
	}
}
