package serve

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// The text exposition: labels sorted by name and escaped, series sorted,
// histograms cumulative with +Inf, _sum and _count, unused labelled
// families left out, the runtime's and the process's figures appended.
func TestMetricsText(t *testing.T) {
	m := newMetrics()
	m.runs.WithLabelValues("p\"1\\\n", "ok").Inc()
	m.runs.WithLabelValues("a", "error").Inc()
	m.runs.WithLabelValues("a", "error").Inc()
	m.inFlight.Inc()
	m.inFlight.Inc()
	m.inFlight.Dec()
	h := m.duration.WithLabelValues("a")
	for _, v := range []float64{0.0005, 0.001, 0.003, 500} {
		h.Observe(v)
	}
	rec := httptest.NewRecorder()
	m.handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := rec.Body.String()
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("content type %q", ct)
	}
	for _, want := range []string{
		"# HELP bashbox_runs_total Runs by profile and outcome (ok, error, budget, refused).\n# TYPE bashbox_runs_total counter\n" +
			"bashbox_runs_total{outcome=\"error\",profile=\"a\"} 2\n" +
			"bashbox_runs_total{outcome=\"ok\",profile=\"p\\\"1\\\\\\n\"} 1\n",
		"# TYPE bashbox_runs_in_flight gauge\nbashbox_runs_in_flight 1\n",
		"bashbox_runs_queued 0\n",
		"# TYPE bashbox_run_duration_seconds histogram\n" +
			"bashbox_run_duration_seconds_bucket{profile=\"a\",le=\"0.001\"} 2\n" +
			"bashbox_run_duration_seconds_bucket{profile=\"a\",le=\"0.004\"} 3\n",
		"bashbox_run_duration_seconds_bucket{profile=\"a\",le=\"262.144\"} 3\n" +
			"bashbox_run_duration_seconds_bucket{profile=\"a\",le=\"+Inf\"} 4\n" +
			"bashbox_run_duration_seconds_sum{profile=\"a\"} 500.0045\n" +
			"bashbox_run_duration_seconds_count{profile=\"a\"} 4\n",
		"bashbox_session_state_bytes_bucket{le=\"+Inf\"} 0\nbashbox_session_state_bytes_sum 0\nbashbox_session_state_bytes_count 0\n",
		"\ngo_goroutines ", "\nprocess_resident_memory_bytes ", "\nprocess_cpu_seconds_total ", "\nprocess_open_fds ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"bashbox_budget_trips_total", "bashbox_session_store_errors_total"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("unused labelled family %s listed", unwanted)
		}
	}
}
