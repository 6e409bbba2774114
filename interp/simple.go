package interp

import (
	"context"
	"io/fs"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
)

// call1 runs a simple command: assignments, then a function, a builtin
// or a command of the sandbox.
func (f *frame) call1(c *syntax.CallExpr) { f.callRedir(c, nil) }

// callRedir runs a simple command whose redirections, if any, are
// applied after its words are expanded, as bash orders them (a
// substitution's stderr is the command's outer one; "> out$((i++))" sees
// the words' side effects).
func (f *frame) callRedir(c *syntax.CallExpr, redirs []*syntax.Redirect) {
	if len(c.Args) == 0 {
		f.hadSubst = false
		for _, as := range c.Assigns {
			if !f.assignment(as, false) {
				if f.status == 0 {
					f.status = 1
				}
				return
			}
		}
		if f.opts.has(optXtrace) {
			f.traceAssigns(c.Assigns)
		}
		f.status = 0
		if f.hadSubst {
			f.status = f.substStatus
		}
		return
	}
	if n := len(f.procFDs); true {
		defer f.closeProcSubsts(n)
	}
	words := c.Args
	if f.opts.has(optExpandAliases) && len(f.aliases) > 0 {
		if w, ok := f.expandAlias(words); ok {
			words = w
		}
	}
	f.hadSubst = false
	// A loop's [ ] or echo expands into a lent buffer, given back when
	// the builtin is done with it.
	args, ok := f.expandWordsInto(f.takeArgv(len(words)), words, true)
	if !ok {
		if f.ctl == ctlNone {
			f.status = 1
		}
		return
	}
	lent := len(args) > 0 && len(c.Assigns) == 0 && !f.argvKept(args)
	if len(redirs) > 0 {
		f.withRedirs(redirs, false, func() { f.callArgs(c, args) })
	} else {
		f.callArgs(c, args)
	}
	if lent {
		f.giveArgv(args)
	}
}

// callArgs runs a simple command whose words are expanded.
func (f *frame) callArgs(c *syntax.CallExpr, args []string) {
	if len(args) == 0 {
		for _, as := range c.Assigns {
			if !f.assignment(as, false) {
				return
			}
		}
		f.status = 0
		if f.hadSubst {
			f.status = f.substStatus
		}
		return
	}
	if len(c.Assigns) == 0 {
		if f.opts.has(optXtrace) {
			f.trace(args)
		}
		f.run(args, nil)
		f.lastArg = args[len(args)-1]
		return
	}
	// Prefix assignments: a temporary scope for functions and builtins,
	// the environment of a command.
	tmp := &scope{vars: map[string]*variable{}, parent: f.vars, gen: newGen()}
	saved := f.vars
	f.vars = tmp
	for _, as := range c.Assigns {
		if !f.assignPrefix(tmp, as) {
			f.vars = saved
			return
		}
	}
	if f.opts.has(optXtrace) {
		f.traceAssigns(c.Assigns)
		f.trace(args)
	}
	f.run(args, tmp)
	if f.vars == tmp {
		f.vars = saved
	} else {
		// the command changed scopes (it cannot); keep the chain sane
		f.vars = saved
	}
	f.lastArg = args[len(args)-1]
}

// assignPrefix evaluates one VAR=value prefix into the temporary scope.
func (f *frame) assignPrefix(tmp *scope, as *syntax.Assign) bool {
	name := as.Name.Value
	if v := f.lookupRaw(name); v != nil && v.attrs&attrReadonly != 0 {
		// bash reports it and runs the command without it
		f.errorf("%s: readonly variable", name)
		return true
	}
	val, ok := f.assignValue(as.Value)
	if !ok {
		return false
	}
	if as.Append {
		old, _ := f.getVar(name)
		val = old + val
	}
	tmp.put(name, &variable{set: true, str: val, attrs: attrExport, gen: tmp.gen})
	return true
}

// run runs an expanded command line.
func (f *frame) run(args []string, tmp *scope) {
	name := args[0]
	if body, ok := f.funcs[name]; ok {
		f.callFunc(name, body, args)
		return
	}
	if bi, ok := nativeBuiltins[name]; ok && !f.disabled[name] {
		f.status = bi(f, args)
		return
	}
	if !strings.Contains(name, "/") {
		f.hashHit(name)
	}
	f.status = f.external(args, tmp)
}

// external runs a command of the sandbox (registry, script, fallback).
func (f *frame) external(args []string, tmp *scope) int {
	var extra []string
	if tmp != nil {
		for n, v := range tmp.vars {
			extra = append(extra, n+"="+v.str)
		}
	}
	env := f.environ(nil)
	if len(extra) > 0 {
		env = mergeEnv(env, extra)
	}
	c := &builtins.Call{
		Args:   args,
		Stdin:  f.fds.readerOf(0),
		Stdout: f.fds.writer(1),
		Stderr: f.fds.writer(2),
		Env:    env,
		Dir:    f.dir,
		FS:     fdFS{f.call.sh.FS, f.fds, f.ctx},
		Umask:  fs.FileMode(f.umask),
	}
	ctx := context.WithValue(f.ctx, ctxKey{}, ctxInfo{depth: *f.nest, prefix: f.errPrefix()})
	return f.call.sh.dispatch(ctx, c, false)
}

// mergeEnv overrides env's pairs with extra's.
func mergeEnv(env, extra []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		over := false
		for _, e := range extra {
			if n, _, _ := strings.Cut(e, "="); n == name {
				over = true
				break
			}
		}
		if !over {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// callFunc runs a shell function with its own positional parameters and
// a scope for its locals.
func (f *frame) callFunc(name string, body *syntax.Stmt, args []string) {
	if !f.enterNest(name) {
		return
	}
	defer f.leaveNest()
	oldParams, oldVars, oldNames := f.params, f.vars, f.funcNames
	// break and continue do not reach the caller's loops
	oldLoops := f.loopDepth
	f.loopDepth = 0
	defer func() { f.loopDepth = oldLoops }()
	f.params = args[1:]
	f.vars = &scope{vars: map[string]*variable{}, parent: f.vars, gen: newGen(), fn: name}
	f.funcNames = append([]string{name}, f.funcNames...)
	oldSrc := f.src
	m := f.funcMeta[name]
	if m.src != "" {
		f.src = m.src // positions in the body are offsets in it
	}
	if m.source == "" {
		// a -c script's functions and imported ones, as bash names them
		m.source = "environment"
	}
	leave := f.pushCall(name, m.source, m.lineBase)
	defer leave()
	restoreTraps := f.enterFuncTraps()
	if f.debugTrap != "" {
		// a traced function runs the DEBUG trap once more on entry
		f.runDebugTrap()
	}
	f.stmt(body)
	f.src = oldSrc
	f.restoreOpts(f.vars)
	if f.ctl == ctlReturn {
		f.ctl = ctlNone
	}
	f.runReturnTrap()
	restoreTraps()
	f.params, f.vars, f.funcNames = oldParams, oldVars, oldNames
}
