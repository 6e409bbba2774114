//go:build !bashbox_front && linux

package main

import (
	"context"
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/bashbox/bashbox/internal/daemon"
)

// BenchmarkDaemonRun is what the daemon spends on one `bashbox run -c
// true` from a launcher: the CPU a launched run costs beyond the
// launcher's own start (go test -bench DaemonRun -cpuprofile cpu.out).
func BenchmarkDaemonRun(b *testing.B) {
	sock := filepath.Join(b.TempDir(), "s", "d.sock")
	l, err := daemon.Listen(sock)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- daemon.Serve(ctx, l, daemonRun(syscall.Umask), daemon.Config{}) }()
	defer func() { cancel(); <-done }()
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	mask := syscall.Umask(0)
	syscall.Umask(mask)
	req := append([]byte("BBX1"), make([]byte, 8)...)
	binary.LittleEndian.PutUint32(req[4:], uint32(mask))
	args := []string{"/", "run", "-v", b.TempDir() + ":/work:ro", "-c", "true"}
	binary.LittleEndian.PutUint32(req[8:], uint32(len(args)))
	for _, s := range args {
		req = binary.LittleEndian.AppendUint32(req, uint32(len(s)))
		req = append(req, s...)
	}
	fd := int(devnull.Fd())
	b.ResetTimer()
	for range b.N {
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: sock, Net: "unix"})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.WriteMsgUnix(req, syscall.UnixRights(fd, fd, fd), nil); err != nil {
			b.Fatal(err)
		}
		var reply [6]byte
		n := 0
		for n < 6 {
			k, err := c.Read(reply[n:])
			if err != nil {
				b.Fatalf("reply %q: %v", reply[:n], err)
			}
			n += k
		}
		if reply[0] != 'A' || reply[1] != 'X' || reply[2] != 0 {
			b.Fatalf("reply %q", reply)
		}
		c.Close()
	}
}
