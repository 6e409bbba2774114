package interp

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
)

// pipeline runs a | b | c: every stage in a forked frame on its own
// goroutine, except the last under lastpipe.
func (f *frame) pipeline(c *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var stderrToo []bool
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && !s.Negated && len(s.Redirs) == 0 && !s.Background {
			flatten(b.X)
			stderrToo = append(stderrToo, b.Op == syntax.PipeAll)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(c.X)
	stderrToo = append(stderrToo, c.Op == syntax.PipeAll)
	flatten(c.Y)

	n := len(stages)
	statuses := make([]int, n)
	lastInShell := f.opts.has(optLastpipe)
	var wg sync.WaitGroup
	var next *stream // the read end for the next stage
	// Under set -x a stage starts once the one before it has traced its
	// first command, so the trace reads in pipeline order as bash's does.
	xtrace := f.opts.has(optXtrace)
	var prevTraced chan struct{}
	// (A stage that writes before tracing anything is let go after a
	// moment: the pipe would otherwise hold both.)
	waitPrev := func(ch chan struct{}) {
		if ch != nil {
			t := time.NewTimer(100 * time.Millisecond)
			defer t.Stop()
			select {
			case <-ch:
			case <-t.C:
			case <-f.ctx.Done():
			}
		}
	}
	for i, st := range stages {
		var pr *pipeReader
		var pw *pipeWriter
		if i < n-1 {
			pr, pw = f.call.pipe()
		}
		if i == n-1 && lastInShell {
			waitPrev(prevTraced)
			saved := f.fds
			f.fds = saved.fork()
			if next != nil {
				f.fds.set(0, next)
				next.unref()
			}
			f.stmt(st)
			f.fds.release()
			f.fds = saved
			statuses[i] = f.status
			break
		}
		child := f.fork(true)
		if next != nil {
			child.fds.set(0, next)
			next.unref() // the child's table holds it now
		}
		if pw != nil {
			out := newStream(nil, f.call.paced(pw), pw)
			child.fds.set(1, out)
			if stderrToo[i] {
				child.fds.set(2, out)
			}
			next = newStream(pr, nil, readCloser{pr}).ref()
		}
		idx, stmt := i, st
		wait := prevTraced
		if xtrace {
			traced := make(chan struct{})
			outer := child.onTraced // an enclosing pipeline's stage
			child.onTraced = sync.OnceFunc(func() {
				close(traced)
				if outer != nil {
					outer()
				}
			})
			prevTraced = traced
		}
		wg.Add(1)
		child.call.goSafe(func() {
			defer wg.Done()
			if child.onTraced != nil {
				defer child.onTraced()
			}
			waitPrev(wait)
			child.runSub(func() { child.stmt(stmt) })
			statuses[idx] = child.status
		}, func(p any) {
			child.fds.printf(2, "bashbox: internal error: %s\n", firstLine(fmt.Sprint(p)))
			statuses[idx] = 2
			child.fds.release()
		})
	}
	wg.Wait()
	f.pipeStatus = statuses
	st := statuses[n-1]
	if f.opts.has(optPipefail) {
		for _, s := range statuses {
			if s != 0 {
				st = s
			}
		}
	}
	if !(lastInShell && f.ctl != ctlNone) {
		f.status = st
	}
	if f.stopped() {
		return
	}
}

// readCloser closes a pipe's read end: writers then fail, as after
// SIGPIPE.
type readCloser struct{ r *pipeReader }

func (c readCloser) Close() error { return c.r.CloseWithError(builtins.ErrPipeClosed) }

// cmdSubst runs $(...) in a forked frame and returns its output without
// trailing newlines.
func (f *frame) cmdSubst(stmts []*syntax.Stmt) (string, bool) {
	if !f.enterNest("cmdsubst") {
		return "", false
	}
	defer f.leaveNest()
	// $(< file) reads the file.
	if len(stmts) == 1 && stmts[0].Cmd == nil && len(stmts[0].Redirs) == 1 && stmts[0].Redirs[0].Op == syntax.RdrIn {
		name, ok := f.literal(stmts[0].Redirs[0].Word)
		if !ok {
			return "", false
		}
		s, err := f.openStream(name, 0)
		if err != nil {
			f.errorf("%s: %s", name, err.Error())
			f.status = 1
			f.substStatus, f.hadSubst = 1, true
			return "", true
		}
		buf := &limitedBuffer{bud: f.call.sh.Budget}
		s.ref()
		_, err = io.Copy(buf, s.reader())
		s.unref()
		out, ok := f.takeCapture(buf)
		if err == errMemory || !ok {
			f.stopped()
			return "", false
		}
		f.substStatus, f.hadSubst = 0, true
		return f.dropNUL(strings.TrimRight(out, "\n")), true
	}
	c := f.fork(false)
	if !f.opts.has(optInheritErrexit) {
		c.opts.put(optErrexit, false)
	}
	c.inCmdSubst = true
	c.traceLevel++
	c.parentJobs = f.jobs
	buf := &limitedBuffer{bud: f.call.sh.Budget}
	c.fds.set(1, newStream(nil, buf, nil))
	c.runSub(func() { c.stmts(stmts) })
	f.status = c.status
	f.substStatus, f.hadSubst = c.status, true
	out, ok := f.takeCapture(buf)
	if f.stopped() || !ok {
		return "", false
	}
	return f.dropNUL(strings.TrimRight(out, "\n")), true
}

// takeCapture turns a capture into a string and gives back its charge
// (the variable that keeps it charges it again). The string is made only
// if the call goes on and it fits beside the capture's chunks.
func (f *frame) takeCapture(buf *limitedBuffer) (string, bool) {
	n := buf.Len()
	defer f.call.sh.Budget.charge(-int64(n))
	if n > bigString && (f.ctx.Err() != nil || !f.call.sh.Budget.fits(int64(n))) {
		return "", false
	}
	return buf.String(), true
}

// procSubst starts <(...) or >(...) and returns the /dev/fd path of its
// pipe end in the frame's table.
func (f *frame) procSubst(p *syntax.ProcSubst) (string, bool) {
	pr, pw := f.call.pipe()
	child := f.fork(true)
	fd := f.fds.freeHigh()
	if p.Op == syntax.CmdIn { // <(cmd): cmd writes, we read
		child.fds.set(1, newStream(nil, pw, pw))
		f.fds.set(fd, newStream(pr, nil, readCloser{pr}))
	} else { // >(cmd): we write, cmd reads
		child.fds.set(0, newStream(pr, nil, readCloser{pr}))
		f.fds.set(fd, newStream(nil, pw, pw))
	}
	f.procFDs = append(f.procFDs, fd)
	child.call.goSafe(func() {
		child.runSub(func() { child.stmts(p.Stmts) })
	}, func(p any) {
		child.fds.printf(2, "bashbox: internal error: %s\n", firstLine(fmt.Sprint(p)))
		child.fds.release()
	})
	return "/dev/fd/" + itoa(fd), true
}

// closeProcSubsts closes the descriptors of the process substitutions
// of the command that just ran.
func (f *frame) closeProcSubsts(from int) {
	for _, fd := range f.procFDs[from:] {
		f.fds.set(fd, nil)
	}
	f.procFDs = f.procFDs[:from]
}

// freeHigh returns a free descriptor from 63 down, as bash numbers
// process substitutions.
func (t *fdTab) freeHigh() int {
	for n := 63; n > 9; n-- {
		if t.get(n) == nil {
			return n
		}
	}
	return t.free()
}
