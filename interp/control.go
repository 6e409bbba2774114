package interp

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// cond runs a condition list: set -e does not apply inside it.
func (f *frame) cond(list []*syntax.Stmt) bool {
	f.noErrExit++
	f.stmts(list)
	f.noErrExit--
	return f.status == 0
}

func (f *frame) ifClause(c *syntax.IfClause) {
	for c != nil {
		if len(c.Cond) == 0 && c.ThenPos == (syntax.Pos{}) { // else
			f.stmts(c.Then)
			return
		}
		ok := f.cond(c.Cond)
		if f.ctl != ctlNone {
			return
		}
		if ok {
			f.stmts(c.Then)
			return
		}
		c = c.Else
	}
	f.status = 0
}

// loopCtl handles break and continue at the end of one iteration; it
// reports whether the loop goes on.
func (f *frame) loopCtl() bool {
	switch f.ctl {
	case ctlBreak:
		f.ctlN--
		if f.ctlN <= 0 {
			f.ctl = ctlNone
		}
		return false
	case ctlContinue:
		f.ctlN--
		if f.ctlN <= 0 {
			f.ctl = ctlNone
			return true
		}
		return false
	case ctlNone:
		return true
	}
	return false
}

// iterate counts one iteration of a loop against the loop budget.
func (f *frame) iterate(n *int64) bool {
	*n++
	if !f.call.sh.Budget.iteration(*n) {
		f.ctl, f.status = ctlExit, 125
		return false
	}
	return !f.stopped()
}

func (f *frame) whileClause(c *syntax.WhileClause) {
	f.loopDepth++
	defer func() { f.loopDepth-- }()
	status := 0
	var n int64
	for f.iterate(&n) {
		ok := f.cond(c.Cond)
		if f.ctl != ctlNone {
			if !f.loopCtl() {
				break
			}
			continue
		}
		if ok == c.Until {
			break
		}
		f.stmts(c.Do)
		status = f.status
		if !f.loopCtl() {
			break
		}
	}
	if f.ctl == ctlNone || f.ctl == ctlBreak || f.ctl == ctlContinue {
		f.status = status
	}
}

func (f *frame) forClause(c *syntax.ForClause) {
	f.loopDepth++
	defer func() { f.loopDepth-- }()
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if !syntax.ValidName(l.Name.Value) {
			f.errorf("`%s': not a valid identifier", l.Name.Value)
			f.status = 1
			return
		}
		var items []string
		if l.InPos.IsValid() || len(l.Items) > 0 {
			var ok bool
			items, ok = f.fields(l.Items)
			if !ok {
				return
			}
		} else {
			items = f.params
		}
		if c.Select {
			if f.opts.has(optXtrace) {
				f.traceHeader("select", l.Name.Value, l.Items, l.InPos.IsValid())
			}
			f.selectLoop(l.Name.Value, items, c.Do)
			return
		}
		status := 0
		var n int64
		for _, it := range items {
			if !f.iterate(&n) {
				return
			}
			if f.opts.has(optXtrace) {
				f.traceHeader("for", l.Name.Value, l.Items, l.InPos.IsValid())
			}
			if f.debugTrap != "" && !f.inTrap {
				f.curCmd, f.curText = nil, f.headerText("for", l.Name.Value, l.Items, l.InPos.IsValid())
				if f.runDebugTrap(); f.ctl != ctlNone {
					return
				}
			}
			if !f.assignLoopVar(l.Name.Value, it) {
				// a readonly loop variable ends the loop, not the line
				if f.ctl == ctlAbort {
					f.ctl = ctlNone
				}
				f.status = 1
				return
			}
			f.stmts(c.Do)
			status = f.status
			if !f.loopCtl() {
				break
			}
		}
		if f.ctl == ctlNone {
			f.status = status
		}
	case *syntax.CStyleLoop:
		if l.Init != nil {
			if f.opts.has(optXtrace) {
				f.traceLine("(( " + f.sourceText(l.Init, arithText(l.Init)) + " ))")
			}
			if _, ok := f.arithAs("((", l.Init); !ok {
				return
			}
		}
		status := 0
		var n int64
		for f.iterate(&n) {
			if l.Cond != nil {
				if f.opts.has(optXtrace) {
					f.traceLine("(( " + f.sourceText(l.Cond, arithText(l.Cond)) + " ))")
				}
				v, ok := f.arithAs("((", l.Cond)
				if !ok {
					return
				}
				if v == 0 {
					break
				}
			}
			f.stmts(c.Do)
			status = f.status
			if !f.loopCtl() {
				break
			}
			if l.Post != nil {
				if f.opts.has(optXtrace) {
					f.traceLine("(( " + f.sourceText(l.Post, arithText(l.Post)) + " ))")
				}
				if _, ok := f.arithAs("((", l.Post); !ok {
					return
				}
			}
		}
		if f.ctl == ctlNone {
			f.status = status
		}
	}
}

// selectLoop runs select: the menu on stderr, shown again only after an
// empty reply, and replies read from stdin until its end.
func (f *frame) selectLoop(name string, items []string, body []*syntax.Stmt) {
	var n int64
	menu := true
	for f.iterate(&n) {
		if menu {
			for i, it := range items {
				f.fds.printf(2, "%d) %s\n", i+1, it)
			}
		}
		ps3 := "#? "
		if v, ok := f.getVar("PS3"); ok {
			ps3 = v
		}
		f.fds.writeString(2, ps3)
		line, ok := f.readLine(0)
		if !ok {
			f.fds.writeString(1, "\n")
			f.status = 1
			return
		}
		f.assignScalar("REPLY", line)
		if line == "" {
			menu = true
			continue
		}
		menu = false
		choice := ""
		if k, err := parseDecimal(line); err == nil && k >= 1 && int(k) <= len(items) {
			choice = items[k-1]
		}
		f.assignScalar(name, choice)
		f.stmts(body)
		if !f.loopCtl() {
			break
		}
	}
}

func (f *frame) caseClause(c *syntax.CaseClause) {
	word, ok := f.literal(c.Word)
	if !ok {
		return
	}
	if f.opts.has(optXtrace) {
		f.traceLine("case " + f.sourceText(c.Word, printNode(c.Word)) + " in")
	}
	f.status = 0
	fallthru := false
	for _, it := range c.Items {
		matched := fallthru
		if !matched {
			for _, pw := range it.Patterns {
				pat, ok := f.patternOf(pw)
				if !ok {
					return
				}
				if f.matchPattern(pat, word, f.opts.has(optNocasematch)) {
					matched = true
					break
				}
			}
		}
		if !matched {
			continue
		}
		f.stmts(it.Stmts)
		if f.ctl != ctlNone {
			return
		}
		switch it.Op {
		case syntax.Fallthrough: // ;&
			fallthru = true
		case syntax.Resume: // ;;&
			fallthru = false
		default:
			return
		}
	}
}

func (f *frame) timeClause(c *syntax.TimeClause) {
	start := time.Now()
	if c.Stmt != nil {
		f.stmt(c.Stmt)
	}
	d := time.Since(start)
	if c.PosixFormat {
		f.fds.printf(2, "real %.2f\nuser 0.00\nsys 0.00\n", d.Seconds())
		return
	}
	format := "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS"
	if v, ok := f.getVar("TIMEFORMAT"); ok {
		format = v
	}
	if format != "" {
		f.fds.writeString(2, timeFormat(format, d)+"\n")
	}
}

// timeFormat expands TIMEFORMAT: %[p][l]R, U and S (user and system
// time are not measured inside the sandbox: zero), %P and %%.
func timeFormat(format string, real time.Duration) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		prec, long := 3, false
		if format[j] >= '0' && format[j] <= '9' {
			prec = min(int(format[j]-'0'), 3)
			j++
		}
		if j < len(format) && format[j] == 'l' {
			long = true
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		var d time.Duration
		switch format[j] {
		case '%':
			b.WriteByte('%')
			i = j
			continue
		case 'P':
			b.WriteString("0.00")
			i = j
			continue
		case 'R':
			d = real
		case 'U', 'S':
		default:
			b.WriteString(format[i : j+1])
			i = j
			continue
		}
		secs := d.Seconds()
		if long {
			m := int(secs / 60)
			fmt.Fprintf(&b, "%dm%.*fs", m, prec, secs-float64(m*60))
		} else {
			fmt.Fprintf(&b, "%.*f", prec, secs)
		}
		i = j
	}
	return b.String()
}

// loopOnly is bash's complaint for break and continue outside a loop.
const loopOnly = "only meaningful in a `for', `while', or `until' loop"

func (f *frame) biBreak(args []string) int {
	if f.loopDepth == 0 {
		f.errorf("%s: %s", args[0], loopOnly)
		return 0
	}
	n := 1
	if len(args) > 2 {
		f.errorf("%s: too many arguments", args[0])
		f.abort()
		return 1
	}
	if len(args) > 1 {
		k, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil {
			f.errorf("%s: %s: numeric argument required", args[0], args[1])
			f.ctl = ctlExit
			return 128
		}
		if k < 1 {
			// bash leaves every loop
			f.errorf("%s: %s: loop count out of range", args[0], args[1])
			f.ctl, f.ctlN = ctlBreak, f.loopDepth
			return 1
		}
		n = k
	}
	if n > f.loopDepth {
		n = f.loopDepth
	}
	if args[0] == "break" {
		f.ctl = ctlBreak
	} else {
		f.ctl = ctlContinue
	}
	f.ctlN = n
	return 0
}

func (f *frame) biReturn(args []string) int {
	if len(f.funcNames) == 0 && f.sourceDepth == 0 {
		f.errorf("return: can only `return' from a function or sourced script")
		return 2
	}
	st := f.status
	if len(args) > 2 {
		f.errorf("return: too many arguments")
		f.abort()
		return 1
	}
	if len(args) > 1 {
		n, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil {
			f.errorf("return: %s: numeric argument required", args[1])
			st = 2
		} else {
			st = n & 255
		}
	}
	f.ctl = ctlReturn
	return st
}

func (f *frame) biExit(args []string) int {
	st := f.status
	if len(args) > 1 {
		n, err := strconv.Atoi(strings.TrimSpace(args[1]))
		if err != nil {
			f.errorf("%s: %s: numeric argument required", args[0], args[1])
			st = 2
		} else {
			if len(args) > 2 {
				f.errorf("%s: too many arguments", args[0])
				f.abort()
				return 1
			}
			st = n & 255
		}
	}
	f.ctl = ctlExit
	return st
}
