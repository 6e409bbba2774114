//go:build unix

// Package daemon serves bashbox runs to a small native launcher over a Unix
// socket, so that a `bashbox run` costs the launcher's start (a static C
// program, well under a millisecond) instead of a Go process's.
//
// A Go binary cannot start as fast as bash: the runtime alone (heap, signal
// handlers, its threads) costs more than `bash -c true`. The launcher
// (launcher/bashbox.c) therefore connects to a daemon started once by the
// operator, sends its working directory, arguments, umask and descriptors
// 0, 1 and 2, and waits for the exit status. The daemon runs the command
// on those descriptors, exactly as the CLI would have, or declines before
// touching them, and the launcher then executes the Go CLI itself.
//
// Wire format, little-endian. Launcher to daemon, in one stream whose first
// byte carries the three descriptors (SCM_RIGHTS):
//
//	"BBX1"  u32 umask  u32 n  n × (u32 len, len bytes)
//
// where the n strings are the working directory, then the arguments after
// the program name. Later, 'I' when the launcher gets SIGINT. Daemon to
// launcher:
//
//	'D'                    declined: nothing was read or written
//	'A'                    accepted, followed when the run ends by one of
//	'X' u32 status         exit with status
//	'K' u32 signal         die of signal (a write met a closed pipe)
//
// A launcher that reads nothing but the end of the stream was not served
// (a daemon stopping drops the connections it has not accepted) and may
// run the command itself; one that read 'A' must not, for the command may
// have done part of its work. A launcher that goes away cancels its run.
package daemon

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Request is one launcher's command.
type Request struct {
	// Dir is the launcher's working directory, absolute.
	Dir string
	// Args are the arguments after the program name.
	Args []string
	// Umask is the launcher's file mode creation mask.
	Umask uint32
	// Stdin, Stdout and Stderr are the launcher's descriptors 0, 1, 2.
	Stdin, Stdout, Stderr *os.File
	// Interrupt is closed when the launcher gets SIGINT.
	Interrupt <-chan struct{}
}

// Outcome is how a handled command ended: its exit status, or the signal
// the launcher must die of (Signal != 0).
type Outcome struct {
	Status int
	Signal syscall.Signal
}

// Handler looks at req and returns the func that runs it, or nil when the
// launcher should run the command itself. It must leave req's descriptors
// alone; the func it returns uses them, and its context ends when the
// launcher goes away or the daemon's RunContext ends.
type Handler func(req *Request) func(ctx context.Context) Outcome

// Config bounds a daemon.
type Config struct {
	// MaxRuns is how many commands run at once (0: 64). A launcher that
	// comes when all are busy is declined and runs the command itself.
	MaxRuns int
	// IdleExit ends Serve after this long without a connection (0: never).
	IdleExit time.Duration
	// Stale, polled before each command, says the daemon should decline
	// it and end (its binary was replaced). Nil: never.
	Stale func() bool
	// RunContext is the parent of every run's context (nil: Background).
	// Serve's own context only stops accepting: runs that started go on
	// until they end or RunContext does.
	RunContext context.Context
	// Procs, when above 1, is the GOMAXPROCS of a busy daemon: it runs
	// with one processor while it serves one short run at a time (see
	// procs.go). 0 leaves GOMAXPROCS alone.
	Procs int
	// Logf reports refused connections; nil: silent.
	Logf func(format string, args ...any)
}

// maxRequest bounds a request's strings: Linux's whole argv is at most a
// quarter of the stack limit, 2 MiB by default.
const maxRequest = 16 << 20

var magic = [4]byte{'B', 'B', 'X', '1'}

// ErrStale is what Serve returns when Config.Stale said so.
var ErrStale = errors.New("daemon: the executable was replaced")

// Serve accepts launchers on l until ctx ends, the daemon idles for
// cfg.IdleExit or goes stale, and returns after every run it started has
// ended. It closes l.
func Serve(ctx context.Context, l *net.UnixListener, h Handler, cfg Config) error {
	if cfg.MaxRuns <= 0 {
		cfg.MaxRuns = 64
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	gov := newProcs(cfg.Procs)
	defer gov.stop()
	var (
		wg    sync.WaitGroup
		slots = make(chan struct{}, cfg.MaxRuns)
		mu    sync.Mutex
		last  = time.Now()
		busy  int
	)
	touch := func(d int) {
		mu.Lock()
		busy += d
		last = time.Now()
		mu.Unlock()
	}
	go func() {
		<-ctx.Done()
		l.Close()
	}()
	if cfg.IdleExit > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(min(cfg.IdleExit/4+time.Millisecond, time.Second))
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					mu.Lock()
					idle := busy == 0 && time.Since(last) >= cfg.IdleExit
					mu.Unlock()
					if idle {
						stop(nil)
						return
					}
				}
			}
		}()
	}
	var err error
	for {
		c, aerr := l.AcceptUnix()
		if aerr != nil {
			if ctx.Err() == nil {
				var ne net.Error
				if errors.As(aerr, &ne) && ne.Timeout() || errors.Is(aerr, syscall.EMFILE) || errors.Is(aerr, syscall.ENFILE) {
					time.Sleep(10 * time.Millisecond) // out of descriptors: let runs end
					continue
				}
				err = aerr
			}
			break
		}
		touch(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer touch(-1)
			defer c.Close()
			serveConn(c, h, cfg, slots, gov, func() { stop(ErrStale) })
		}()
	}
	stop(nil)
	wg.Wait()
	if cause := context.Cause(ctx); errors.Is(cause, ErrStale) {
		return ErrStale
	}
	return err
}

// serveConn serves one launcher. A panic in the handler ends its own run
// (status 125, as an internal error of the CLI does), not the daemon.
func serveConn(c *net.UnixConn, h Handler, cfg Config, slots chan struct{}, gov *procs, stale func()) {
	if err := checkPeer(c); err != nil {
		if cfg.Logf != nil {
			cfg.Logf("bashbox daemon: declined a connection: %v", err)
		}
		// Declined rather than dropped: the launcher runs the command
		// itself, with its own rights, and nothing of it came here.
		c.Write([]byte{'D'})
		return
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second)) // a launcher sends its request at once
	req, files, err := readRequest(c)
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	if err != nil {
		if cfg.Logf != nil && !errors.Is(err, io.EOF) {
			cfg.Logf("bashbox daemon: bad request: %v", err)
		}
		c.Write([]byte{'D'})
		return
	}
	c.SetReadDeadline(time.Time{})
	if cfg.Stale != nil && cfg.Stale() {
		// Stopping first: once the launcher has its answer, whatever
		// it or anyone does next, Serve's reason to end is recorded.
		stale()
		c.Write([]byte{'D'})
		return
	}
	select {
	case slots <- struct{}{}:
		defer func() { <-slots }()
	default:
		c.Write([]byte{'D'})
		return
	}

	intr := make(chan struct{})
	req.Interrupt = intr
	run := prepare(h, req)
	if run == nil {
		c.Write([]byte{'D'})
		return
	}
	parent := cfg.RunContext
	if parent == nil {
		parent = context.Background()
	}
	runCtx, cancel := context.WithCancel(parent)
	defer cancel()
	if _, err := c.Write([]byte{'A'}); err != nil {
		return
	}
	readerDone := make(chan struct{})
	go func() {
		// The launcher's side: 'I' for SIGINT; its end closing (it was
		// killed) cancels the run. The reader ends when c closes.
		defer close(readerDone)
		var b [1]byte
		interrupted := false
		for {
			if _, err := c.Read(b[:]); err != nil {
				cancel()
				return
			}
			if b[0] == 'I' && !interrupted {
				interrupted = true
				close(intr)
			}
		}
	}()
	end := gov.start()
	out := runGuarded(runCtx, run, req.Stderr)
	end()
	// The run's copies of the launcher's descriptors close before the
	// status goes out, so a pipe's reader sees its end when the launcher
	// exits, not later.
	for _, f := range files {
		f.Close()
	}
	files = nil
	var reply []byte
	switch {
	case out.Signal != 0:
		reply = binary.LittleEndian.AppendUint32([]byte{'K'}, uint32(out.Signal))
	default:
		reply = binary.LittleEndian.AppendUint32([]byte{'X'}, uint32(out.Status))
	}
	c.Write(reply)
	c.CloseRead()
	c.Close()
	<-readerDone
}

// prepare asks h about req; a panic there declines the command.
func prepare(h Handler, req *Request) (run func(context.Context) Outcome) {
	defer func() {
		if recover() != nil {
			run = nil
		}
	}()
	return h(req)
}

// runGuarded runs run; a panic ends that run with status 125, as an
// internal error of the CLI does, and not the daemon.
func runGuarded(ctx context.Context, run func(context.Context) Outcome, stderr io.Writer) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "bashbox: internal error: %v\n", r)
			out = Outcome{Status: 125}
		}
	}()
	return run(ctx)
}

// readRequest reads a launcher's request and the three descriptors that
// come with its first byte.
func readRequest(c *net.UnixConn) (*Request, []*os.File, error) {
	// A launcher's request is a few hundred bytes and comes in one piece:
	// one recvmsg takes it all with the descriptors, and the rest, if any,
	// is read through a buffer rather than a read(2) per field.
	buf := make([]byte, 4096)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	n, oobn, _, _, err := c.ReadMsgUnix(buf, oob)
	if err != nil {
		return nil, nil, err
	}
	files, err := parseRights(oob[:oobn])
	if err != nil {
		return nil, files, err
	}
	r := bufio.NewReader(io.MultiReader(bytes.NewReader(buf[:n]), c))
	var head [12]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, files, err
	}
	if [4]byte(head[:4]) != magic {
		return nil, files, errors.New("not a bashbox launcher")
	}
	req := &Request{Umask: binary.LittleEndian.Uint32(head[4:])}
	count := binary.LittleEndian.Uint32(head[8:])
	if count < 1 || count > maxRequest/4 {
		return nil, files, fmt.Errorf("%d strings", count)
	}
	strs := make([]string, 0, min(count, 64))
	total := 0
	for range count {
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			return nil, files, err
		}
		size := int(binary.LittleEndian.Uint32(l[:]))
		if total += size + 4; total > maxRequest {
			return nil, files, errors.New("request too large")
		}
		s := make([]byte, size)
		if _, err := io.ReadFull(r, s); err != nil {
			return nil, files, err
		}
		strs = append(strs, string(s))
	}
	req.Dir, req.Args = strs[0], strs[1:]
	if !filepath.IsAbs(req.Dir) {
		return nil, files, fmt.Errorf("working directory %q is not absolute", req.Dir)
	}
	req.Stdin, req.Stdout, req.Stderr = files[0], files[1], files[2]
	return req, files, nil
}

// parseRights returns the three descriptors of a control message, closing
// any others it carried.
func parseRights(oob []byte) ([]*os.File, error) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var fds []int
	for i := range msgs {
		got, err := syscall.ParseUnixRights(&msgs[i])
		if err != nil {
			continue
		}
		fds = append(fds, got...)
	}
	files := make([]*os.File, 0, 3)
	for i, fd := range fds {
		syscall.CloseOnExec(fd)
		if i < 3 {
			files = append(files, os.NewFile(uintptr(fd), []string{"stdin", "stdout", "stderr"}[i]))
		} else {
			syscall.Close(fd)
		}
	}
	if len(files) != 3 {
		return files, fmt.Errorf("%d descriptors, want 3", len(files))
	}
	return files, nil
}
