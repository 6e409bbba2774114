package serve

import (
	"runtime/debug"
	"testing"
)

// TM-SRV-013: server.max_memory is the Go runtime's memory limit while
// the server runs (restored when it closes), and runs are refused once the
// process holds 85% of it, while a run still fits below that.
func TestMaxMemorySetsTheRuntimeLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	cfg := testConfig(t, "")
	cfg.Server.MaxMemory = 3 << 30
	s, _ := newServerCfg(t, cfg)
	if got := debug.SetMemoryLimit(-1); got != 3<<30 {
		t.Fatalf("runtime memory limit %d, want %d", got, 3<<30)
	}
	if err := s.memory.admit(); err != nil {
		t.Fatalf("a process far below its limit refused a run: %v", err)
	}
	used := s.memory.used()
	s.memory.limit = int64(float64(used) / 0.8) // 80% in use: admitted
	if err := s.memory.admit(); err != nil {
		t.Errorf("at 80%% of the limit: %v", err)
	}
	s.memory.limit = int64(float64(used) / 0.9) // 90% in use: refused
	if err := s.memory.admit(); err != errMemoryPressure {
		t.Errorf("at 90%% of the limit: %v", err)
	}
	s.Close()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after Close the limit is %d, want %d back", got, before)
	}
}
