package interp

import (
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

func (f *frame) biEcho(args []string) int {
	args = args[1:]
	newline, escapes := true, f.opts.has(optXpgEcho)
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if escapes {
			s, _, stop := unescapeMode(a, true, true)
			b.WriteString(s)
			if stop {
				newline = false
				break
			}
		} else {
			b.WriteString(a)
		}
	}
	if newline {
		b.WriteByte('\n')
	}
	if err := f.fds.writeString(1, b.String()); err != nil {
		if err == errBadFD {
			f.errorf("echo: write error: Bad file descriptor")
		} else if builtins.IsBrokenPipe(err) {
			return f.brokenPipe("echo")
		}
		return 1
	}
	return 0
}

const printfUsage = "printf: usage: printf [-v var] format [arguments]\n"

func (f *frame) biPrintf(args []string) int {
	args = args[1:]
	varName := ""
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		if a == "--" {
			args = args[1:]
			break
		}
		if a[1] != 'v' {
			f.errorf("printf: -%c: invalid option", a[1])
			f.fds.writeString(2, printfUsage)
			return 2
		}
		if len(a) > 2 {
			varName, args = a[2:], args[1:]
			continue
		}
		if len(args) < 2 {
			f.errorf("printf: -v: option requires an argument")
			f.fds.writeString(2, printfUsage)
			return 2
		}
		varName, args = args[1], args[2:]
	}
	if len(args) == 0 {
		f.fds.writeString(2, printfUsage)
		return 2
	}
	if varName != "" && !validVarRef(varName) {
		f.errorf("printf: `%s': not a valid identifier", varName)
		return 2
	}
	errw := &prefixWriter{prefix: f.errPrefix(), w: f.fds.writer(2)}
	env := printfEnv{now: nowUnix(), start: f.startSecs, loc: f.timeZone(), setVar: f.softAssign}
	if varName != "" {
		var out strings.Builder
		st := bashPrintf(&out, errw, env, args[0], args[1:])
		if !f.softAssign(varName, out.String()) {
			return 1
		}
		return st
	}
	env.brokenPipe = func() int { return f.brokenPipe("printf") }
	return bashPrintf(f.fds.writer(1), errw, env, args[0], args[1:])
}

// validVarRef reports whether s names a variable or an array element
// (read, printf -v, mapfile, getopts take either).
func validVarRef(s string) bool {
	base, sub, hasSub := strings.Cut(s, "[")
	return syntax.ValidName(base) && (!hasSub || strings.HasSuffix(sub, "]") && len(sub) > 1)
}

// softAssign sets a variable or array element the way builtins do
// (read, printf -v, getopts): a readonly target prints bash's message and
// fails the builtin without abandoning the command line.
func (f *frame) softAssign(name, val string) bool {
	before := f.ctl
	var ok bool
	if base, sub, hasSub := strings.Cut(name, "["); hasSub {
		ok = f.assignIndex(base, wordOf(strings.TrimSuffix(sub, "]")), val, false)
	} else {
		ok = f.assignScalar(name, val)
	}
	if !ok && before == ctlNone && f.ctl == ctlAbort {
		f.ctl = ctlNone
	}
	return ok
}

// timeZone is the zone TZ names (UTC when unset), for %(fmt)T.
func (f *frame) timeZone() *time.Location {
	return timefmt.Location(f.getVar)
}
