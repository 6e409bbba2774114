package interp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// job is a background command: goroutines of the call plus a status.
type job struct {
	id     int
	pid    int
	text   string
	done   chan struct{}
	status int
	frame  *frame
}

// jobTable holds a frame's background jobs.
type jobTable struct {
	mu   sync.Mutex
	list []*job
	next int
}

func (t *jobTable) add(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	j.id = t.next
	t.list = append(t.list, j)
}

func (t *jobTable) remove(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, x := range t.list {
		if x == j {
			t.list = append(t.list[:i], t.list[i+1:]...)
			return
		}
	}
}

func (t *jobTable) snapshot() []*job {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]*job(nil), t.list...)
}

// background runs st as a job: a forked frame on a goroutine of the call.
func (f *frame) background(st *syntax.Stmt) {
	child := f.fork(true)
	child.ctx, child.cancel = context.WithCancel(f.ctx)
	if !f.opts.has(optMonitor) {
		// a non-interactive shell's background jobs read /dev/null
		child.fds.set(0, newStream(strings.NewReader(""), nil, nil))
	}
	j := &job{pid: child.pid, done: make(chan struct{}), frame: child, text: stmtText(st)}
	f.jobs.add(j)
	f.lastBg = child.pid
	inner := *st
	inner.Background = false
	child.call.goSafe(func() {
		defer close(j.done)
		child.runSub(func() { child.stmt(&inner) })
		j.status = child.status
	}, func(p any) {
		child.fds.printf(2, "bashbox: internal error: %s\n", firstLine(fmt.Sprint(p)))
		j.status = 2
		child.fds.release()
	})
	f.status = 0
}

func stmtText(st *syntax.Stmt) string {
	var b strings.Builder
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, st.Cmd)
	return b.String()
}

// coproc runs a coprocess: a background job joined by two pipes, whose
// descriptors are in NAME[0] (read) and NAME[1] (write).
func (f *frame) coproc(c *syntax.CoprocClause) {
	name := "COPROC"
	if c.Name != nil {
		name, _ = f.literal(c.Name)
	}
	toR, toW := f.call.pipe()     // shell -> coproc
	fromR, fromW := f.call.pipe() // coproc -> shell
	child := f.fork(true)
	child.fds.set(0, newStream(toR, nil, readCloser{toR}))
	child.fds.set(1, newStream(nil, fromW, fromW))
	rfd := f.fds.freeHigh()
	f.fds.set(rfd, newStream(fromR, nil, readCloser{fromR}))
	wfd := f.fds.freeHigh()
	f.fds.set(wfd, newStream(nil, toW, toW))
	j := &job{pid: child.pid, done: make(chan struct{}), frame: child, text: "coproc " + name}
	f.jobs.add(j)
	f.lastBg = child.pid
	f.unsetVar(name)
	v := f.writable(f.global, name)
	if v != nil {
		v.attrs |= attrIndexed
		v.idx = &sparse{}
		v.idx.set(0, itoa(rfd))
		v.idx.set(1, itoa(wfd))
		v.set = true
	}
	f.assignScalar(name+"_PID", itoa(child.pid))
	child.call.goSafe(func() {
		defer close(j.done)
		child.runSub(func() { child.stmt(c.Stmt) })
		j.status = child.status
	}, func(p any) {
		child.fds.printf(2, "bashbox: internal error: %s\n", firstLine(fmt.Sprint(p)))
		j.status = 2
		child.fds.release()
	})
	f.status = 0
}

// findJob resolves a job spec (%N, %%, %+, %-, PID).
func (f *frame) findJob(spec string) (*job, bool) {
	jobs := f.jobs.snapshot()
	if strings.HasPrefix(spec, "%") {
		s := spec[1:]
		if s == "" || s == "%" || s == "+" {
			if len(jobs) == 0 {
				return nil, false
			}
			return jobs[len(jobs)-1], true
		}
		if s == "-" {
			if len(jobs) < 2 {
				return nil, false
			}
			return jobs[len(jobs)-2], true
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			for _, j := range jobs {
				if strings.HasPrefix(j.text, s) {
					return j, true
				}
			}
			return nil, false
		}
		for _, j := range jobs {
			if j.id == n {
				return j, true
			}
		}
		return nil, false
	}
	pid, err := strconv.Atoi(spec)
	if err != nil {
		return nil, false
	}
	for _, j := range jobs {
		if j.pid == pid {
			return j, true
		}
	}
	return nil, false
}

// waitJob waits for j or the end of the call.
func (f *frame) waitJob(j *job) int {
	select {
	case <-j.done:
	case <-f.ctx.Done():
		return 1
	}
	f.jobs.remove(j)
	return j.status
}

func (f *frame) biWait(args []string) int {
	args = args[1:]
	anyJob := false
	varName := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		switch args[0] {
		case "-n":
			anyJob = true
		case "-f":
		case "-p":
			if len(args) < 2 {
				f.errorf("wait: -p: option requires an argument")
				return 2
			}
			varName = args[1]
			args = args[1:]
		case "--":
			args = args[1:]
			goto ids
		default:
			f.errorf("wait: %s: invalid option", args[0])
			f.fds.writeString(2, "wait: usage: wait [-fn] [-p var] [id ...]\n")
			return 2
		}
		args = args[1:]
	}
ids:
	if anyJob {
		jobs := f.jobs.snapshot()
		if len(args) > 0 {
			jobs = nil
			for _, a := range args {
				if j, ok := f.findJob(a); ok {
					jobs = append(jobs, j)
				}
			}
		}
		if len(jobs) == 0 {
			return 127
		}
		cases := make(chan *job, len(jobs))
		for _, j := range jobs {
			go func(j *job) {
				select {
				case <-j.done:
					cases <- j
				case <-f.ctx.Done():
				}
			}(j)
		}
		select {
		case j := <-cases:
			f.jobs.remove(j)
			if varName != "" {
				f.assignScalar(varName, itoa(j.pid))
			}
			return j.status
		case <-f.ctx.Done():
			return 1
		}
	}
	if len(args) == 0 {
		for _, j := range f.jobs.snapshot() {
			f.waitJob(j)
		}
		return 0
	}
	status := 0
	for _, a := range args {
		j, ok := f.findJob(a)
		if !ok {
			if strings.HasPrefix(a, "%") {
				f.errorf("wait: %s: no such job", a)
			} else if _, err := strconv.Atoi(a); err != nil {
				f.errorf("wait: `%s': not a pid or valid job spec", a)
				status = 2
				continue
			} else {
				f.errorf("wait: pid %s is not a child of this shell", a)
			}
			status = 127
			continue
		}
		status = f.waitJob(j)
		if varName != "" {
			f.assignScalar(varName, itoa(j.pid))
		}
	}
	return status
}

func (f *frame) biJobs(args []string) int {
	pids := len(args) > 1 && (args[1] == "-p")
	jobs := f.jobs.snapshot()
	for i, j := range jobs {
		if pids {
			f.fds.printf(1, "%d\n", j.pid)
			continue
		}
		state := "Running"
		select {
		case <-j.done:
			state = "Done"
			if j.status != 0 {
				state = fmt.Sprintf("Exit %d", j.status)
			}
		default:
		}
		mark := " "
		if i == len(jobs)-1 {
			mark = "+"
		} else if i == len(jobs)-2 {
			mark = "-"
		}
		f.fds.printf(1, "[%d]%s  %-24s%s &\n", j.id, mark, state, j.text)
	}
	return 0
}

// biKill delivers a signal to a job: the job's frame is stopped (the
// sandbox has no processes), and kill -0 tests for it.
func (f *frame) biKill(args []string) int {
	args = args[1:]
	sig := "TERM"
	if len(args) > 0 && args[0] == "-l" {
		f.fds.writeString(1, " 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n 6) SIGABRT\t 7) SIGBUS\t 8) SIGFPE\t 9) SIGKILL\t10) SIGUSR1\n11) SIGSEGV\t12) SIGUSR2\t13) SIGPIPE\t14) SIGALRM\t15) SIGTERM\n")
		return 0
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "-") {
		sig = strings.TrimPrefix(args[0], "-")
		if sig == "s" && len(args) > 1 {
			sig = args[1]
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		f.fds.writeString(2, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
		return 2
	}
	status := 0
	for _, a := range args {
		j, ok := f.findJob(a)
		if !ok {
			if a == itoa(f.shellPID) || a == itoa(f.pid) {
				if sig == "0" {
					continue
				}
			}
			if strings.HasPrefix(a, "%") {
				f.errorf("kill: %s: no such job", a)
			} else if _, err := strconv.Atoi(a); err != nil {
				f.errorf("kill: %s: arguments must be process or job IDs", a)
			} else {
				f.errorf("kill: (%s) - No such process", a)
			}
			status = 1
			continue
		}
		if sig == "0" {
			continue
		}
		j.frame.kill()
	}
	return status
}

// kill stops a job's frame: it unwinds at its next statement.
func (f *frame) kill() {
	if f.cancel != nil {
		f.cancel()
	}
}
