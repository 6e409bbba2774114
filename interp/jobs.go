package interp

import (
	"context"
	"fmt"
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
	signal int // the signal that ended it
	frame  *frame
}

// jobTable holds a frame's background jobs.
type jobTable struct {
	mu   sync.Mutex
	list []*job
	next int
	// reaped keeps the statuses of jobs already waited for: bash answers
	// a second wait for the same pid with it.
	reaped map[int]int
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
	if t.reaped == nil {
		t.reaped = map[int]int{}
	}
	t.reaped[j.pid] = j.status
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
	child.proc.async, child.proc.cancel = true, child.cancel
	if !f.opts.has(optMonitor) && f.fds.get(0) == f.call.stdin {
		// a non-interactive shell's background jobs read /dev/null
		// unless their input was redirected
		child.fds.set(0, newStream(strings.NewReader(""), nil, nil))
	}
	j := &job{pid: child.pid, done: make(chan struct{}), frame: child, text: jobText(st)}
	f.jobs.add(j)
	f.lastBg = child.pid
	inner := *st
	inner.Background = false
	child.call.goSafe(func() {
		defer close(j.done)
		child.runSub(func() { child.stmt(&inner) })
		j.status = child.status
		j.signal = int(child.proc.killed.Load())
	}, func(p any) {
		child.fds.printf(2, "bashbox: internal error: %s\n", firstLine(fmt.Sprint(p)))
		j.status = 2
		child.fds.release()
	})
	f.status = 0
}

// jobText is a job's command as jobs shows it; bash pads subshell
// parentheses with spaces.
func jobText(st *syntax.Stmt) string {
	var b strings.Builder
	p := syntax.NewPrinter(syntax.SingleLine(true))
	if sub, ok := st.Cmd.(*syntax.Subshell); ok && len(st.Redirs) == 0 {
		b.WriteString("( ")
		for i, s := range sub.Stmts {
			if i > 0 {
				b.WriteString("; ")
			}
			p.Print(&b, s)
		}
		b.WriteString(" )")
		return b.String()
	}
	c := *st
	c.Background = false
	p.Print(&b, &c)
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
