package interp

import (
	"sort"
	"strings"
)

// Trap keys are "EXIT", "DEBUG", "ERR", "RETURN" and signal names without
// SIG ("INT", "RTMIN+3").

// trapKey reads a trap's condition: a signal (by number or name), EXIT
// (or 0), DEBUG, ERR or RETURN, in any case.
func trapKey(spec string) (key string, sig int, ok bool) {
	switch u := strings.ToUpper(spec); strings.TrimPrefix(u, "SIG") {
	case "0", "EXIT":
		if u == "SIGEXIT" || u == "0" || u == "EXIT" {
			return "EXIT", 0, true
		}
	case "DEBUG", "ERR", "RETURN":
		if !strings.HasPrefix(u, "SIG") {
			return u, 0, true
		}
	}
	n, ok := parseSignal(spec)
	if !ok {
		return "", 0, false
	}
	return signalNames.Get()[n], n, true
}

// trapOrder sorts trap keys as bash lists them: EXIT, the signals by
// number, then DEBUG, ERR and RETURN.
func trapOrder(key string) int {
	switch key {
	case "EXIT":
		return 0
	case "DEBUG":
		return 100
	case "ERR":
		return 101
	case "RETURN":
		return 102
	}
	n, _ := parseSignal(key)
	return n
}

func trapDisplayName(key string) string {
	switch key {
	case "EXIT", "DEBUG", "ERR", "RETURN":
		return key
	}
	return "SIG" + key
}

// changeTrap sets (or with del resets) a trap of the frame.
func (f *frame) changeTrap(key, action string, del bool) {
	f.setTrap(key, action, del)
	f.shownTraps = nil
	if key == "DEBUG" {
		f.debugTrap = ""
		if !del {
			f.debugTrap = action
		}
	}
	if n, ok := parseSignal(key); ok && key != "EXIT" && f.proc != nil {
		d := dispDefault
		if !del {
			d = dispTrap
			if action == "" {
				d = dispIgnore
			}
		}
		f.proc.setDisp(n, d)
	}
}

// inheritTraps gives a subshell c its parent's traps as bash does:
// ignored signals stay ignored, ERR stays under set -E, DEBUG and RETURN
// under set -T; the others are reset, though trap -p still shows them
// until the subshell sets a trap.
func (c *frame) inheritTraps(parent *frame) {
	c.traps = map[string]string{}
	c.trapShared = false
	c.debugTrap = ""
	for k, v := range parent.traps {
		keep := v == "" && k != "EXIT"
		switch k {
		case "ERR":
			keep = parent.opts.has(optErrtrace)
		case "DEBUG", "RETURN":
			keep = parent.opts.has(optFunctrace)
		}
		if keep {
			c.traps[k] = v
			if k == "DEBUG" {
				c.debugTrap = v
			}
			if n, ok := parseSignal(k); ok && c.proc != nil {
				c.proc.setDisp(n, dispIgnore)
			}
		}
	}
	c.shownTraps = parent.shownTraps
	if c.shownTraps == nil && len(parent.traps) > 0 {
		c.shownTraps = parent.traps
		parent.trapShared = true
	}
}

// enterFuncTraps hides the ERR trap (without set -E) and the DEBUG and
// RETURN traps (without set -T) from a function's body; the returned
// func puts back those the function did not set itself.
func (f *frame) enterFuncTraps() func() {
	var saved [3]string
	var had [3]bool
	for i, k := range [3]string{"ERR", "DEBUG", "RETURN"} {
		on := f.opts.has(optFunctrace)
		if k == "ERR" {
			on = f.opts.has(optErrtrace)
		}
		if on {
			continue
		}
		if act, ok := f.traps[k]; ok {
			saved[i], had[i] = act, true
			f.setTrap(k, "", true)
			if k == "DEBUG" {
				f.debugTrap = ""
			}
		}
	}
	if !had[0] && !had[1] && !had[2] {
		return func() {}
	}
	return func() {
		for i, k := range [3]string{"ERR", "DEBUG", "RETURN"} {
			if _, set := f.traps[k]; had[i] && !set {
				f.setTrap(k, saved[i], false)
				if k == "DEBUG" {
					f.debugTrap = saved[i]
				}
			}
		}
	}
}

// runReturnTrap runs the RETURN trap after a function or sourced file.
func (f *frame) runReturnTrap() {
	if act, ok := f.traps["RETURN"]; ok && act != "" && !f.inTrap {
		ctl, n := f.ctl, f.ctlN
		f.ctl = ctlNone
		f.runTrapHere(act)
		if f.ctl == ctlNone {
			f.ctl, f.ctlN = ctl, n
		}
	}
}

// runDebugTrap runs the DEBUG trap before a command.
func (f *frame) runDebugTrap() {
	if f.inTrap || f.debugTrap == "" {
		return
	}
	f.runTrapHere(f.debugTrap)
}

// runTrapHere runs a DEBUG, ERR or RETURN trap, whose LINENO is the line
// of the command that triggered it (signal and EXIT traps count their own
// lines).
func (f *frame) runTrapHere(act string) {
	base := f.lineBase
	f.lineBase = f.lineno - 1
	f.runTrap(act)
	f.lineBase = base
}

func (f *frame) biTrap(args []string) int {
	args = args[1:]
	fl, args, ok := f.parseFlags(args, "trap", "lp", "trap: usage: trap [-lp] [[arg] signal_spec ...]\n")
	if !ok {
		return 2
	}
	list, print := fl.has('l'), fl.has('p')
	if list {
		f.fds.writeString(1, signalListing())
		return 0
	}
	if print || len(args) == 0 {
		return f.printTraps(args)
	}
	action, sigs := args[0], args[1:]
	reset := action == "-"
	if len(sigs) == 0 {
		// trap SIG: reset it
		sigs, reset = args, true
	} else if isDigits(action) {
		// POSIX: a leading number makes every operand a condition to reset
		sigs, reset = args, true
	}
	status := 0
	for _, s := range sigs {
		key, _, ok := trapKey(s)
		if !ok {
			f.errorf("trap: %s: invalid signal specification", s)
			status = 1
			continue
		}
		f.changeTrap(key, action, reset)
	}
	return status
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// printTraps is trap -p: every trap set (or those named), in bash's
// order and quoting.
func (f *frame) printTraps(names []string) int {
	traps := f.traps
	if f.shownTraps != nil {
		traps = f.shownTraps
	}
	var keys []string
	status := 0
	if len(names) == 0 {
		for k := range traps {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return trapOrder(keys[i]) < trapOrder(keys[j]) })
	} else {
		for _, n := range names {
			k, _, ok := trapKey(n)
			if !ok {
				f.errorf("trap: %s: invalid signal specification", n)
				status = 1
				continue
			}
			keys = append(keys, k)
		}
	}
	var b strings.Builder
	for _, k := range keys {
		act, ok := traps[k]
		if !ok {
			continue
		}
		b.WriteString("trap -- ")
		b.WriteString(singleQuoteAlways(act))
		b.WriteByte(' ')
		b.WriteString(trapDisplayName(k))
		b.WriteByte('\n')
	}
	f.fds.writeString(1, b.String())
	return status
}

// singleQuoteAlways quotes s in single quotes, as bash's trap -p and
// set -x do: 'it'\”s'.
func singleQuoteAlways(s string) string {
	if s == "'" {
		return `\'`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
