package serve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bashbox/bashbox/config"
)

func testConfig(t *testing.T, extra string) *config.File {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello from the volume\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yml := `
server:
  max_concurrent: 2
  max_queue: 1
  max_request_bytes: 65536
volumes:
  repo: {host: ` + dir + `, guest: /work, mode: ro}
profiles:
  default:
    volumes: [repo]
    token: secret-token
    sessions: {max: 2}
  other:
    volumes: [repo]
    token: other-token
` + extra
	cfg, err := config.Parse("test.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func newServer(t *testing.T) (*Server, *syncBuffer) {
	return newServerWith(t, "")
}

// newServerWith adds extra YAML (more profiles) to the test config.
func newServerWith(t *testing.T, extra string) (*Server, *syncBuffer) {
	return newServerCfg(t, testConfig(t, extra))
}

func newServerCfg(t *testing.T, cfg *config.File) (*Server, *syncBuffer) {
	log := &syncBuffer{}
	s, err := New(cfg, newJSONLogger(log))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, log
}

func post(t *testing.T, url, token, body string) (*http.Response, map[string]any) {
	req, _ := http.NewRequest("POST", url+"/v1/run", strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp, out
}

func TestHTTPRun(t *testing.T) {
	s, log := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	resp, out := post(t, ts.URL, "secret-token", `{"script": "cat hello.txt; echo x > hello.txt; exit 3"}`)
	if resp.StatusCode != 200 || out["stdout"] != "hello from the volume\n" || out["exit_code"] != float64(3) {
		t.Fatalf("%d %v", resp.StatusCode, out)
	}
	if !strings.Contains(log.String(), `"script_sha256"`) || !strings.Contains(log.String(), `"first_line":"cat hello.txt; echo x \u003e hello.txt; exit 3"`) && !strings.Contains(log.String(), `"first_line":"cat hello.txt; echo x > hello.txt; exit 3"`) {
		t.Fatalf("audit line missing: %s", log.String())
	}
	if strings.Contains(log.String(), `"script":`) {
		t.Fatal("script text logged without audit_scripts")
	}
}

func TestHTTPRefusals(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	cases := []struct {
		token, body string
		code        int
	}{
		{"", `{"script":"echo"}`, 401},
		{"wrong", `{"script":"echo"}`, 401},
		{"other-token", `{"profile":"default","script":"echo"}`, 403},
		{"secret-token", `{"script":`, 400},
		{"secret-token", `{"script":"echo","bogus":1}`, 400},
		{"secret-token", `{"script":"  "}`, 400},
		{"secret-token", `{"script":"` + strings.Repeat("x", 10<<20) + `"}`, 413},
		{"secret-token", `{"script":"echo","session":"nosuch"}`, 404},
	}
	for _, c := range cases {
		resp, out := post(t, ts.URL, c.token, c.body)
		if resp.StatusCode != c.code || out["error"] == "" {
			t.Errorf("%q %.40q: got %d %v, want %d", c.token, c.body, resp.StatusCode, out, c.code)
		}
	}
	resp, _ := http.Get(ts.URL + "/healthz")
	if resp.StatusCode != 200 {
		t.Fatalf("healthz %d", resp.StatusCode)
	}
}

func TestQueueLimit(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	// Two slots and a queue of one: of six slow runs at once, some get 503.
	var wg sync.WaitGroup
	codes := make(chan int, 6)
	retry := make(chan string, 6)
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("POST", ts.URL+"/v1/run", strings.NewReader(`{"script":"sleep 1 2>/dev/null || while :; do :; done","timeout":1}`))
			req.Header.Set("Authorization", "Bearer secret-token")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
			retry <- resp.Header.Get("Retry-After")
		}()
	}
	wg.Wait()
	close(codes)
	close(retry)
	busy := 0
	for c := range codes {
		if c == 503 {
			busy++
		}
	}
	if busy == 0 {
		t.Fatal("no run was refused past the queue")
	}
	hasRetry := false
	for r := range retry {
		hasRetry = hasRetry || r != ""
	}
	if !hasRetry {
		t.Fatal("503 without Retry-After")
	}
}

func TestSessionsOverHTTP(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	_, out := post(t, ts.URL, "secret-token", `{"script":"cd /tmp; export K=v; echo kept > f","session":"new"}`)
	id, _ := out["session"].(string)
	if id == "" {
		t.Fatalf("no session id: %v", out)
	}
	_, out = post(t, ts.URL, "secret-token", `{"script":"echo $K $(pwd) $(< f)","session":"`+id+`"}`)
	if out["stdout"] != "v /tmp kept\n" {
		t.Fatalf("session state lost: %v", out)
	}
	_, out = post(t, ts.URL, "secret-token", `{"script":"echo [$K] $(pwd)"}`)
	if out["stdout"] != "[] /work\n" {
		t.Fatalf("stateless call saw session: %v", out)
	}
}

func TestMetrics(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	post(t, ts.URL, "secret-token", `{"script":"echo hi"}`)
	post(t, ts.URL, "secret-token", `{"script":"while :; do :; done","timeout":0.2}`)
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`bashbox_runs_total{outcome="ok",profile="default"} 1`, `bashbox_budget_trips_total{budget="timeout"} 1`, "bashbox_run_duration_seconds_bucket", "bashbox_runs_in_flight 0"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestMCPInMemory(t *testing.T) {
	s, _ := newServer(t)
	cs := mcpClient(t, s)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 3 || tools.Tools[0].Name != "Bashbox" || tools.Tools[1].Name != "read_file" || tools.Tools[2].Name != "write_file" {
		t.Fatalf("tools %+v %v", tools, err)
	}
	if !strings.Contains(tools.Tools[0].Description, "/work (ro)") {
		t.Fatalf("description: %s", tools.Tools[0].Description)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Bashbox", Arguments: map[string]any{"command": "cat hello.txt; echo oops >&2; exit 2", "description": "read the greeting file"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if text != "hello from the volume\noops\nexit: 2\n" || !res.IsError {
		t.Fatalf("text %q", text)
	}
	sc, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(sc), `"exit_code":2`) || !strings.Contains(string(sc), `"commands_run"`) {
		t.Fatalf("structured %s", sc)
	}
}

func TestMCPOverHTTP(t *testing.T) {
	s, _ := newServer(t)
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hc := &http.Client{Transport: bearer{"secret-token"}}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Bashbox", Arguments: map[string]any{"command": "echo over http"}})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "over http\n" {
		t.Fatalf("%v %+v", err, res)
	}
	// No token, no MCP.
	resp, _ := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	if resp.StatusCode != 401 {
		t.Fatalf("unauthenticated MCP: %d", resp.StatusCode)
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"profiles:\n  p:\n    volumes: []\n    bogus: 1\n":                                                                                              "test.yaml:4:5: profiles.p.bogus: unknown key",
		"volumes:\n  v: {host: /no/such/dir, guest: /work}\nprofiles:\n  p: {volumes: [v]}\n":                                                           "test.yaml:2:",
		"profiles:\n  p:\n    fallback: {commands: [no-such-binary-xyz]}\n":                                                                             "profiles.p.fallback.commands",
		"volumes:\n  a: {host: " + dir + ", guest: /w, mode: ro}\n  b: {host: " + dir + ", guest: /w/x, mode: rw}\nprofiles:\n  p: {volumes: [a, b]}\n": "nested in read-only",
		"profiles:\n  p: {volumes: [missing]}\n":                                                                                                        "unknown volume",
		"volumes:\n  a: {host: " + dir + ", mode: wx}\nprofiles:\n  p: {volumes: [a]}\n":                                                                "volumes.a.mode",
	}
	for yml, want := range cases {
		_, err := config.Parse("test.yaml", []byte(yml))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want it to mention %q", yml, err, want)
		}
	}
}
