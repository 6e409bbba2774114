package interp

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

func sortStrings(s []string) { sort.Strings(s) }

func (f *frame) biPwd(args []string) int {
	physical := f.opts.has(optPhysical)
	for _, a := range args[1:] {
		switch a {
		case "-P":
			physical = true
		case "-L":
			physical = false
		default:
			if strings.HasPrefix(a, "-") {
				f.errorf("pwd: %s: invalid option", a)
				f.fds.writeString(2, "pwd: usage: pwd [-LP]\n")
				return 2
			}
		}
	}
	// The shell's own directory, never $PWD: a script may set PWD to
	// anything, and pwd -P resolves only in the sandbox.
	dir := f.dir
	if physical {
		if p, err := f.call.sh.FS.Resolve(dir, true); err == nil {
			dir = p
		}
	}
	f.fds.writeString(1, dir+"\n")
	return 0
}

var signalNames = map[string]string{
	"0": "EXIT", "1": "HUP", "2": "INT", "3": "QUIT", "6": "ABRT", "9": "KILL", "10": "USR1",
	"12": "USR2", "13": "PIPE", "14": "ALRM", "15": "TERM", "17": "CHLD",
}

func normSignal(s string) (string, bool) {
	u := strings.ToUpper(s)
	u = strings.TrimPrefix(u, "SIG")
	if n, ok := signalNames[u]; ok {
		return n, true
	}
	switch u {
	case "EXIT", "ERR", "DEBUG", "RETURN", "HUP", "INT", "QUIT", "ABRT", "KILL", "USR1", "USR2", "PIPE", "ALRM", "TERM", "CHLD", "CONT", "STOP", "TSTP", "WINCH":
		return u, true
	}
	return "", false
}

func (f *frame) biTrap(args []string) int {
	args = args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "-p" {
		names := args
		if len(names) > 0 {
			names = names[1:]
		}
		keys := make([]string, 0, len(f.traps))
		if len(names) == 0 {
			for k := range f.traps {
				keys = append(keys, k)
			}
			sort.Strings(keys)
		} else {
			for _, n := range names {
				if k, ok := normSignal(n); ok {
					keys = append(keys, k)
				}
			}
		}
		for _, k := range keys {
			act, ok := f.traps[k]
			if !ok {
				continue
			}
			name := k
			if k != "EXIT" && k != "ERR" && k != "DEBUG" && k != "RETURN" {
				name = "SIG" + k
			}
			f.fds.printf(1, "trap -- %s %s\n", shellQuote(act), name)
		}
		return 0
	}
	if args[0] == "-l" {
		f.fds.writeString(1, " 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP\n")
		return 0
	}
	action := args[0]
	sigs := args[1:]
	reset := action == "-"
	if len(sigs) == 0 {
		if _, ok := normSignal(action); ok {
			sigs, reset = args, true
		}
	}
	status := 0
	for _, s := range sigs {
		name, ok := normSignal(s)
		if !ok {
			f.errorf("trap: %s: invalid signal specification", s)
			status = 1
			continue
		}
		f.setTrap(name, action, reset)
	}
	return status
}

func (f *frame) biShopt(args []string) int {
	args = args[1:]
	var set, unset, quiet, print, useSet bool
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		for _, c := range args[0][1:] {
			switch c {
			case 's':
				set = true
			case 'u':
				unset = true
			case 'q':
				quiet = true
			case 'p':
				print = true
			case 'o':
				useSet = true
			default:
				f.errorf("shopt: -%c: invalid option", c)
				f.fds.writeString(2, "shopt: usage: shopt [-pqsu] [-o] [optname ...]\n")
				return 2
			}
		}
		args = args[1:]
	}
	lookup := func(name string) (options, bool) {
		if useSet {
			return setOptionByName(name)
		}
		return shoptByName(name)
	}
	line := func(name string, on bool) {
		if quiet {
			return
		}
		if print || (set || unset) && len(args) == 0 {
			flag := "-u"
			if on {
				flag = "-s"
			}
			if useSet {
				flag = "+o"
				if on {
					flag = "-o"
				}
				f.fds.printf(1, "set %s %s\n", flag, name)
				return
			}
			f.fds.printf(1, "shopt %s %s\n", flag, name)
			return
		}
		state := "off"
		if on {
			state = "on"
		}
		f.fds.printf(1, "%-15s\t%s\n", name, state)
	}
	if len(args) == 0 {
		if useSet {
			for _, so := range setOptions {
				on := so.bit != 0 && f.opts.has(so.bit)
				if (set && !on) || (unset && on) {
					continue
				}
				line(so.name, on)
			}
			return 0
		}
		for _, so := range shoptOptions {
			on := so.bit != 0 && f.opts.has(so.bit)
			if (set && !on) || (unset && on) {
				continue
			}
			line(so.name, on)
		}
		return 0
	}
	status := 0
	for _, name := range args {
		bit, ok := lookup(name)
		if !ok {
			f.errorf("shopt: %s: invalid shell option name", name)
			status = 1
			continue
		}
		switch {
		case set:
			f.opts.put(bit, true)
		case unset:
			f.opts.put(bit, false)
		default:
			on := bit != 0 && f.opts.has(bit)
			line(name, on)
			if !on {
				status = 1
			}
		}
	}
	return status
}

// setOptind publishes OPTIND without the reset a script's own
// assignment to OPTIND causes.
func (f *frame) setOptind() {
	pos := f.getoptsPos
	f.assignScalar("OPTIND", itoa(f.optind))
	f.getoptsPos = pos
}

// biGetopts implements getopts OPTSTRING NAME [ARGS].
func (f *frame) biGetopts(args []string) int {
	if len(args) < 3 {
		f.fds.writeString(2, "getopts: usage: getopts optstring name [arg ...]\n")
		return 2
	}
	optstr, name := args[1], args[2]
	if !syntax.ValidName(name) {
		f.errorf("getopts: `%s': not a valid identifier", name)
		return 1
	}
	params := f.params
	if len(args) > 3 {
		params = args[3:]
	}
	silent := strings.HasPrefix(optstr, ":")
	if silent {
		optstr = optstr[1:]
	}
	optindS, _ := f.getVar("OPTIND")
	optind, err := strconv.Atoi(optindS)
	if err != nil || optind < 1 {
		optind = 1
	}
	if optind != f.optind {
		f.optind, f.getoptsPos = optind, 0
	}
	done := func() int {
		f.assignScalar(name, "?")
		f.setOptind()
		f.getoptsPos = 0
		return 1
	}
	if f.optind-1 >= len(params) {
		return done()
	}
	arg := params[f.optind-1]
	if f.getoptsPos == 0 {
		if arg == "--" {
			f.optind++
			return done()
		}
		if len(arg) < 2 || arg[0] != '-' {
			return done()
		}
		f.getoptsPos = 1
	}
	c := arg[f.getoptsPos]
	f.getoptsPos++
	advance := func() {
		if f.getoptsPos >= len(arg) {
			f.optind++
			f.getoptsPos = 0
		}
	}
	i := strings.IndexByte(optstr, c)
	if i < 0 || c == ':' {
		advance()
		if silent {
			f.assignScalar("OPTARG", string(c))
		} else {
			f.unsetVar("OPTARG")
			if v, _ := f.getVar("OPTERR"); v != "0" {
				f.fds.printf(2, "%s: illegal option -- %c\n", f.arg0, c)
			}
		}
		f.assignScalar(name, "?")
		f.setOptind()
		return 0
	}
	if i+1 < len(optstr) && optstr[i+1] == ':' {
		if f.getoptsPos < len(arg) {
			f.assignScalar("OPTARG", arg[f.getoptsPos:])
			f.optind++
			f.getoptsPos = 0
		} else if f.optind < len(params) {
			f.assignScalar("OPTARG", params[f.optind])
			f.optind += 2
			f.getoptsPos = 0
		} else {
			f.optind++
			f.getoptsPos = 0
			if silent {
				f.assignScalar(name, ":")
				f.assignScalar("OPTARG", string(c))
			} else {
				f.assignScalar(name, "?")
				f.unsetVar("OPTARG")
				if v, _ := f.getVar("OPTERR"); v != "0" {
					f.fds.printf(2, "%s: option requires an argument -- %c\n", f.arg0, c)
				}
			}
			f.setOptind()
			return 0
		}
	} else {
		f.unsetVar("OPTARG")
		advance()
	}
	f.assignScalar(name, string(c))
	f.setOptind()
	return 0
}

// wordOf makes a literal word (for subscripts given as text).
func wordOf(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

var _ = context.Background
