package serve_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run `bashbox serve` as the operator does: built from the
// tree, as separate processes, stopped with signals.

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

func bashboxBin(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bashbox-bin")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "bashbox")
		if out, err := exec.Command("go", "build", "-o", builtBin, "../cmd/bashbox").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

const (
	testToken  = "replica-test-token"
	otherToken = "other-profile-token"
)

// replica is one `bashbox serve --http` process.
type replica struct {
	cmd  *exec.Cmd
	url  string
	logs *bytes.Buffer
	done chan error
}

// startReplica starts serve with the config text and waits for its URL.
func startReplica(t testing.TB, config string, args ...string) *replica {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "bashbox.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bashboxBin(t), append([]string{"serve", "--config", cfg, "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "BASHBOX_TOKEN="+testToken)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &replica{cmd: cmd, logs: &bytes.Buffer{}, done: make(chan error, 1)}
	urlc := make(chan string, 1)
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			r.logs.WriteString(line + "\n")
			mu.Unlock()
			var rec struct{ Msg, URL string }
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "bashbox serving" {
				urlc <- rec.URL
			}
		}
		r.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-r.done
		}
	})
	select {
	case r.url = <-urlc:
	case err := <-r.done:
		t.Fatalf("serve exited at start: %v\n%s", err, r.logs)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	return r
}

type runReply struct {
	Status   int
	Body     string
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exit_code"`
	Session  string `json:"session"`
	Error    string `json:"error"`
	Retry    string
}

func (r *replica) run(t testing.TB, session, script string) runReply {
	t.Helper()
	return r.runAs(t, testToken, session, script)
}

func (r *replica) runAs(t testing.TB, token, session, script string) runReply {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"script": script, "session": session})
	req, _ := http.NewRequest("POST", r.url+"/v1/run", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return runReply{Status: -1, Error: err.Error()}
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	out := runReply{}
	json.Unmarshal(buf.Bytes(), &out)
	out.Status, out.Body, out.Retry = resp.StatusCode, buf.String(), resp.Header.Get("Retry-After")
	return out
}

func (r *replica) get(path string) int {
	resp, err := http.Get(r.url + path)
	if err != nil {
		return -1
	}
	resp.Body.Close()
	return resp.StatusCode
}

// redisServer runs a private redis-server on a free port, persisting to
// an append-only file in dir so that a restart keeps what was saved (a
// SIGTERM'd redis-server flushes it before it exits).
type redisServer struct {
	bin, dir string
	port     int
	cmd      *exec.Cmd
}

func startRedis(t testing.TB) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("redis-server is not installed (.ci/run installs it)")
		}
		t.Skip("redis-server is not installed (apt-get install redis-server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	rs := &redisServer{bin: bin, dir: t.TempDir(), port: port}
	rs.start(t)
	t.Cleanup(rs.stop)
	return rs
}

func (rs *redisServer) url() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", rs.port) }

func (rs *redisServer) start(t testing.TB) {
	t.Helper()
	rs.cmd = exec.Command(rs.bin, "--port", fmt.Sprint(rs.port), "--bind", "127.0.0.1", "--dir", rs.dir,
		"--save", "", "--appendonly", "yes", "--appendfsync", "everysec")
	if err := rs.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", rs.port)); err == nil {
			c.Close()
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("redis-server did not start")
}

func (rs *redisServer) stop() {
	if rs.cmd != nil && rs.cmd.ProcessState == nil {
		rs.cmd.Process.Signal(syscall.SIGTERM)
		rs.cmd.Wait()
	}
}

func serveConfig(extra string) string {
	return `server:
  drain_timeout: 20s
volumes:
  scratch:
    guest: /scratch
    mode: ephemeral
profiles:
  default:
    volumes: [scratch]
    workdir: /scratch
    token_env: BASHBOX_TOKEN
    sessions:
      max: 20
  other:
    volumes: [scratch]
    token: ` + otherToken + `
    sessions:
      max: 20
` + extra
}

func TestDrainOnSIGTERM(t *testing.T) {
	r := startReplica(t, serveConfig(""))
	if r.get("/readyz") != 200 || r.get("/healthz") != 200 {
		t.Fatal("not ready at start")
	}
	sess := r.run(t, "new", "x=kept")
	if sess.Status != 200 {
		t.Fatalf("session: %+v", sess)
	}
	const n = 6
	results := make(chan runReply, n+1)
	for i := 0; i < n; i++ {
		go func() { results <- r.run(t, "", "sleep 2; echo finished") }()
	}
	go func() { results <- r.run(t, sess.Session, "sleep 2; echo $x finished") }()
	time.Sleep(500 * time.Millisecond) // the runs are in flight
	start := time.Now()
	r.cmd.Process.Signal(syscall.SIGTERM)
	deadline := time.Now().Add(5 * time.Second)
	for r.get("/readyz") != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatal("/readyz did not turn 503")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := r.get("/healthz"); got != 200 {
		t.Errorf("/healthz while draining: %d, want 200 (alive, just not ready)", got)
	}
	refused := r.run(t, "", "echo new")
	if refused.Status != http.StatusServiceUnavailable || refused.Retry == "" || !strings.Contains(refused.Error, "shutting down") {
		t.Errorf("a new run while draining: %d retry-after %q %q", refused.Status, refused.Retry, refused.Body)
	}
	for i := 0; i < n+1; i++ {
		res := <-results
		if res.Status != 200 || res.ExitCode != 0 || !strings.HasSuffix(res.Stdout, "finished\n") {
			t.Errorf("a run in flight was cut: %+v", res)
		}
	}
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("serve exited with %v, want 0\n%s", err, r.logs)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not exit after draining")
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("drain took %v for 2 s runs", took)
	}
}

func TestDrainTimeoutCutsTheRest(t *testing.T) {
	r := startReplica(t, strings.Replace(serveConfig(""), "drain_timeout: 20s", "drain_timeout: 500ms", 1))
	res := make(chan runReply, 1)
	go func() { res <- r.run(t, "", "sleep 20; echo never") }()
	time.Sleep(500 * time.Millisecond)
	r.cmd.Process.Signal(syscall.SIGTERM)
	got := <-res
	if got.Status != 200 || got.ExitCode == 0 || strings.Contains(got.Stdout, "never") {
		t.Errorf("a run past the drain timeout: %+v", got)
	}
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("serve exited with %v, want 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not exit")
	}
}
