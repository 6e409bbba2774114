package interp

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bashbox/bashbox/internal/lazy"
)

// Signals are simulated inside the call: kill delivers them to the
// shell, a subshell or a job of the call, whose traps run at the next
// command; nothing is ever sent to a host process.

// signalNames are Linux's signal names by number, as bash lists them
// (32 and 33 are the C library's and have none).
var signalNames = lazy.Value[[]string]{New: func() []string {
	n := make([]string, 65)
	copy(n, []string{"", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1",
		"SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP",
		"TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"})
	n[34] = "RTMIN"
	for i := 1; i <= 15; i++ {
		n[34+i] = "RTMIN+" + strconv.Itoa(i)
	}
	for i := 14; i >= 1; i-- {
		n[64-i] = "RTMAX-" + strconv.Itoa(i)
	}
	n[64] = "RTMAX"
	return n
}}

// signalDescs are strsignal's texts, which bash prints for a job a
// signal ended.
var signalDescs = lazy.Value[map[int]string]{New: func() map[int]string {
	return map[int]string{
		1: "Hangup", 2: "Interrupt", 3: "Quit", 4: "Illegal instruction", 5: "Trace/breakpoint trap",
		6: "Aborted", 7: "Bus error", 8: "Floating point exception", 9: "Killed", 10: "User defined signal 1",
		11: "Segmentation fault", 12: "User defined signal 2", 13: "Broken pipe", 14: "Alarm clock",
		15: "Terminated", 16: "Stack fault", 24: "CPU time limit exceeded", 25: "File size limit exceeded",
		26: "Virtual timer expired", 27: "Profiling timer expired", 29: "I/O possible", 30: "Power failure",
		31: "Bad system call",
	}
}}

func signalDesc(n int) string {
	if d, ok := signalDescs.Get()[n]; ok {
		return d
	}
	if n >= 34 && n <= 64 {
		return "Real-time signal " + strconv.Itoa(n-34)
	}
	return "Unknown signal " + strconv.Itoa(n)
}

const (
	sigHUP  = 1
	sigINT  = 2
	sigQUIT = 3
	sigKILL = 9
	sigPIPE = 13
	sigTERM = 15
)

// parseSignal reads a signal by number or name (with or without SIG, in
// any case).
func parseSignal(spec string) (int, bool) {
	if n, err := strconv.Atoi(spec); err == nil {
		if n >= 1 && n < len(signalNames.Get()) && signalNames.Get()[n] != "" {
			return n, true
		}
		return 0, false
	}
	u := strings.ToUpper(spec)
	u = strings.TrimPrefix(u, "SIG")
	for i, name := range signalNames.Get() {
		if name != "" && name == u {
			return i, true
		}
	}
	return 0, false
}

// signalListing is kill -l's and trap -l's table.
func signalListing() string {
	var b strings.Builder
	k := 0
	for i, name := range signalNames.Get() {
		if name == "" {
			continue
		}
		if i < 10 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(i))
		b.WriteString(") SIG")
		b.WriteString(name)
		k++
		if k%5 == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte('\t')
		}
	}
	if k%5 != 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// ignoredByDefault are the signals whose default action does not end a
// process (the stop signals included: nothing stops inside the sandbox).
func ignoredByDefault(sig int) bool {
	switch sig {
	case 17, 18, 19, 20, 21, 22, 23, 28: // CHLD CONT STOP TSTP TTIN TTOU URG WINCH
		return true
	}
	return false
}

// disposition is how a process answers a signal.
type disposition int8

const (
	dispDefault disposition = iota
	dispIgnore
	dispTrap
)

// proc is one simulated process of the call: the shell, a subshell, a
// pipeline stage or a job. Other goroutines deliver signals to it.
type proc struct {
	pid    int
	async  bool // a background job: ignores INT and QUIT when untrapped
	cancel context.CancelFunc

	mu      sync.Mutex
	pending []int
	disp    map[int]disposition
	notify  chan struct{} // wakes a wait builtin when a signal arrives

	has    atomic.Bool  // pending is not empty
	killed atomic.Int32 // the signal that ended it
}

func newProc(pid int) *proc {
	return &proc{pid: pid, notify: make(chan struct{}, 1)}
}

// setDisp records a trap change for deliverers on other goroutines.
func (p *proc) setDisp(sig int, d disposition) {
	p.mu.Lock()
	if p.disp == nil {
		p.disp = map[int]disposition{}
	}
	p.disp[sig] = d
	p.mu.Unlock()
}

// deliver queues sig for p. A signal p does not trap ends it at once:
// its context is cancelled so that a blocked command returns.
func (p *proc) deliver(sig int) {
	p.mu.Lock()
	d := p.disp[sig]
	p.pending = append(p.pending, sig)
	p.has.Store(true)
	p.mu.Unlock()
	select {
	case p.notify <- struct{}{}:
	default:
	}
	if p.fatal(sig, d) && p.cancel != nil {
		p.killed.CompareAndSwap(0, int32(sig))
		p.cancel()
	}
}

// fatal says whether sig ends p under disposition d.
func (p *proc) fatal(sig int, d disposition) bool {
	if sig == sigKILL {
		return true
	}
	if d != dispDefault || ignoredByDefault(sig) {
		return false
	}
	return !(p.async && (sig == sigINT || sig == sigQUIT))
}

func (p *proc) take() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.pending
	p.pending = nil
	p.has.Store(false)
	return s
}

// procTable finds a call's live processes by pid.
type procTable struct {
	mu sync.Mutex
	m  map[int]*proc
}

func (t *procTable) add(p *proc) {
	t.mu.Lock()
	if t.m == nil {
		t.m = map[int]*proc{}
	}
	t.m[p.pid] = p
	t.mu.Unlock()
}

func (t *procTable) drop(p *proc) {
	t.mu.Lock()
	delete(t.m, p.pid)
	t.mu.Unlock()
}

func (t *procTable) get(pid int) *proc {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[pid]
}

// handleSignals runs what the pending signals call for: a trap, nothing,
// or the end of the process with status 128+N.
func (f *frame) handleSignals() {
	for _, sig := range f.proc.take() {
		name := signalNames.Get()[sig]
		act, trapped := f.traps[name]
		if sig != sigKILL && trapped {
			if sig == 17 {
				// bash runs the CHLD trap for children it reaps only
				continue
			}
			if act != "" {
				f.runTrap(act)
			}
			continue
		}
		if !f.proc.fatal(sig, dispDefault) {
			continue
		}
		// the EXIT trap still runs, seeing the status before the
		// signal; the process then ends with 128+N
		f.proc.killed.CompareAndSwap(0, int32(sig))
		f.ctl = ctlExit
		return
	}
}

// killedStatus is 128+N when a signal ended the frame's process.
func (f *frame) killedStatus() (int, bool) {
	if f.proc == nil {
		return 0, false
	}
	if s := int(f.proc.killed.Load()); s != 0 {
		return 128 + s, true
	}
	return 0, false
}

// brokenPipe answers a builtin's write to a pipe whose reader is gone as
// the kernel answers a process's: with SIGPIPE. Untrapped, it ends the
// shell or subshell that wrote, with status 141 (so `while :; do echo x;
// done | head -1` ends); trapped or ignored, the trap runs and the
// builtin reports the write error and fails, as bash's do.
func (f *frame) brokenPipe(name string) int {
	if f.proc != nil {
		f.proc.deliver(sigPIPE)
		f.handleSignals()
		if f.ctl == ctlExit {
			return 128 + sigPIPE
		}
	}
	f.errorf("%s: write error: Broken pipe", name)
	return 1
}
