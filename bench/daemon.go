package bench

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Daemon is a `bashbox daemon` the bench starts on a socket of its own,
// so that its start-up op measures the CLI as an operator who cares about
// start-up runs it: the launcher handing each run to a resident daemon.
// Its CPU time is counted in the launches it serves (CPU), so that the
// work moved out of the measured process is not lost from the figures.
type Daemon struct {
	cmd    *exec.Cmd
	dir    string
	Socket string
}

// StartDaemon starts `exe daemon` and waits until it listens.
func StartDaemon(exe string) (*Daemon, error) {
	dir, err := os.MkdirTemp("", "bashbox-bench-daemon-") // mode 0700, as the launcher wants
	if err != nil {
		return nil, err
	}
	d := &Daemon{dir: dir, Socket: filepath.Join(dir, "daemon.sock")}
	// A bench that is killed must not leave its daemon behind: the kernel
	// stops it with the bench where it can (daemonAttr), and an idle
	// daemon exits by itself anyway.
	d.cmd = exec.Command(exe, "daemon", "--quiet", "--idle-exit", "10m", "--socket", d.Socket)
	d.cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	d.cmd.SysProcAttr = daemonAttr()
	stderr, err := d.cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := d.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		said := ""
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on") {
				ready <- nil
				for sc.Scan() { // keep draining: the daemon must not block on stderr
				}
				return
			}
			said += sc.Text() + "\n"
		}
		ready <- fmt.Errorf("bashbox daemon did not start: %s", strings.TrimSpace(said))
	}()
	select {
	case err = <-ready:
	case <-time.After(10 * time.Second):
		err = errors.New("bashbox daemon did not listen within 10s")
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Env is the variable that points a launcher at this daemon.
func (d *Daemon) Env() string { return "BASHBOX_SOCKET=" + d.Socket }

// CPU is the CPU time the daemon has used so far.
func (d *Daemon) CPU() time.Duration { return ProcessCPU(d.cmd.Process.Pid) }

// Close stops the daemon and removes its socket directory.
func (d *Daemon) Close() error {
	if d.cmd.Process != nil {
		d.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { d.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			d.cmd.Process.Kill()
			<-done
		}
	}
	return os.RemoveAll(d.dir)
}

// measured runs launch and adds the CPU time extra (when set) used
// meanwhile, the daemon's, to its outcome.
func measured(extra func() time.Duration, launch func() Outcome) Outcome {
	if extra == nil {
		return launch()
	}
	before := extra()
	o := launch()
	o.CPU += extra() - before
	return o
}
