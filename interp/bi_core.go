package interp

import (
	"errors"
	"io"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
)

type builtinFunc func(f *frame, args []string) int

// nativeBuiltins are the shell's own commands; init fills the table to
// break the initialization cycle through eval and source.
var nativeBuiltins map[string]builtinFunc

func init() {
	nativeBuiltins = map[string]builtinFunc{
		":": func(*frame, []string) int { return 0 }, "true": func(*frame, []string) int { return 0 },
		"false": func(*frame, []string) int { return 1 },
		"exit":  (*frame).biExit, "return": (*frame).biReturn, "break": (*frame).biBreak, "continue": (*frame).biBreak,
		"shift": (*frame).biShift, "set": (*frame).biSet, "unset": (*frame).biUnset, "eval": (*frame).biEval,
		"source": (*frame).biSource, ".": (*frame).biSource, "exec": (*frame).biExec,
		"declare": (*frame).biDeclare, "typeset": (*frame).biDeclare, "local": (*frame).biDeclare,
		"export": (*frame).biDeclare, "readonly": (*frame).biDeclare,
		"let": (*frame).biLet, "echo": (*frame).biEcho, "printf": (*frame).biPrintf, "read": (*frame).biRead,
		"mapfile": (*frame).biMapfile, "readarray": (*frame).biMapfile,
		"cd": (*frame).biCd, "pwd": (*frame).biPwd, "test": (*frame).biTest, "[": (*frame).biTest,
		"type": (*frame).biType, "command": (*frame).biCommand, "builtin": (*frame).biBuiltin,
		"hash": (*frame).biHash,
		"trap": (*frame).biTrap, "umask": (*frame).biUmask, "alias": (*frame).biAlias, "unalias": (*frame).biUnalias,
		"shopt": (*frame).biShopt, "getopts": (*frame).biGetopts, "wait": (*frame).biWait, "jobs": (*frame).biJobs,
		"kill": (*frame).biKill, "disown": (*frame).biDisown,
		"times": (*frame).biTimes, "dirs": (*frame).biDirs, "pushd": (*frame).biPushd, "popd": (*frame).biPopd,
		"caller": (*frame).biCaller, "enable": (*frame).biEnable, "help": (*frame).biHelp,
		"complete": (*frame).biComplete, "compopt": (*frame).biCompopt,
		"compgen": (*frame).biCompgen, "ulimit": (*frame).biUlimit, "suspend": func(*frame, []string) int { return 1 },
		"logout": (*frame).biExit, "fc": func(*frame, []string) int { return 1 }, "history": func(*frame, []string) int { return 0 },
		"bg": (*frame).biFgBg, "fg": (*frame).biFgBg,
	}
}

// isBuiltinName reports whether name is a shell builtin (for type).
func isBuiltinName(name string) bool {
	_, ok := nativeBuiltins[name]
	return ok
}

func (f *frame) biShift(args []string) int {
	n := 1
	if len(args) > 1 {
		k, err := strconv.Atoi(args[1])
		if err != nil {
			f.errorf("shift: %s: numeric argument required", args[1])
			return 1
		}
		n = k
	}
	if n < 0 {
		f.errorf("shift: %d: shift count out of range", n)
		return 1
	}
	if len(args) > 2 {
		// bash abandons the command line here, as for a syntax error.
		f.errorf("shift: too many arguments")
		f.status = 1
		f.abort()
		return 1
	}
	if n > len(f.params) {
		if f.opts.has(optShiftVerbose) {
			f.errorf("shift: %d: shift count out of range", n)
		}
		return 1
	}
	f.params = f.params[n:]
	return 0
}

func (f *frame) biSet(args []string) int {
	if len(args) == 1 {
		f.listVars(0, false, false)
		f.listFuncs(0, false)
		return 0
	}
	params, setParams, st := f.setFlags(args[1:])
	if st != 0 {
		return st
	}
	if setParams {
		f.params = append([]string(nil), params...)
	}
	return 0
}

func (f *frame) biUnset(args []string) int {
	fl, args, ok := f.parseFlags(args[1:], "unset", "fvn", "unset: usage: unset [-f] [-v] [-n] [name ...]\n")
	if !ok {
		return 2
	}
	mode := ""
	if c := fl.last("fvn"); c != 0 {
		mode = string(c)
	}
	status := 0
	for _, name := range args {
		if mode == "f" {
			if !f.unsetFunc(name) {
				status = 1
			}
			continue
		}
		base, sub, hasSub := strings.Cut(name, "[")
		if !syntax.ValidName(base) || hasSub && !strings.HasSuffix(sub, "]") {
			if mode == "" {
				// bash tries the name as a function's, which may be any word
				if !f.unsetFunc(name) {
					status = 1
				}
				continue
			}
			f.errorf("unset: `%s': not a valid identifier", name)
			status = 1
			continue
		}
		if hasSub {
			if !f.unsetElem(base, strings.TrimSuffix(sub, "]")) {
				status = 1
			}
			continue
		}
		if mode == "n" {
			if v := f.lookupRaw(name); v != nil && v.attrs&attrNameref != 0 {
				sc := f.scopeFor(name)
				sc.del(name)
				continue
			}
		}
		if mode == "" && f.lookupVar(name) == nil {
			if _, ok := f.funcs[name]; ok {
				if !f.unsetFunc(name) {
					status = 1
				}
				continue
			}
		}
		if !f.unsetVar(name) {
			status = 1
		}
	}
	return status
}

func (f *frame) biEval(args []string) int {
	src := strings.Join(args[1:], " ")
	if strings.TrimSpace(src) == "" {
		return 0
	}
	if !f.enterNest("eval") {
		return 125
	}
	defer f.leaveNest()
	f.status = 0
	f.evalDepth++
	oldBase := f.lineBase
	// bash counts eval's lines from the end of the eval command
	if f.curCmd != nil {
		f.lineBase = f.lineno + int(f.curCmd.End().Line()-f.curCmd.Pos().Line()) - 1
	} else {
		f.lineBase = f.lineno - 1
	}
	f.runSource(src, true, false)
	f.lineBase = oldBase
	f.evalDepth--
	return f.status
}

func (f *frame) biSource(args []string) int {
	if len(args) < 2 {
		f.errorf("%s: filename argument required", args[0])
		f.fds.printf(2, "%s: usage: %s filename [arguments]\n", args[0], args[0])
		return 2
	}
	name := args[1]
	p := name
	if !strings.Contains(name, "/") {
		// search PATH in the sandbox, then the current directory
		found := ""
		if f.opts.has(optSourcepath) {
			pv, _ := f.getVar("PATH")
			for _, dir := range strings.Split(pv, ":") {
				if dir == "" || !path.IsAbs(dir) {
					continue
				}
				cand := path.Join(dir, name)
				if fi, err := f.call.sh.FS.Stat(cand); err == nil && fi.Mode().IsRegular() {
					found = cand
					break
				}
			}
		}
		if found == "" {
			found = path.Join(f.dir, name)
		}
		p = found
	} else {
		p = f.absPath(name)
	}
	if fi, err := f.call.sh.FS.Stat(p); err == nil && fi.IsDir() {
		f.errorf("%s: %s: is a directory", args[0], name)
		return 1
	}
	data, err := f.call.sh.readFile(p)
	if errors.Is(err, errIsDir) {
		f.errorf("%s: %s: is a directory", args[0], name)
		return 1
	}
	if err != nil {
		f.errorf("%s: %s", name, builtins.ErrText(err))
		return 1
	}
	if !f.enterNest("source") {
		return 125
	}
	defer f.leaveNest()
	oldParams := f.params
	var given []string
	if len(args) > 2 {
		given = args[2:]
		f.params = given
	}
	f.sourceDepth++
	f.status = 0
	leave := f.pushCall("source", name, 0)
	f.sourceTop = true
	f.runSource(string(data), false, false)
	if f.ctl == ctlReturn {
		f.ctl = ctlNone
	}
	f.runReturnTrap()
	leave()
	f.sourceDepth--
	// The caller's parameters come back unless the file set its own.
	if given != nil && len(f.params) == len(given) && (len(given) == 0 || &f.params[0] == &given[0]) {
		f.params = oldParams
	}
	if f.ctl == ctlReturn {
		f.ctl = ctlNone
	}
	return f.status
}

func errTextOf(err error) string {
	if err == errIsDir {
		return "is a directory"
	}
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	switch s {
	case "file does not exist":
		return "No such file or directory"
	case "permission denied":
		return "Permission denied"
	}
	return s
}

// biExec runs a command in place of the shell, or applies redirections
// for good when there is none (the statement's redirections are then
// already applied to the frame's table: see stmt).
func (f *frame) biExec(args []string) int {
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return 0
	}
	f.run(args, nil)
	f.ctl = ctlExit
	return f.status
}

// biDeclare runs declare and friends given as plain words (builtin
// declare, command local).
func (f *frame) biDeclare(args []string) int {
	var da []declArg
	for _, a := range args[1:] {
		da = append(da, declArg{text: a})
	}
	return f.declare(args[0], da)
}

func (f *frame) biLet(args []string) int {
	if len(args) < 2 {
		f.errorf("let: expression expected")
		return 1
	}
	var n int64
	c0, fa := f.arithFor("let", false)
	defer f.arithRestore(c0, fa)
	for _, a := range args[1:] {
		var ok bool
		n, ok = f.arithString(a)
		if !ok {
			if f.ctl == ctlAbort {
				f.ctl = ctlNone
			}
			return 1
		}
	}
	return boolStatus(n != 0)
}

// letClause runs let parsed as arithmetic.
func (f *frame) letClause(c *syntax.LetClause) {
	var n int64
	c0, fa := f.arithFor("let", false)
	defer f.arithRestore(c0, fa)
	if f.opts.has(optXtrace) {
		words := []string{"let"}
		for _, x := range c.Exprs {
			if w, ok := x.(*syntax.Word); ok {
				if s, ok := f.literal(w); ok {
					words = append(words, s)
					continue
				}
			}
			words = append(words, f.sourceText(x, arithText(x)))
		}
		f.trace(words)
	}
	for _, x := range c.Exprs {
		var ok bool
		n, ok = f.arithCommand("let: ", x)
		if !ok {
			f.status = 1
			return
		}
	}
	f.status = boolStatus(n != 0)
}

func (f *frame) biTimes(args []string) int {
	f.fds.writeString(1, "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
	return 0
}

func (f *frame) biUlimit(args []string) int {
	f.fds.writeString(1, "unlimited\n")
	return 0
}

// readAll reads the rest of descriptor n.
func (f *frame) readAll(n int) (string, error) {
	var b strings.Builder
	_, err := io.Copy(&b, f.fds.readerOf(n))
	return b.String(), err
}
