package fallback_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/volumes"
)

// serveRepo serves a bare copy of a repository over git's smart HTTP
// protocol (git http-backend through CGI) on 127.0.0.1 and counts the
// requests that reach it.
func serveRepo(t *testing.T) (url string, hits *atomic.Int64) {
	t.Helper()
	src := repo(t)
	projects := t.TempDir()
	if out, err := exec.Command("git", "clone", "-q", "--bare", src, filepath.Join(projects, "repo.git")).CombinedOutput(); err != nil {
		t.Fatalf("bare clone: %v %s", err, out)
	}
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	backend := &cgi.Handler{Path: gitBin, Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + projects, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + projects}}
	hits = new(atomic.Int64)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listener: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		backend.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/repo.git", hits
}

// TestFallbackNetworkOffUnlessEnabled: a fallback git clone from a local
// listener gets no connection by default, and works for a command the
// operator gave the network; the audit line says which.
func TestFallbackNetworkOffUnlessEnabled(t *testing.T) {
	backend := requireConfinement(t)
	url, hits := serveRepo(t)
	for _, network := range []bool{false, true} {
		dir := t.TempDir()
		var log bytes.Buffer
		cfg := fallback.Config{Commands: []string{"git"}, Backend: backend, Logger: slog.New(slog.NewJSONHandler(&log, nil))}
		if network {
			cfg.Network = []string{"git"}
		}
		r, err := fallback.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := bashbox.New(bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}, Fallback: r.Run,
			Limits: bashbox.Limits{Timeout: 30 * time.Second}})
		if err != nil {
			t.Fatal(err)
		}
		before := hits.Load()
		res, err := b.Run(context.Background(), bashbox.Request{Script: "git clone -q " + url + " c && cat c/a.txt"})
		b.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := hits.Load() - before
		if network {
			if res.ExitCode != 0 || res.Stdout != "one\n" || got == 0 {
				t.Fatalf("network on: exit %d, %d requests, stdout %q stderr %q", res.ExitCode, got, res.Stdout, res.Stderr)
			}
			if !strings.Contains(log.String(), `"network":true`) {
				t.Errorf("audit line does not record network on: %s", log.String())
			}
			continue
		}
		if res.ExitCode == 0 || got != 0 {
			t.Fatalf("network off: exit %d, %d requests reached the listener: %q", res.ExitCode, got, res.Stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "c", "a.txt")); err == nil {
			t.Fatal("network off: the clone landed")
		}
		if !strings.Contains(log.String(), `"network":false`) {
			t.Errorf("audit line does not record network off: %s", log.String())
		}
	}
}

// TestFallbackFailsClosedWithoutSandbox: with no OS sandbox, fallbacks are
// refused with the missing piece named; the operator's explicit opt-out
// runs them unconfined, with a warning logged at start.
func TestFallbackFailsClosedWithoutSandbox(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	dir := repo(t)
	t.Setenv("PATH", t.TempDir()) // no bwrap
	look := func(string) (string, error) { return gitBin, nil }
	for _, optOut := range []bool{false, true} {
		var log bytes.Buffer
		r, err := fallback.New(fallback.Config{Commands: []string{"git"}, LookPath: look,
			Backend: hostsandbox.Select(hostsandbox.Policy{AllowNoSandbox: optOut}), Logger: slog.New(slog.NewJSONHandler(&log, nil))})
		if err != nil {
			t.Fatal(err)
		}
		b, err := bashbox.New(bashbox.Config{Volumes: []volumes.Volume{{HostDir: dir, GuestPath: "/work", Mode: volumes.ReadWrite}}, Fallback: r.Run})
		if err != nil {
			t.Fatal(err)
		}
		res, err := b.Run(context.Background(), bashbox.Request{Script: "git log --format=%s"})
		b.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !optOut {
			want := "bashbox: git: no OS sandbox for fallback commands (bubblewrap not found); see bashbox doctor\n"
			if res.ExitCode != 126 || res.Stderr != want || res.Stdout != "" {
				t.Fatalf("fail closed: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
			}
			continue
		}
		if res.ExitCode != 0 || res.Stdout != "first\n" {
			t.Fatalf("opt-out: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
		}
		if !strings.Contains(log.String(), `"level":"WARN"`) || !strings.Contains(log.String(), "NO OS sandbox") {
			t.Fatalf("opt-out logged no warning: %s", log.String())
		}
	}
}
