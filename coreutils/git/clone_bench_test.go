package git

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// TestCloneLargeRepository clones a 10,000-file repository inside the
// sandbox and checks it takes seconds (BASHBOX_GIT_BIG=1 to run).
func TestCloneLargeRepository(t *testing.T) {
	if os.Getenv("BASHBOX_GIT_BIG") == "" {
		t.Skip("set BASHBOX_GIT_BIG=1")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10000; i++ {
		d := filepath.Join(src, "d"+string(rune('a'+i%20)), "e"+string(rune('a'+(i/20)%25)))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f"+strings.Repeat("x", i%5)+itoa(i)+".txt"), bytes.Repeat([]byte("line "+itoa(i)+"\n"), 20), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-qm", "big"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = src
		cmd.Env = append(testEnv, "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	table, _ := volumes.NewTable([]volumes.Volume{{HostDir: dir, GuestPath: dir, Mode: volumes.ReadWrite}})
	ns := table.Namespace(volumes.Options{Quota: &overlayfs.Quota{}, Home: "/home/user"})
	var o, e bytes.Buffer
	c := &builtins.Call{Args: []string{"git", "clone", "-q", "src", "dst"}, Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e,
		Env: testEnv, Dir: dir, FS: ns, Umask: 0o022}
	start := time.Now()
	if code := Run(context.Background(), c); code != 0 {
		t.Fatalf("clone failed: %s", e.String())
	}
	t.Logf("clone took %v", time.Since(start))
	start = time.Now()
	o.Reset()
	c.Args = []string{"git", "status", "--porcelain"}
	c.Dir = filepath.Join(dir, "dst")
	if code := Run(context.Background(), c); code != 0 || o.Len() != 0 {
		t.Fatalf("status after clone: %d %q %s", code, o.String(), e.String())
	}
	t.Logf("status took %v", time.Since(start))
	for _, args := range [][]string{{"status"}, {"diff"}, {"log", "--oneline"}, {"add", "-A"}, {"commit", "-qm", "x", "--allow-empty"}} {
		start = time.Now()
		o.Reset()
		c.Args = append([]string{"git"}, args...)
		Run(context.Background(), c)
		t.Logf("%v took %v", args, time.Since(start))
	}
	start = time.Now()
	c.Args = []string{"git", "log", "-p"}
	c.Stdout = &closingWriter{limit: 1000}
	code := Run(context.Background(), c)
	t.Logf("log -p into a closed pipe: status %d after %v", code, time.Since(start))
	if code != 141 {
		t.Errorf("log -p into a closed pipe: status %d", code)
	}
}

func itoa(i int) string {
	b := []byte{}
	if i == 0 {
		return "0"
	}
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

// closingWriter fails like a pipe whose reader has gone, after limit bytes.
type closingWriter struct{ n, limit int }

func (w *closingWriter) Write(p []byte) (int, error) {
	if w.n >= w.limit {
		return 0, builtins.ErrPipeClosed
	}
	w.n += len(p)
	return len(p), nil
}
