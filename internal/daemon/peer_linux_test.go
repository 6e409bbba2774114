package daemon

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// TM-DMN-001: a process of another user that reaches the socket (one made
// with loose permissions, or passed on) is declined before the daemon reads
// its request: it runs nothing as the daemon's user, and sees nothing of
// the daemon's files. The launcher is this test binary, started again as
// nobody (65534), which needs root; the test fails rather than skips
// without it.
func TestServeDeclinesAnotherUser(t *testing.T) {
	if os.Getenv("BBX_FOREIGN_SOCK") != "" {
		t.Skip("the helper process runs TestForeignLauncherHelper only")
	}
	if os.Geteuid() != 0 {
		t.Fatal("TM-DMN-001 needs root, to start a launcher as another user (CI runs as root)")
	}
	dir, err := os.MkdirTemp("", "bbx-foreign-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	sock := filepath.Join(dir, "open.sock")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o666) // as loose as can be: only the peer check stands
	var calls atomic.Int32
	h := func(req *Request) func(context.Context) Outcome {
		calls.Add(1)
		return func(context.Context) Outcome { return Outcome{} }
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, l, h, Config{}) }()
	defer func() { cancel(); <-done }()

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "launcher.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestForeignLauncherHelper$")
	cmd.Env = []string{"BBX_FOREIGN_SOCK=" + sock}
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the foreign launcher failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "reply=D") {
		t.Fatalf("the foreign launcher got %q, want reply=D", out)
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("the handler saw %d requests of another user", n)
	}
	// The same request from this user is served: the check is the uid,
	// not something else about the helper.
	c := dial(t, sock)
	in, outw, errw, _, _ := pipeFiles(t)
	c.send(t, encode(0o22, "/", "x"), in, outw, errw)
	if got := c.reply(); got != "AX0" || calls.Load() != 1 {
		t.Fatalf("this user's request: %q after %d calls", got, calls.Load())
	}
}

// TestForeignLauncherHelper is the launcher TestServeDeclinesAnotherUser
// starts as another user.
func TestForeignLauncherHelper(t *testing.T) {
	sock := os.Getenv("BBX_FOREIGN_SOCK")
	if sock == "" {
		t.Skip("run by TestServeDeclinesAnotherUser")
	}
	c := dial(t, sock)
	// The daemon may decline and close before all of it is written.
	c.trySend(encode(0o22, "/", "x"), os.Stdin, os.Stdout, os.Stderr)
	io.WriteString(os.Stdout, "reply="+c.reply()+"\n")
}
