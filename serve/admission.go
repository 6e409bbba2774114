package serve

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/time/rate"

	"github.com/bashbox/bashbox/config"
)

// Admission happens before a run takes one of the server's slots: the
// profile's own concurrency limit and token bucket (one tenant's flood
// must not take every slot from the others), then the process's memory.

// gate is one profile's admission: at most cap(slots) runs at once and
// runs started at rate with burst. Both nil mean unlimited.
type gate struct {
	slots   chan struct{}
	limiter *rate.Limiter
}

func newGate(pc *config.Profile) *gate {
	g := &gate{}
	if pc.MaxConcurrent > 0 {
		g.slots = make(chan struct{}, pc.MaxConcurrent)
	}
	if pc.Rate > 0 {
		burst := pc.Burst
		if burst == 0 {
			burst = max(1, int(math.Ceil(pc.Rate)))
		}
		g.limiter = rate.NewLimiter(rate.Limit(pc.Rate), burst)
	}
	return g
}

// refusal is a run refused for the profile's own limits: 429.
type refusal struct {
	msg        string
	retryAfter time.Duration
}

func (r *refusal) Error() string { return r.msg }

// enter admits a run or refuses it at once; the returned func ends it.
func (g *gate) enter() (func(), error) {
	if g.slots != nil {
		select {
		case g.slots <- struct{}{}:
		default:
			return nil, &refusal{fmt.Sprintf("this profile already has %d runs in progress; retry later", cap(g.slots)), time.Second}
		}
	}
	if g.limiter != nil {
		r := g.limiter.Reserve()
		if d := r.Delay(); d > 0 {
			r.Cancel()
			g.leave()
			return nil, &refusal{"this profile's rate limit is reached; retry later", d}
		}
	}
	return g.leave, nil
}

func (g *gate) leave() {
	if g.slots != nil {
		<-g.slots
	}
}

// errMemoryPressure refuses new runs while the process is near its memory
// limit: 503, as for a full queue.
var errMemoryPressure = errors.New("the server is short of memory; retry later")

// memoryGuard is the process-wide memory limit.
type memoryGuard struct {
	limit    int64
	previous int64 // the Go memory limit before, restored by close
	samples  []rtmetrics.Sample
}

// pressureFraction of the limit in use refuses new runs: the runs in
// flight keep room to finish within their own budgets.
const pressureFraction = 0.85

func newMemoryGuard(limit int64) *memoryGuard {
	if limit <= 0 {
		limit = defaultMaxMemory()
	}
	g := &memoryGuard{limit: limit, samples: []rtmetrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}}
	// The garbage collector works harder as the heap nears the limit,
	// instead of letting garbage double the heap (GOGC) first.
	g.previous = debug.SetMemoryLimit(limit)
	return g
}

func (g *memoryGuard) close() { debug.SetMemoryLimit(g.previous) }

// used is the memory the Go runtime holds from the OS.
func (g *memoryGuard) used() int64 {
	s := make([]rtmetrics.Sample, len(g.samples))
	copy(s, g.samples)
	rtmetrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}

func (g *memoryGuard) admit() error {
	if float64(g.used()) > pressureFraction*float64(g.limit) {
		return errMemoryPressure
	}
	return nil
}

// defaultMaxMemory is half the machine's memory, or of the cgroup's limit
// when that is lower.
func defaultMaxMemory() int64 {
	total := int64(8 << 30)
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) == nil {
		total = int64(si.Totalram) * int64(si.Unit)
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && n < total {
			total = n
		}
	}
	return total / 2
}

// admit checks a run against its profile's limits and the server's
// memory; the returned func ends the run's admission.
func (s *Server) admit(p *profile) (func(), error) {
	leave, err := p.gate.enter()
	if err == nil {
		if err = s.memory.admit(); err != nil {
			leave()
		}
	}
	if err != nil {
		s.metrics.runs.WithLabelValues(p.name, "refused").Inc()
		return nil, err
	}
	return leave, nil
}
