package serve

import (
	"fmt"
	rtmetrics "runtime/metrics"
	"time"
)

// phaseMetrics adds up the runtime's own account of the soak's quiet and
// hostile windows, so that a failed p99 says where the time went: the
// process's CPU, garbage collections and their stop-the-world pauses, and
// how long runnable goroutines waited for a processor.
type phaseMetrics struct {
	wall, cpu time.Duration
	gcs       float64
	sched     []uint64 // /sched/latencies:seconds counts
	stw       []uint64 // /sched/pauses/total/gc:seconds counts
	schedB    []float64
	stwB      []float64
}

var phaseMetricNames = []string{"/gc/cycles/total:gc-cycles", "/sched/latencies:seconds", "/sched/pauses/total/gc:seconds"}

type phaseMark struct {
	at      time.Time
	cpu     time.Duration
	samples []rtmetrics.Sample
}

func markPhase() phaseMark {
	s := make([]rtmetrics.Sample, len(phaseMetricNames))
	for i, n := range phaseMetricNames {
		s[i].Name = n
	}
	rtmetrics.Read(s)
	return phaseMark{time.Now(), cpuTime(), s}
}

// add counts the window from a to b.
func (pm *phaseMetrics) add(a, b phaseMark) {
	pm.wall += b.at.Sub(a.at)
	pm.cpu += b.cpu - a.cpu
	pm.gcs += float64(b.samples[0].Value.Uint64() - a.samples[0].Value.Uint64())
	pm.sched, pm.schedB = addHist(pm.sched, a.samples[1], b.samples[1])
	pm.stw, pm.stwB = addHist(pm.stw, a.samples[2], b.samples[2])
}

func addHist(acc []uint64, a, b rtmetrics.Sample) ([]uint64, []float64) {
	ha, hb := a.Value.Float64Histogram(), b.Value.Float64Histogram()
	if acc == nil {
		acc = make([]uint64, len(hb.Counts))
	}
	for i := range hb.Counts {
		acc[i] += hb.Counts[i] - ha.Counts[i]
	}
	return acc, hb.Buckets
}

// quantile is the upper bound of the bucket holding the q quantile.
func quantile(counts []uint64, buckets []float64, q float64) time.Duration {
	var total uint64
	for _, c := range counts {
		total += c
	}
	want, acc := uint64(float64(total)*q), uint64(0)
	for i, c := range counts {
		if acc += c; acc > want {
			return time.Duration(buckets[i+1] * 1e9).Round(time.Microsecond)
		}
	}
	return 0
}

func (pm *phaseMetrics) String() string {
	if pm.wall == 0 {
		return "none"
	}
	w := pm.wall.Seconds()
	return fmt.Sprintf("%.1f s, process CPU %.2f cores, %.1f GCs/s, scheduling latency p99 %v p99.9 %v, GC pause p99 %v",
		w, pm.cpu.Seconds()/w, pm.gcs/w, quantile(pm.sched, pm.schedB, 0.99), quantile(pm.sched, pm.schedB, 0.999), quantile(pm.stw, pm.stwB, 0.99))
}
