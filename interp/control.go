package interp

import (
	"fmt"
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
			f.selectLoop(l.Name.Value, items, c.Do)
			return
		}
		status := 0
		var n int64
		for _, it := range items {
			if !f.iterate(&n) {
				return
			}
			if !f.assignLoopVar(l.Name.Value, it) {
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
			if _, ok := f.arithAs("((", l.Init); !ok {
				return
			}
		}
		status := 0
		var n int64
		for f.iterate(&n) {
			if l.Cond != nil {
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

// selectLoop runs select: the menu on stderr, a reply read from stdin.
func (f *frame) selectLoop(name string, items []string, body []*syntax.Stmt) {
	var n int64
	for f.iterate(&n) {
		for i, it := range items {
			f.fds.printf(2, "%d) %s\n", i+1, it)
		}
		ps3 := "#? "
		if v, ok := f.getVar("PS3"); ok {
			ps3 = v
		}
		f.fds.writeString(2, ps3)
		line, ok := f.readLine(0)
		if !ok {
			f.status = 1
			return
		}
		f.assignScalar("REPLY", line)
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
	f.fds.printf(2, "\nreal\t%s\nuser\t0m0.000s\nsys\t0m0.000s\n", minSec(d))
}

func minSec(d time.Duration) string {
	m := int(d.Minutes())
	s := d.Seconds() - float64(m*60)
	return fmt.Sprintf("%dm%.3fs", m, s)
}
