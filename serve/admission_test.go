package serve

import (
	"context"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashbox/bashbox/config"
)

func fairConfig(t *testing.T, profileKeys string) *config.File {
	cfg := testConfig(t, "")
	extra, err := config.Parse("t.yaml", []byte(`
server: {max_concurrent: 8, max_queue: 8}
profiles:
  default:
    token: a
`+profileKeys))
	if err != nil {
		t.Fatal(err)
	}
	pc := extra.Profiles["default"]
	cfg.Profiles["default"].MaxConcurrent, cfg.Profiles["default"].Rate, cfg.Profiles["default"].Burst = pc.MaxConcurrent, pc.Rate, pc.Burst
	cfg.Server.MaxConcurrent, cfg.Server.MaxQueue = 8, 8
	return cfg
}

// TM-SRV-012: one profile's flood gets 429 with Retry-After from its own
// limits, and does not take the slots of another profile.
func TestProfileConcurrencyLimit(t *testing.T) {
	s, err := New(fairConfig(t, "    max_concurrent: 2\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { post(t, ts.URL, "secret-token", `{"script": "sleep 1"}`) })
	}
	time.Sleep(300 * time.Millisecond)
	resp, out := post(t, ts.URL, "secret-token", `{"script": "echo flood"}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third run of the profile: %d %v (Retry-After %q)", resp.StatusCode, out, resp.Header.Get("Retry-After"))
	}
	resp, out = post(t, ts.URL, "other-token", `{"script": "echo other"}`)
	if resp.StatusCode != 200 || out["stdout"] != "other\n" {
		t.Fatalf("other profile: %d %v", resp.StatusCode, out)
	}
	wg.Wait()
	if resp, _ := post(t, ts.URL, "secret-token", `{"script": "true"}`); resp.StatusCode != 200 {
		t.Fatalf("after the flood: %d", resp.StatusCode)
	}
}

// TM-SRV-012: the token bucket refuses past its burst with the wait in
// Retry-After, and refills.
func TestProfileRateLimit(t *testing.T) {
	s, err := New(fairConfig(t, "    rate: 2\n    burst: 3\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	codes := map[int]int{}
	retry := ""
	for range 6 {
		resp, _ := post(t, ts.URL, "secret-token", `{"script": "true"}`)
		codes[resp.StatusCode]++
		if resp.StatusCode == 429 {
			retry = resp.Header.Get("Retry-After")
		}
	}
	if codes[200] < 3 || codes[429] == 0 {
		t.Fatalf("codes %v", codes)
	}
	if n, err := strconv.Atoi(retry); err != nil || n < 1 {
		t.Fatalf("Retry-After %q", retry)
	}
	if resp, _ := post(t, ts.URL, "other-token", `{"script": "true"}`); resp.StatusCode != 200 {
		t.Fatalf("other profile limited too: %d", resp.StatusCode)
	}
	time.Sleep(time.Second)
	if resp, _ := post(t, ts.URL, "secret-token", `{"script": "true"}`); resp.StatusCode != 200 {
		t.Fatalf("bucket did not refill: %d", resp.StatusCode)
	}
}

// TM-SRV-013: near the server's memory limit new runs get 503 with
// Retry-After, through HTTP and through Run (MCP).
func TestMemoryPressureRefusesRuns(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	if resp, _ := post(t, ts.URL, "secret-token", `{"script": "true"}`); resp.StatusCode != 200 {
		t.Fatalf("before: %d", resp.StatusCode)
	}
	s.memory.limit = s.memory.used() / 2 // as if the process were past it
	resp, out := post(t, ts.URL, "secret-token", `{"script": "true"}`)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("under pressure: %d %v", resp.StatusCode, out)
	}
	if _, err := s.Run(context.Background(), RunRequest{Profile: "default", Script: "true"}); err != errMemoryPressure {
		t.Fatalf("Run: %v", err)
	}
}

func TestDefaultMaxMemory(t *testing.T) {
	if m := defaultMaxMemory(); m < 64<<20 {
		t.Fatalf("default max memory %d", m)
	}
}

// TM-SRV-017: a server runs with spare processors for short calls (twice
// Go's choice unless server.gomaxprocs says otherwise) and gives the
// process its setting back when it closes.
func TestServerMaxProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ set, want int }{{0, 2 * goProcs}, {3, 3}} {
		cfg := testConfig(t, "")
		cfg.Server.GoMaxProcs = c.set
		s, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := runtime.GOMAXPROCS(0); got != c.want {
			t.Errorf("gomaxprocs %d: GOMAXPROCS %d, want %d", c.set, got, c.want)
		}
		s.Close()
		if got := runtime.GOMAXPROCS(0); got != before {
			t.Errorf("after Close: GOMAXPROCS %d, want %d again", got, before)
		}
	}
	if _, err := config.Parse("t.yaml", []byte("server: {gomaxprocs: -1}\n")); err == nil || !strings.Contains(err.Error(), "gomaxprocs") {
		t.Errorf("gomaxprocs -1: %v", err)
	}
}
