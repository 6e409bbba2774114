package interp

import (
	"fmt"

	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The job-control builtins over a frame's job table: wait, jobs, kill,
// disown, fg and bg (the last two without job control, as in a script).

// findJob resolves a job spec (%N, %%, %+, %-, %name, %?text) or a pid.
func (f *frame) findJob(spec string) (*job, bool) {
	jobs := f.jobs.snapshot()
	if s, ok := strings.CutPrefix(spec, "%"); ok {
		switch s {
		case "", "%", "+":
			if len(jobs) == 0 {
				return nil, false
			}
			return jobs[len(jobs)-1], true
		case "-":
			if len(jobs) < 2 {
				return nil, false
			}
			return jobs[len(jobs)-2], true
		}
		if n, err := strconv.Atoi(s); err == nil {
			for _, j := range jobs {
				if j.id == n {
					return j, true
				}
			}
			return nil, false
		}
		for _, j := range jobs {
			if q, ok := strings.CutPrefix(s, "?"); ok && strings.Contains(j.text, q) || strings.HasPrefix(j.text, s) {
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

// waitJob waits for j, the end of the call, or a trapped signal to the
// shell (then 128+N, as bash's wait returns).
func (f *frame) waitJob(j *job) (int, bool) {
	for {
		select {
		case <-j.done:
			f.jobs.remove(j)
			f.reportKilled(j)
			return j.jobStatus(), true
		case <-f.ctx.Done():
			return 1, false
		case <-f.proc.notify:
			if st, ok := f.trappedSignal(); ok {
				return st, false
			}
		}
	}
}

// trappedSignal reports a pending signal the shell traps: wait returns
// 128+N for it and the trap runs after.
func (f *frame) trappedSignal() (int, bool) {
	f.proc.mu.Lock()
	defer f.proc.mu.Unlock()
	for _, sig := range f.proc.pending {
		if f.proc.disp[sig] == dispTrap || f.proc.fatal(sig, f.proc.disp[sig]) {
			return 128 + sig, true
		}
	}
	return 0, false
}

func (j *job) jobStatus() int {
	if j.signal != 0 {
		return 128 + j.signal
	}
	return j.status
}

// reportKilled prints what bash prints when a job a signal ended is
// reaped: its line unless the signal is INT, PIPE or TERM or the shell
// traps it.
func (f *frame) reportKilled(j *job) {
	if f.reportsSignal(j.signal) {
		f.fds.printf(2, "%s%5d %-24s%s\n", f.errPrefix(), j.pid, signalDesc(j.signal), j.text)
	}
}

func (f *frame) reportsSignal(sig int) bool {
	switch sig {
	case 0, sigINT, sigPIPE, sigTERM:
		return false
	}
	_, trapped := f.traps[signalNames.Get()[sig]]
	return !trapped
}

// reportSignaled prints what bash prints when a signal ends a
// foreground subshell: the job's line as for a job, else the signal's
// description alone.
func (f *frame) reportSignaled(c *frame, stmts []*syntax.Stmt) {
	sig := int(c.proc.killed.Load())
	switch {
	case f.reportsSignal(sig):
		text := jobText(&syntax.Stmt{Cmd: &syntax.Subshell{Stmts: stmts}})
		f.fds.printf(2, "%s%5d %-24s%s\n", f.errPrefix(), c.pid, signalDesc(sig), text)
	case sig != 0 && sig != sigINT && sig != sigPIPE:
		f.fds.writeString(2, signalDesc(sig)+"\n")
	}
}

func (f *frame) biWait(args []string) int {
	args = args[1:]
	anyJob := false
	varName := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for i := 1; i < len(args[0]); i++ {
			switch args[0][i] {
			case 'n':
				anyJob = true
			case 'f':
			case 'p':
				rest := args[0][i+1:]
				if rest == "" {
					if len(args) < 2 {
						f.errorf("wait: -p: option requires an argument")
						f.fds.writeString(2, "wait: usage: wait [-fn] [-p var] [id ...]\n")
						return 2
					}
					rest = args[1]
					args = args[1:]
				}
				varName = rest
				i = len(args[0])
			default:
				f.errorf("wait: -%c: invalid option", args[0][i])
				f.fds.writeString(2, "wait: usage: wait [-fn] [-p var] [id ...]\n")
				return 2
			}
		}
		args = args[1:]
	}
	if varName != "" {
		f.unsetVar(varName)
	}
	if anyJob {
		return f.waitAny(args, varName)
	}
	if len(args) == 0 {
		for _, j := range f.jobs.snapshot() {
			if st, ok := f.waitJob(j); !ok {
				return st
			}
		}
		return 0
	}
	status := 0
	for _, a := range args {
		j, ok := f.findJob(a)
		if !ok {
			status = f.waitMissing(a)
			continue
		}
		st, done := f.waitJob(j)
		status = st
		if !done {
			return st
		}
		if varName != "" {
			f.assignScalar(varName, itoa(j.pid))
		}
	}
	return status
}

// waitMissing answers wait for an id that is not a live job: a reaped
// pid's status, else bash's error.
func (f *frame) waitMissing(a string) int {
	if pid, err := strconv.Atoi(a); err == nil {
		f.jobs.mu.Lock()
		st, ok := f.jobs.reaped[pid]
		f.jobs.mu.Unlock()
		if ok {
			return st
		}
		f.errorf("wait: pid %s is not a child of this shell", a)
		return 127
	}
	if strings.HasPrefix(a, "%") {
		f.errorf("wait: %s: no such job", a)
		return 127
	}
	f.errorf("wait: `%s': not a pid or valid job spec", a)
	return 1
}

// waitAny is wait -n: the first of the jobs (or of ids) to end.
func (f *frame) waitAny(ids []string, varName string) int {
	jobs := f.jobs.snapshot()
	if len(ids) > 0 {
		jobs = nil
		for _, a := range ids {
			if j, ok := f.findJob(a); ok {
				jobs = append(jobs, j)
			}
		}
	}
	if len(jobs) == 0 {
		return 127
	}
	finished := make(chan *job, len(jobs))
	stop := make(chan struct{})
	defer close(stop)
	for _, j := range jobs {
		select {
		case <-j.done:
			finished <- j
			continue
		default:
		}
		go func(j *job) {
			select {
			case <-j.done:
				finished <- j
			case <-stop:
			}
		}(j)
	}
	for {
		select {
		case j := <-finished:
			f.jobs.remove(j)
			f.reportKilled(j)
			if varName != "" {
				f.assignScalar(varName, itoa(j.pid))
			}
			return j.jobStatus()
		case <-f.ctx.Done():
			return 1
		case <-f.proc.notify:
			if st, ok := f.trappedSignal(); ok {
				return st
			}
		}
	}
}

func (f *frame) biJobs(args []string) int {
	args = args[1:]
	fl, args, ok := f.parseFlags(args, "jobs", "lprsn", "jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n")
	if !ok {
		return 2
	}
	long, pids, running, stopped := fl.has('l'), fl.has('p'), fl.has('r'), fl.has('s')
	all := f.jobs.snapshot()
	if len(all) == 0 && f.inCmdSubst && f.parentJobs != nil {
		// $(jobs -p) lists the shell's jobs, as bash does
		all = f.parentJobs.snapshot()
	}
	list := all
	status := 0
	if len(args) > 0 {
		list = nil
		for _, a := range args {
			j, ok := f.findJob(a)
			if !ok {
				f.errorf("jobs: %s: no such job", a)
				status = 1
				continue
			}
			list = append(list, j)
		}
	}
	var b strings.Builder
	for _, j := range list {
		done := false
		select {
		case <-j.done:
			done = true
		default:
		}
		if stopped || running && done {
			continue
		}
		if pids {
			fmt.Fprintf(&b, "%d\n", j.pid)
			continue
		}
		mark := ' '
		if j == all[len(all)-1] {
			mark = '+'
		} else if len(all) > 1 && j == all[len(all)-2] {
			mark = '-'
		}
		state, amp := "Running", " &"
		if done {
			amp = ""
			switch {
			case j.signal != 0:
				state = signalDesc(j.signal)
			case j.status != 0:
				state = "Exit " + itoa(j.status)
			default:
				state = "Done"
			}
			f.jobs.remove(j)
		}
		fmt.Fprintf(&b, "[%d]%c ", j.id, mark)
		if long {
			fmt.Fprintf(&b, "%5d ", j.pid)
		} else {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%-24s%s%s\n", state, j.text, amp)
	}
	f.fds.writeString(1, b.String())
	return status
}

// biKill delivers a signal to the shell, a subshell or a job of the call.
func (f *frame) biKill(args []string) int {
	args = args[1:]
	sig := sigTERM
	usage := func() int {
		f.fds.writeString(2, "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n")
		return 2
	}
	badSig := func(s string) int {
		f.errorf("kill: %s: invalid signal specification", s)
		return 1
	}
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-l" || a == "-L":
			return f.killList(args[1:])
		case a == "-s" || a == "-n":
			if len(args) < 2 {
				f.errorf("kill: %s: option requires an argument", a)
				return usage()
			}
			n, ok := parseSignal(args[1])
			if !ok && args[1] != "0" {
				return badSig(args[1])
			}
			sig, args = n, args[2:]
		case a == "--":
			args = args[1:]
		case len(a) > 1 && a[0] == '-':
			n, ok := parseSignal(a[1:])
			if !ok && a[1:] != "0" {
				return badSig(a[1:])
			}
			sig, args = n, args[1:]
		}
	}
	if len(args) == 0 {
		return usage()
	}
	status := 0
	for _, a := range args {
		var target *proc
		if j, ok := f.findJob(a); ok {
			target = f.call.procs.get(j.pid)
			if target == nil {
				// ended, not yet waited for: a zombie takes the signal
				continue
			}
		} else if strings.HasPrefix(a, "%") {
			f.errorf("kill: %s: no such job", a)
			status = 1
			continue
		} else if pid, err := strconv.Atoi(a); err != nil {
			f.errorf("kill: %s: arguments must be process or job IDs", a)
			status = 1
			continue
		} else if target = f.call.procs.get(pid); target == nil {
			f.errorf("kill: (%s) - No such process", a)
			status = 1
			continue
		}
		if sig != 0 {
			target.deliver(sig)
		}
	}
	return status
}

// killList is kill -l: the table, or names for numbers (and exit
// statuses above 128) and numbers for names.
func (f *frame) killList(args []string) int {
	if len(args) == 0 {
		f.fds.writeString(1, signalListing())
		return 0
	}
	status := 0
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n > 128 {
				n -= 128
			}
			if n > 0 && n < len(signalNames.Get()) && signalNames.Get()[n] != "" {
				f.fds.printf(1, "%s\n", signalNames.Get()[n])
				continue
			}
		} else if n, ok := parseSignal(a); ok {
			f.fds.printf(1, "%d\n", n)
			continue
		}
		f.errorf("kill: %s: invalid signal specification", a)
		status = 1
	}
	return status
}

func (f *frame) biDisown(args []string) int {
	args = args[1:]
	fl, args, ok := f.parseFlags(args, "disown", "arh", "disown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\n")
	if !ok {
		return 2
	}
	all, running := fl.has('a'), fl.has('r')
	if all || running && len(args) == 0 {
		for _, j := range f.jobs.snapshot() {
			select {
			case <-j.done:
				if running {
					continue
				}
			default:
			}
			f.jobs.disown(j)
		}
		return 0
	}
	if len(args) == 0 {
		args = []string{"%+"}
	}
	status := 0
	for _, a := range args {
		j, ok := f.findJob(a)
		if !ok {
			name := a
			if a == "%+" {
				name = "current"
			}
			f.errorf("disown: %s: no such job", name)
			status = 1
			continue
		}
		f.jobs.disown(j)
	}
	return status
}

// disown drops j from the table without keeping its status: the call
// still ends it with the rest.
func (t *jobTable) disown(j *job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, x := range t.list {
		if x == j {
			t.list = append(t.list[:i], t.list[i+1:]...)
			return
		}
	}
}

func (f *frame) biFgBg(args []string) int {
	f.errorf("%s: no job control", args[0])
	return 1
}
