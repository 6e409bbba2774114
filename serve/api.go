package serve

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/internal/lazyre"
)

// openAPIDoc describes every route of routes(); a test holds the two
// together.
//
//go:embed openapi.json
var openAPIDoc []byte

type route struct {
	pattern string // method and path, as http.ServeMux takes it
	handler http.Handler
}

// routes are every route the HTTP server serves.
func (s *Server) routes() []route {
	return []route{
		{"GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "ok\n")
		})},
		{"GET /readyz", s.readyHandler()},
		{"GET /metrics", s.metricsHandler()},
		{"GET /v1/openapi.json", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(openAPIDoc)
		})},
		{"POST /v1/run", s.authed(s.handleRun)},
		{"POST /v1/sessions", s.authed(s.handleCreateSession)},
		{"GET /v1/sessions", s.authed(s.handleListSessions)},
		{"GET /v1/sessions/{id}", s.authed(s.handleGetSession)},
		{"DELETE /v1/sessions/{id}", s.authed(s.handleDeleteSession)},
		{"PUT /v1/sessions/{id}/files/{path...}", s.authed(s.handlePutFile)},
		{"GET /v1/sessions/{id}/files/{path...}", s.authed(s.handleGetFile)},
		{"PUT /v1/files/{path...}", s.authed(s.handlePutVolumeFile)},
		{"GET /v1/files/{path...}", s.authed(s.handleGetVolumeFile)},
		{"GET /v1/sessions/{id}/changes", s.authed(s.handleSessionChanges)},
		{"/mcp", s.mcpHTTPHandler()},
	}
}

// requestInfo follows a request through its handlers for the logs.
type requestInfo struct {
	ID     string
	Client string
	logged bool // its refusal was logged already
}

type requestInfoKey struct{}

func requestInfoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

var requestIDRE = lazyre.New(`^[A-Za-z0-9._:-]{1,64}$`)

func newID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// withRequestInfo gives every request an id (the client's X-Request-Id
// when it is a sane token), returns it as X-Request-Id, and logs every
// response of status 400 and up that no handler logged with its reason.
func (s *Server) withRequestInfo(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !requestIDRE().MatchString(id) {
			id = newID(8)
		}
		info := &requestInfo{ID: id, Client: r.RemoteAddr}
		// MCP tool handlers see the request's headers, not its context.
		r.Header.Set("X-Request-Id", id)
		r.Header.Set(clientHeader, r.RemoteAddr)
		w.Header().Set("X-Request-Id", id)
		r = r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info))
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status >= 400 && !info.logged {
			s.logRefusal(r.Context(), sw.status, http.StatusText(sw.status)+" "+r.Method+" "+r.URL.Path)
		}
	})
}

// clientHeader carries the client address to MCP tool handlers; a
// client's own value is overwritten.
const clientHeader = "X-Bashbox-Client"

// statusWriter records the status; it passes Flush and the rest through
// for streaming (http.ResponseController finds them with Unwrap).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRefusal records a refused request once, with its reason.
func (s *Server) logRefusal(ctx context.Context, status int, reason string) {
	info := requestInfoFrom(ctx)
	if info.logged {
		return
	}
	info.logged = true
	s.log.Warn("bashbox refused", "request_id", info.ID, "client", info.Client, "status", status, "reason", reason)
}

// apiError is the JSON body of every error response.
type apiError struct {
	Error string `json:"error"`
	Field string `json:"field,omitempty"`
}

// fail writes err as the JSON error with its status, and logs it.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code := errorStatus(err)
	body := apiError{Error: err.Error()}
	var ie *inputError
	if errors.As(err, &ie) {
		body.Field = ie.Field
	}
	var rf *refusal
	switch {
	case errors.As(err, &rf):
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(max(rf.retryAfter, time.Second).Seconds()))))
	case code == http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "1")
	case code == http.StatusUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="bashbox"`)
	}
	s.logRefusal(r.Context(), code, err.Error())
	writeJSON(w, code, body)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

// errorStatus maps a refusal to its HTTP status.
func errorStatus(err error) int {
	var ie *inputError
	switch {
	case errors.As(err, &ie):
		return ie.Status
	case errors.As(err, new(*refusal)):
		return http.StatusTooManyRequests
	case errors.Is(err, errBusy), errors.Is(err, errMemoryPressure), errors.Is(err, errDraining), errors.Is(err, errStore):
		return http.StatusServiceUnavailable
	}
	return http.StatusBadRequest
}

var errNoToken = &inputError{Status: http.StatusUnauthorized, Msg: "missing or unknown bearer token"}

// authed runs h for the profile of the request's bearer token.
func (s *Server) authed(h func(http.ResponseWriter, *http.Request, *profile)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.profileForToken(r)
		if !ok {
			s.fail(w, r, errNoToken)
			return
		}
		h(w, r, p)
	})
}

// metricsHandler serves Prometheus metrics, behind server.metrics_token
// when one is set.
func (s *Server) metricsHandler() http.Handler {
	h := s.metrics.handler()
	want := s.cfg.Server.MetricsToken
	if want == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if subtle.ConstantTimeCompare([]byte(tok), []byte(want)) != 1 {
			s.fail(w, r, &inputError{Status: http.StatusUnauthorized, Msg: "metrics need the metrics token"})
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) handleRun(w http.ResponseWriter, r *http.Request, p *profile) {
	if r.ContentLength > s.cfg.Server.MaxRequestBytes {
		// Refused unread: an oversize body costs the server nothing.
		s.fail(w, r, &inputError{Status: http.StatusRequestEntityTooLarge, Msg: fmt.Sprintf("request body over %d bytes", s.cfg.Server.MaxRequestBytes)})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.Server.MaxRequestBytes)
	var req RunRequest
	if err := decodeJSON(r.Body, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Profile == "" {
		req.Profile = p.name
	} else if _, ok := s.profiles[req.Profile]; !ok || req.Profile != p.name {
		s.fail(w, r, &inputError{Status: http.StatusForbidden, Field: "profile", Msg: "the token does not grant profile " + req.Profile})
		return
	}
	if wantsEventStream(r) {
		s.streamRun(w, r, req)
		return
	}
	res, err := s.Run(r.Context(), req)
	switch {
	case r.Context().Err() != nil:
		return // the client is gone; its run was cancelled
	case err != nil:
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func wantsEventStream(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, _ := strings.Cut(part, ";")
		if strings.TrimSpace(strings.ToLower(mt)) == "text/event-stream" {
			return true
		}
	}
	return false
}
