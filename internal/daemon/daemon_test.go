//go:build unix

package daemon

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// client is a launcher written in Go: it sends a request with three
// descriptors and returns the daemon's replies.
type client struct {
	c *net.UnixConn
}

func dial(t testing.TB, sock string) *client {
	t.Helper()
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	return &client{c: c}
}

func encode(umask uint32, dir string, args ...string) []byte {
	b := append([]byte("BBX1"), make([]byte, 8)...)
	binary.LittleEndian.PutUint32(b[4:], umask)
	binary.LittleEndian.PutUint32(b[8:], uint32(1+len(args)))
	for _, s := range append([]string{dir}, args...) {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	return b
}

func (c *client) send(t testing.TB, payload []byte, files ...*os.File) {
	t.Helper()
	if err := c.trySend(payload, files...); err != nil {
		t.Fatal(err)
	}
}

// trySend sends like send and returns the error: a daemon that declines
// a bad request may close before all of it is written.
func (c *client) trySend(payload []byte, files ...*os.File) error {
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	if _, _, err := c.c.WriteMsgUnix(payload[:1], syscall.UnixRights(fds...), nil); err != nil {
		return err
	}
	_, err := c.c.Write(payload[1:])
	return err
}

// reply reads the daemon's answer: "D", "A" then "X<status>" or "K<sig>",
// or "EOF" where the stream ended.
func (c *client) reply() string {
	var out strings.Builder
	var b [1]byte
	for {
		if _, err := c.c.Read(b[:]); err != nil {
			out.WriteString("EOF")
			return out.String()
		}
		switch b[0] {
		case 'D', 'A':
			out.WriteByte(b[0])
			if b[0] == 'D' {
				return out.String()
			}
		case 'X', 'K':
			var v [4]byte
			if _, err := io.ReadFull(c.c, v[:]); err != nil {
				out.WriteString("short")
				return out.String()
			}
			fmt.Fprintf(&out, "%c%d", b[0], binary.LittleEndian.Uint32(v[:]))
			return out.String()
		default:
			fmt.Fprintf(&out, "?%d", b[0])
			return out.String()
		}
	}
}

func pipeFiles(t testing.TB) (stdin, stdout, stderr, outR, errR *os.File) {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	inW.Close()
	oR, oW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	eR, eW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inR.Close(); oR.Close(); eR.Close(); oW.Close(); eW.Close() })
	return inR, oW, eW, oR, eR
}

// serve starts Serve with h in a fresh 0700 directory and returns the
// socket and a func that stops the daemon and returns Serve's error.
func serve(t *testing.T, h Handler, cfg Config) (string, func() error) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "d", "daemon.sock")
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, l, h, cfg) }()
	var once sync.Once
	var serr error
	stop := func() error {
		once.Do(func() {
			cancel()
			select {
			case serr = <-done:
			case <-time.After(10 * time.Second):
				serr = errors.New("Serve did not return")
			}
		})
		return serr
	}
	t.Cleanup(func() { stop() })
	return sock, stop
}

// echoHandler runs "echo ARGS..." onto the launcher's stdout; "exit N"
// ends with N; "sleep" waits for its context; "panic" panics.
func echoHandler(req *Request) func(context.Context) Outcome {
	if len(req.Args) == 0 || req.Args[0] == "decline" {
		return nil
	}
	return func(ctx context.Context) Outcome {
		switch req.Args[0] {
		case "panic":
			panic("boom")
		case "sleep":
			select {
			case <-ctx.Done():
				return Outcome{Status: 130}
			case <-req.Interrupt:
				return Outcome{Status: 130}
			}
		case "exit":
			var n int
			fmt.Sscan(req.Args[1], &n)
			return Outcome{Status: n}
		case "pipe":
			return Outcome{Signal: syscall.SIGPIPE}
		}
		fmt.Fprintf(req.Stdout, "%s in %s\n", strings.Join(req.Args, " "), req.Dir)
		return Outcome{}
	}
}

func TestServeRunsOnTheLaunchersDescriptors(t *testing.T) {
	sock, stop := serve(t, echoHandler, Config{})
	in, out, errw, outR, _ := pipeFiles(t)
	c := dial(t, sock)
	c.send(t, encode(0o22, "/some/dir", "hello", "world"), in, out, errw)
	if got := c.reply(); got != "AX0" {
		t.Fatalf("reply %q, want AX0", got)
	}
	out.Close()
	data, _ := io.ReadAll(outR)
	if string(data) != "hello world in /some/dir\n" {
		t.Fatalf("stdout %q", data)
	}
	for args, want := range map[string]string{"exit 7": "AX7", "pipe": "AK13", "decline": "D", "panic": "AX125"} {
		c := dial(t, sock)
		in, out, errw, _, errR := pipeFiles(t)
		c.send(t, encode(0o22, "/", strings.Fields(args)...), in, out, errw)
		if got := c.reply(); got != want {
			t.Errorf("%s: reply %q, want %q", args, got, want)
		}
		if args == "panic" {
			errw.Close()
			msg, _ := io.ReadAll(errR)
			if !strings.Contains(string(msg), "internal error: boom") {
				t.Errorf("a panicking run told its launcher %q", msg)
			}
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestServeRefusesBadRequests(t *testing.T) {
	called := false
	h := func(req *Request) func(context.Context) Outcome {
		called = true
		return nil
	}
	sock, _ := serve(t, h, Config{})
	in, out, errw, _, _ := pipeFiles(t)
	for name, send := range map[string]func(c *client){
		"no descriptors":  func(c *client) { c.c.Write(encode(0o22, "/", "x")) },
		"two descriptors": func(c *client) { c.trySend(encode(0o22, "/", "x"), in, out) },
		"bad magic":       func(c *client) { p := encode(0o22, "/", "x"); copy(p, "HTTP"); c.trySend(p, in, out, errw) },
		"relative dir":    func(c *client) { c.trySend(encode(0o22, "rel", "x"), in, out, errw) },
		"huge count": func(c *client) {
			p := encode(0o22, "/")
			binary.LittleEndian.PutUint32(p[8:], 1<<30)
			c.trySend(p, in, out, errw)
		},
		"string too large": func(c *client) {
			p := encode(0o22, "/")
			binary.LittleEndian.PutUint32(p[12:], maxRequest)
			c.trySend(p, in, out, errw)
		},
	} {
		c := dial(t, sock)
		send(c)
		c.c.CloseWrite()
		if got := c.reply(); got != "D" && got != "EOF" {
			t.Errorf("%s: reply %q, want D", name, got)
		}
	}
	if called {
		t.Error("the handler saw a malformed request")
	}
}

// A launcher that goes away (killed) cancels its run; SIGINT ('I')
// interrupts it; neither leaves a goroutine behind.
func TestServeCancelsRunsOfLaunchersThatGo(t *testing.T) {
	before := runtime.NumGoroutine()
	sock, stop := serve(t, echoHandler, Config{})
	in, out, errw, _, _ := pipeFiles(t)

	c := dial(t, sock)
	c.send(t, encode(0o22, "/", "sleep"), in, out, errw)
	var a [1]byte
	if _, err := c.c.Read(a[:]); err != nil || a[0] != 'A' {
		t.Fatalf("not accepted: %q %v", a, err)
	}
	c.c.Write([]byte{'I'})
	if got := c.reply(); got != "X130" {
		t.Fatalf("interrupted run: %q", got)
	}

	c = dial(t, sock)
	c.send(t, encode(0o22, "/", "sleep"), in, out, errw)
	if _, err := c.c.Read(a[:]); err != nil || a[0] != 'A' {
		t.Fatalf("not accepted: %q %v", a, err)
	}
	c.c.Close() // the launcher was killed
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after the daemon stopped, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// MaxRuns bounds the runs at once: one more launcher is declined, and
// runs itself, rather than queued behind them.
func TestServeDeclinesBeyondMaxRuns(t *testing.T) {
	sock, _ := serve(t, echoHandler, Config{MaxRuns: 2})
	in, out, errw, _, _ := pipeFiles(t)
	var held []*client
	for range 2 {
		c := dial(t, sock)
		c.send(t, encode(0o22, "/", "sleep"), in, out, errw)
		var a [1]byte
		if _, err := c.c.Read(a[:]); err != nil || a[0] != 'A' {
			t.Fatalf("not accepted: %q %v", a, err)
		}
		held = append(held, c)
	}
	c := dial(t, sock)
	c.send(t, encode(0o22, "/", "hello"), in, out, errw)
	if got := c.reply(); got != "D" {
		t.Fatalf("third run at MaxRuns 2: %q, want D", got)
	}
	for _, c := range held {
		c.c.Close()
	}
}

func TestServeManyLaunchersAtOnce(t *testing.T) {
	sock, stop := serve(t, echoHandler, Config{MaxRuns: 200})
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, out, errw, outR, _ := pipeFiles(t)
			c := dial(t, sock)
			defer c.c.Close()
			c.send(t, encode(0o22, "/d", "n", fmt.Sprint(i)), in, out, errw)
			if got := c.reply(); got != "AX0" {
				errs <- fmt.Errorf("launcher %d: %q", i, got)
				return
			}
			out.Close()
			data, _ := io.ReadAll(outR)
			if want := fmt.Sprintf("n %d in /d\n", i); string(data) != want {
				errs <- fmt.Errorf("launcher %d: stdout %q", i, data)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestServeIdleExitAndStale(t *testing.T) {
	sock, stop := serve(t, echoHandler, Config{IdleExit: 50 * time.Millisecond})
	// Serve returns by itself once idle (stop only collects its error).
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Lstat(sock); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an idle daemon still listens after 5s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(sock); err == nil {
		t.Error("the socket file is left behind")
	}

	var stale atomic.Bool
	sock, stop = serve(t, echoHandler, Config{Stale: stale.Load})
	in, out, errw, _, _ := pipeFiles(t)
	c := dial(t, sock)
	c.send(t, encode(0o22, "/", "hello"), in, out, errw)
	if got := c.reply(); got != "AX0" {
		t.Fatalf("reply %q", got)
	}
	stale.Store(true)
	c = dial(t, sock)
	c.send(t, encode(0o22, "/", "hello"), in, out, errw)
	if got := c.reply(); got != "D" {
		t.Fatalf("a stale daemon answered %q, want D", got)
	}
	if err := stop(); !errors.Is(err, ErrStale) {
		t.Fatalf("Serve returned %v, want ErrStale", err)
	}
}

// TM-DMN-002: the socket's directory is the launcher's only proof that
// nobody else made the socket; Listen refuses one others can enter or
// that is not a real directory.
func TestListenRefusesUnsafeDirectories(t *testing.T) {
	base := t.TempDir()
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o755)
	if _, err := Listen(filepath.Join(open, "d.sock")); err == nil || !strings.Contains(err.Error(), "lets others in") {
		t.Errorf("a 0755 directory: %v", err)
	}
	real := filepath.Join(base, "real")
	os.Mkdir(real, 0o700)
	link := filepath.Join(base, "link")
	os.Symlink(real, link)
	if _, err := Listen(filepath.Join(link, "d.sock")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("a symlinked directory: %v", err)
	}
	sock := filepath.Join(real, "d.sock")
	l, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(sock)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v, want 0600", fi.Mode().Perm())
	}
	if _, err := Listen(sock); err == nil || !strings.Contains(err.Error(), "already listens") {
		t.Errorf("a second daemon on a live socket: %v", err)
	}
	l.Close()
	// A socket file left by a daemon that died is replaced.
	os.WriteFile(sock, nil, 0o600)
	l, err = Listen(sock)
	if err != nil {
		t.Fatalf("a stale socket file: %v", err)
	}
	l.Close()
}

func TestDefaultSocket(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got, want := DefaultSocket(getenv), fmt.Sprintf("/tmp/bashbox-%d/daemon.sock", os.Geteuid()); got != want {
		t.Errorf("default %q, want %q", got, want)
	}
	env[SocketEnv] = "/run/x.sock"
	if got := DefaultSocket(getenv); got != "/run/x.sock" {
		t.Errorf("with %s: %q", SocketEnv, got)
	}
}
