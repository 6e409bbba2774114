package interp

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
)

func sortStrings(s []string) { sort.Strings(s) }

func (f *frame) biCd(args []string) int {
	args = args[1:]
	physical := f.opts.has(optPhysical)
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0] != "-" {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		for _, c := range args[0][1:] {
			switch c {
			case 'P':
				physical = true
			case 'L':
				physical = false
			case 'e', '@':
			default:
				f.errorf("cd: -%c: invalid option", c)
				f.fds.writeString(2, "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]\n")
				return 2
			}
		}
		args = args[1:]
	}
	if len(args) > 1 {
		f.errorf("cd: too many arguments")
		return 1
	}
	target := ""
	printDir := false
	if len(args) == 0 {
		h, ok := f.getVar("HOME")
		if !ok {
			f.errorf("cd: HOME not set")
			return 1
		}
		target = h
	} else {
		target = args[0]
		if target == "-" {
			old, ok := f.getVar("OLDPWD")
			if !ok || old == "" {
				f.errorf("cd: OLDPWD not set")
				return 1
			}
			target, printDir = old, true
		}
	}
	if target == "" {
		return 0
	}
	dest := ""
	if !path.IsAbs(target) && !strings.HasPrefix(target, "./") && !strings.HasPrefix(target, "../") && target != "." && target != ".." {
		if cdpath, ok := f.getVar("CDPATH"); ok && cdpath != "" {
			for _, d := range strings.Split(cdpath, ":") {
				if d == "" {
					d = "."
				}
				cand := path.Join(f.absPath(d), target)
				if fi, err := f.call.sh.FS.Stat(cand); err == nil && fi.IsDir() {
					dest, printDir = cand, true
					break
				}
			}
		}
	}
	if dest == "" {
		dest = f.absPath(target)
	}
	fi, err := f.call.sh.FS.Stat(dest)
	if err != nil {
		f.errorf("cd: %s: %s", target, builtins.ErrText(err))
		return 1
	}
	if !fi.IsDir() {
		f.errorf("cd: %s: Not a directory", target)
		return 1
	}
	if physical {
		if p, err := f.call.sh.FS.Resolve(dest, true); err == nil {
			dest = p
		}
	}
	f.oldDir = f.dir
	f.dir = dest
	f.assignScalar("OLDPWD", f.oldDir)
	f.assignScalar("PWD", dest)
	if printDir {
		f.fds.writeString(1, dest+"\n")
	}
	return 0
}

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

// biTest runs the sandbox's test command as a builtin: not counted, with
// the shell's error prefix.
func (f *frame) biTest(args []string) int {
	if st, ok := quickTest(args); ok {
		return st
	}
	cmd, ok := f.call.sh.Registry.Lookup(args[0])
	if !ok {
		return 2
	}
	var env []string
	for _, a := range args[1:] {
		if a == "-v" {
			env = f.setVarPairs()
			break
		}
	}
	c := &builtins.Call{
		Args: args, Stdin: f.fds.readerOf(0), Stdout: f.fds.writer(1),
		Stderr: &prefixWriter{prefix: f.errPrefix(), w: f.fds.writer(2)},
		Env:    env, Dir: f.dir, FS: fdFS{f.call.sh.FS, f.fds}, Umask: fs.FileMode(f.umask),
	}
	c.Exec = f.call.sh.execQuiet
	return cmd(f.ctx, c)
}

// setVarPairs lists every set scalar as NAME=VALUE (test -v).
func (f *frame) setVarPairs() []string {
	var out []string
	for _, n := range f.varNames("") {
		if v, ok := f.getVar(n); ok {
			out = append(out, n+"="+v)
		}
	}
	return out
}

// commandKind says what runs for name: keyword, alias, function, builtin
// or file (with its path).
func (f *frame) commandKind(name string, useFuncs bool) (string, string) {
	if _, ok := f.aliases[name]; ok && useFuncs && f.opts.has(optExpandAliases) {
		return "alias", f.aliases[name]
	}
	if shellKeywords[name] && useFuncs {
		return "keyword", ""
	}
	if _, ok := f.funcs[name]; ok && useFuncs {
		return "function", ""
	}
	if isBuiltinName(name) {
		return "builtin", ""
	}
	if strings.Contains(name, "/") {
		if fi, err := f.call.sh.FS.Stat(f.absPath(name)); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return "file", name
		}
		return "", ""
	}
	pv, _ := f.getVar("PATH")
	if p, ok := f.call.sh.lookPath(pv, name); ok {
		return "file", p
	}
	return "", ""
}

func (f *frame) biType(args []string) int {
	var flags string
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		flags += args[0][1:]
		args = args[1:]
	}
	has := func(c byte) bool { return strings.IndexByte(flags, c) >= 0 }
	status := 0
	for _, n := range args {
		kind, p := f.commandKind(n, !has('P'))
		if has('P') && kind != "file" {
			kind = ""
		}
		if kind == "" {
			status = 1
			if !has('t') && !has('p') && !has('P') {
				f.errorf("type: %s: not found", n)
			}
			continue
		}
		switch {
		case has('t'):
			f.fds.writeString(1, kind+"\n")
		case has('p') || has('P'):
			if kind == "file" {
				f.fds.writeString(1, p+"\n")
			}
		default:
			f.fds.writeString(1, describe(f, n, kind, p))
		}
	}
	return status
}

func describe(f *frame, n, kind, p string) string {
	switch kind {
	case "alias":
		return fmt.Sprintf("%s is aliased to `%s'\n", n, p)
	case "keyword":
		return n + " is a shell keyword\n"
	case "function":
		return n + " is a function\n" + funcText(n, f.funcs[n]) + "\n"
	case "builtin":
		return n + " is a shell builtin\n"
	}
	return n + " is " + p + "\n"
}

func (f *frame) biCommand(args []string) int {
	args = args[1:]
	var flags string
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		flags += args[0][1:]
		args = args[1:]
	}
	if len(args) == 0 {
		return 0
	}
	if strings.ContainsAny(flags, "vV") {
		status := 0
		for _, n := range args {
			kind, p := f.commandKind(n, true)
			if kind == "" {
				if strings.Contains(flags, "V") {
					f.errorf("command: %s: not found", n)
				}
				status = 1
				continue
			}
			if strings.Contains(flags, "V") {
				f.fds.writeString(1, describe(f, n, kind, p))
				continue
			}
			switch kind {
			case "file":
				f.fds.writeString(1, p+"\n")
			case "alias":
				f.fds.writeString(1, "alias "+n+"='"+p+"'\n")
			default:
				f.fds.writeString(1, n+"\n")
			}
		}
		return status
	}
	// command NAME: skip functions
	if bi, ok := nativeBuiltins[args[0]]; ok {
		return bi(f, args)
	}
	return f.external(args, nil)
}

func (f *frame) biBuiltin(args []string) int {
	if len(args) < 2 {
		return 0
	}
	bi, ok := nativeBuiltins[args[1]]
	if !ok {
		f.errorf("builtin: %s: not a shell builtin", args[1])
		return 1
	}
	return bi(f, args[1:])
}

func (f *frame) biHash(args []string) int {
	args = args[1:]
	if len(args) > 0 && args[0] == "-r" {
		return 0
	}
	if len(args) == 0 {
		f.fds.writeString(1, "hash: hash table empty\n")
		return 0
	}
	status := 0
	pv, _ := f.getVar("PATH")
	for _, n := range args {
		if strings.HasPrefix(n, "-") {
			continue
		}
		if _, ok := f.call.sh.lookPath(pv, n); !ok && !isBuiltinName(n) {
			f.errorf("hash: %s: not found", n)
			status = 1
		}
	}
	return status
}

func (f *frame) biUmask(args []string) int {
	symbolic := false
	args = args[1:]
	if len(args) > 0 && args[0] == "-S" {
		symbolic, args = true, args[1:]
	}
	if len(args) > 0 && args[0] == "-p" {
		args = args[1:]
	}
	if len(args) == 0 {
		m := f.umask
		if symbolic {
			perm := func(shift uint) string {
				bits := (^m >> shift) & 7
				s := ""
				for i, c := range "rwx" {
					if bits&(4>>i) != 0 {
						s += string(c)
					}
				}
				return s
			}
			f.fds.printf(1, "u=%s,g=%s,o=%s\n", perm(6), perm(3), perm(0))
		} else {
			f.fds.printf(1, "%04o\n", m)
		}
		return 0
	}
	n, err := strconv.ParseUint(args[0], 8, 32)
	if err != nil || n > 0o777 {
		f.errorf("umask: %s: octal number out of range", args[0])
		return 1
	}
	f.umask = uint32(n)
	return 0
}

func (f *frame) biAlias(args []string) int {
	args = args[1:]
	if len(args) > 0 && args[0] == "-p" {
		args = args[1:]
	}
	if len(args) == 0 {
		names := make([]string, 0, len(f.aliases))
		for n := range f.aliases {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			f.fds.printf(1, "alias %s=%s\n", n, shellQuote(f.aliases[n]))
		}
		return 0
	}
	status := 0
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			v, found := f.aliases[name]
			if !found {
				f.errorf("alias: %s: not found", name)
				status = 1
				continue
			}
			f.fds.printf(1, "alias %s=%s\n", name, shellQuote(v))
			continue
		}
		f.setAlias(name, val, false)
	}
	return status
}

func (f *frame) biUnalias(args []string) int {
	status := 0
	for _, a := range args[1:] {
		if a == "-a" {
			f.aliases = map[string]string{}
			f.aliasShared = false
			continue
		}
		if _, ok := f.aliases[a]; !ok {
			f.errorf("unalias: %s: not found", a)
			status = 1
			continue
		}
		f.setAlias(a, "", true)
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
	if set && unset {
		f.errorf("shopt: cannot set and unset shell options simultaneously")
		return 1
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
		if print {
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

// biGetopts implements getopts OPTSTRING NAME [ARGS].
func (f *frame) biGetopts(args []string) int {
	if len(args) < 3 {
		f.errorf("getopts: usage: getopts optstring name [arg ...]")
		return 2
	}
	optstr, name := args[1], args[2]
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
		f.assignScalar("OPTIND", itoa(f.optind))
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
				f.errorf("illegal option -- %c", c)
			}
		}
		f.assignScalar(name, "?")
		f.assignScalar("OPTIND", itoa(f.optind))
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
					f.errorf("option requires an argument -- %c", c)
				}
			}
			f.assignScalar("OPTIND", itoa(f.optind))
			return 0
		}
	} else {
		f.unsetVar("OPTARG")
		advance()
	}
	f.assignScalar(name, string(c))
	f.assignScalar("OPTIND", itoa(f.optind))
	return 0
}

func (f *frame) biDirs(args []string) int {
	stack := append([]string{f.dir}, f.dirStack...)
	sep := " "
	for _, a := range args[1:] {
		switch a {
		case "-c":
			f.dirStack = nil
			return 0
		case "-p", "-v":
			sep = "\n"
		}
	}
	home, _ := f.getVar("HOME")
	out := make([]string, len(stack))
	for i, d := range stack {
		if home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
			d = "~" + d[len(home):]
		}
		out[i] = d
	}
	f.fds.writeString(1, strings.Join(out, sep)+"\n")
	return 0
}

func (f *frame) biPushd(args []string) int {
	if len(args) < 2 {
		if len(f.dirStack) == 0 {
			f.errorf("pushd: no other directory")
			return 1
		}
		top := f.dirStack[0]
		cur := f.dir
		if st := f.biCd([]string{"cd", top}); st != 0 {
			return st
		}
		f.dirStack[0] = cur
		return f.biDirs([]string{"dirs"})
	}
	cur := f.dir
	if st := f.biCd([]string{"cd", args[1]}); st != 0 {
		return st
	}
	f.dirStack = append([]string{cur}, f.dirStack...)
	return f.biDirs([]string{"dirs"})
}

func (f *frame) biPopd(args []string) int {
	if len(f.dirStack) == 0 {
		f.errorf("popd: directory stack empty")
		return 1
	}
	top := f.dirStack[0]
	if st := f.biCd([]string{"cd", top}); st != 0 {
		return st
	}
	f.dirStack = f.dirStack[1:]
	return f.biDirs([]string{"dirs"})
}

// wordOf makes a literal word (for subscripts given as text).
func wordOf(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

var _ = context.Background
