// Package serve offers bashbox to agents: an MCP server (stdio or
// streamable HTTP) with the Bashbox tool, and a plain HTTP API, with
// per-profile bearer tokens, a global concurrency limit with a bounded
// queue, Prometheus metrics and one audit line per run.
package serve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/config"
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/hostsandbox/bashtool"
	"github.com/bashbox/bashbox/pacing"
)

// Server holds one box per profile and the shared limits.
type Server struct {
	cfg      *config.File
	profiles map[string]*profile
	log      *slog.Logger
	slots    chan struct{}
	queued   atomic.Int64
	metrics  *metrics
	memory   *memoryGuard
	procs    int // GOMAXPROCS before New, restored by Close
	drain    *drainer
	redis    *redisClient // nil unless sessions.store is redis
}

type profile struct {
	name     string
	cfg      *config.Profile
	box      *bashbox.Box
	fallback *fallback.Runner
	bash     *bashtool.Tool // nil unless the profile enables it
	sessions sessionStore
	gate     *gate // the profile's own concurrency and rate limits
}

// New opens every profile's box.
func New(cfg *config.File, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	s := &Server{cfg: cfg, profiles: map[string]*profile{}, log: log, slots: make(chan struct{}, cfg.Server.MaxConcurrent), metrics: newMetrics(), drain: newDrainer()}
	s.memory = newMemoryGuard(int64(cfg.Server.MaxMemory))
	s.procs = setMaxProcs(cfg.Server.GoMaxProcs)
	// One scheduler for every profile: a tenant's long calls yield the
	// processor to every tenant's short ones (TM-SRV-014).
	sched := pacing.New()
	if err := s.openStore(); err != nil {
		return nil, err
	}
	for name, pc := range cfg.Profiles {
		bc, fb, err := cfg.BoxConfig(name)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("profile %s: %w", name, err)
		}
		bc.Pacing, bc.Tenant = sched, name
		p := &profile{name: name, cfg: pc, fallback: fb, gate: newGate(pc)}
		if bc.Fallback != nil {
			inner := bc.Fallback
			bc.Fallback = func(ctx context.Context, c *builtins.Call) (int, bool) {
				st, ok := inner(ctx, c)
				if ok {
					s.metrics.fallbacks.WithLabelValues(name, c.Args[0]).Inc()
					if n, _ := ctx.Value(fallbackCountKey{}).(*atomic.Int64); n != nil {
						n.Add(1)
					}
				}
				return st, ok
			}
		}
		box, err := bashbox.New(bc)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("profile %s: %w", name, err)
		}
		p.box = box
		if pc.BashTool.Enabled {
			tool, err := bashtool.New(bashtool.Config{WorkDir: pc.BashTool.Root, ReadPaths: pc.BashTool.Read, WritePaths: pc.BashTool.Write, EnvAllow: pc.BashTool.EnvAllow,
				Backend: cfg.Backend(), Network: cfg.Host.BashNetwork})
			if err != nil {
				s.Close()
				return nil, fmt.Errorf("profile %s: bash_tool: %w", name, err)
			}
			p.bash = tool
		}
		p.sessions = s.newSessionStore(name, box, pc)
		s.profiles[name] = p
	}
	return s, nil
}

// Close releases every profile.
func (s *Server) Close() error {
	s.memory.close()
	runtime.GOMAXPROCS(s.procs)
	for _, p := range s.profiles {
		if p.box != nil {
			p.box.Close()
		}
		p.fallback.Close()
		if p.bash != nil {
			p.bash.Close()
		}
		if p.sessions != nil {
			p.sessions.close()
		}
	}
	if s.redis != nil {
		s.redis.Close()
	}
	return nil
}

type fallbackCountKey struct{}

// goProcs is Go's own choice of GOMAXPROCS (the processors, the cgroup's
// CPU limit or the GOMAXPROCS variable), taken before any server sets it.
var goProcs = runtime.GOMAXPROCS(0)

// setMaxProcs sets GOMAXPROCS to n, or by default to twice Go's choice,
// and returns the value before. The spares are for short calls: a paced
// long call's goroutine keeps its processor while the OS has descheduled
// its thread (for milliseconds on a loaded machine), and with no spare
// the short calls' goroutines would wait for it.
func setMaxProcs(n int) int {
	if n <= 0 {
		n = 2 * goProcs
	}
	return runtime.GOMAXPROCS(n)
}

// errBusy means the queue is full.
var errBusy = errors.New("too many runs in progress; retry later")

// acquire waits for a run slot, or fails at once when the queue is full.
func (s *Server) acquire(ctx context.Context) (func(), error) {
	select {
	case s.slots <- struct{}{}:
	default:
		if s.queued.Add(1) > int64(s.cfg.Server.MaxQueue) {
			s.queued.Add(-1)
			return nil, errBusy
		}
		s.metrics.queued.Inc()
		select {
		case s.slots <- struct{}{}:
			s.queued.Add(-1)
			s.metrics.queued.Dec()
		case <-ctx.Done():
			s.queued.Add(-1)
			s.metrics.queued.Dec()
			return nil, ctx.Err()
		}
	}
	s.metrics.inFlight.Inc()
	return func() {
		s.metrics.inFlight.Dec()
		<-s.slots
	}, nil
}

// RunResult is the result object plus the merged text an agent reads.
type RunResult struct {
	*bashbox.Result
	Text    string `json:"-"`
	Session string `json:"session,omitempty"`
}

// Run runs one script for a profile under the server's limits. Refusals
// are *inputError (with their HTTP status) or errBusy, and are logged.
func (s *Server) Run(ctx context.Context, req RunRequest) (*RunResult, error) {
	p, ok := s.profiles[req.Profile]
	if !ok {
		return nil, fmt.Errorf("unknown profile %q", req.Profile)
	}
	res, err := s.run(ctx, p, req)
	if err != nil && ctx.Err() == nil {
		s.logRefusal(ctx, errorStatus(err), err.Error())
	}
	return res, err
}

func (s *Server) run(ctx context.Context, p *profile, req RunRequest) (*RunResult, error) {
	if err := req.validate(p); err != nil {
		return nil, err
	}
	ctx, leaveDrain, err := s.drain.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leaveDrain()
	leave, err := s.admit(p)
	if err != nil {
		return nil, err
	}
	defer leave()
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var sess *sessionEntry
	saveSession := func() error { return nil }
	if req.Session != "" {
		e, done, err := p.sessions.acquire(req.Session)
		if err != nil {
			s.metrics.runs.WithLabelValues(p.name, "refused").Inc()
			return nil, err
		}
		defer func() {
			if done != nil {
				done()
			}
		}()
		sess = e
		// The session is saved before the caller hears the result, so a
		// result seen is a state kept (see the end of run).
		saveSession = func() error { d := done; done = nil; return d() }
	}
	var merged mergedWriter
	var fbCalls atomic.Int64
	ctx = context.WithValue(ctx, fallbackCountKey{}, &fbCalls)
	changes, err := changesRequest(req.Changes)
	if err != nil {
		return nil, err
	}
	breq := bashbox.Request{Script: req.Script, Stdout: &merged, Stderr: &merged, Workdir: req.Workdir,
		Timeout: time.Duration(req.Timeout), Files: req.Files, Changes: changes}
	if req.sink != nil {
		breq.Stdout = io.MultiWriter(&merged, sinkWriter{req.sink, "stdout"})
		breq.Stderr = io.MultiWriter(&merged, sinkWriter{req.sink, "stderr"})
	}
	for _, k := range sortedKeys(req.Env) {
		breq.Env = append(breq.Env, k+"="+req.Env[k])
	}
	if req.Stdin != "" {
		breq.Stdin = strings.NewReader(req.Stdin)
	}
	if req.started != nil {
		req.started()
	}
	start := time.Now()
	var res *bashbox.Result
	sessionID := ""
	if sess != nil {
		sessionID = sess.id
		res, err = sess.s.Run(ctx, breq)
		if err != nil && sess.fresh {
			p.sessions.remove(sess.id, true) // the client never learnt its id
		}
	} else {
		res, err = p.box.Run(ctx, breq)
	}
	if err == nil {
		if serr := saveSession(); serr != nil {
			s.metrics.runs.WithLabelValues(p.name, "refused").Inc()
			return nil, serr
		}
	}
	if err != nil {
		s.metrics.runs.WithLabelValues(p.name, "refused").Inc()
		if bashbox.IsNoSpace(err) {
			return nil, &inputError{Status: http.StatusRequestEntityTooLarge, Field: "files", Msg: err.Error()}
		}
		return nil, badField("", "%s", err.Error())
	}
	outcome := "ok"
	switch {
	case res.Budget != nil:
		outcome = "budget"
		s.metrics.trips.WithLabelValues(res.Budget.Name).Inc()
	case res.ExitCode != 0:
		outcome = "error"
	}
	s.metrics.runs.WithLabelValues(p.name, outcome).Inc()
	s.metrics.duration.WithLabelValues(p.name).Observe(time.Since(start).Seconds())
	s.audit(ctx, p, req, sessionID, res, fbCalls.Load())
	return &RunResult{Result: res, Text: agentText(merged.String(), res) + changesText(res.Changes), Session: sessionID}, nil
}

// agentText is what a model reads: the merged streams, then a line for a
// non-zero status, a tripped budget or truncated output.
func agentText(merged string, res *bashbox.Result) string {
	var b strings.Builder
	b.WriteString(merged)
	if merged != "" && !strings.HasSuffix(merged, "\n") {
		b.WriteByte('\n')
	}
	if res.Truncated.Stdout || res.Truncated.Stderr {
		b.WriteString("[output truncated: the middle was cut to fit the output budget]\n")
	}
	if res.ExitCode != 0 {
		fmt.Fprintf(&b, "exit: %d\n", res.ExitCode)
	}
	return b.String()
}

func (s *Server) audit(ctx context.Context, p *profile, req RunRequest, sessionID string, res *bashbox.Result, fbCalls int64) {
	sum := sha256.Sum256([]byte(req.Script))
	first, _, _ := strings.Cut(strings.TrimSpace(req.Script), "\n")
	if len(first) > 200 {
		first = first[:200]
	}
	info := requestInfoFrom(ctx)
	attrs := []any{"request_id", info.ID, "client", info.Client, "profile", p.name, "script_sha256", hex.EncodeToString(sum[:]), "first_line", first,
		"exit_status", res.ExitCode, "duration_ms", res.DurationMS, "fallback_calls", fbCalls}
	if res.Budget != nil {
		attrs = append(attrs, "budget", res.Budget.Name)
	}
	if sessionID != "" {
		attrs = append(attrs, "session", sessionID)
	}
	if s.cfg.Server.AuditScripts {
		attrs = append(attrs, "script", req.Script)
	}
	s.log.Info("bashbox run", attrs...)
}

// mergedWriter keeps stdout and stderr in the order they were written.
type mergedWriter struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (m *mergedWriter) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.buf.Write(p)
}

func (m *mergedWriter) String() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.buf.String()
}

// profileForToken finds the profile a bearer token belongs to.
func (s *Server) profileForToken(r *http.Request) (*profile, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || tok == "" {
		return nil, false
	}
	names := make([]string, 0, len(s.profiles))
	for n := range s.profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s.profiles[n]
		if p.cfg.Token != "" && subtle.ConstantTimeCompare([]byte(p.cfg.Token), []byte(tok)) == 1 {
			return p, true
		}
	}
	return nil, false
}

// Handler serves the plain HTTP API, the metrics and MCP at /mcp.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		mux.Handle(rt.pattern, rt.handler)
	}
	return s.withRequestInfo(mux)
}
