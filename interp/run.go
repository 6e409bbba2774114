package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
)

// ctxKey carries the native engine's nesting depth into nested shells
// started through Dispatch (bash -c, ./script).
type ctxKey struct{}

type ctxInfo struct {
	depth  int
	prefix string // error prefix of the command's shell ("bash: line 3: ")
}

func infoOf(ctx context.Context) ctxInfo {
	if v, ok := ctx.Value(ctxKey{}).(ctxInfo); ok {
		return v
	}
	return ctxInfo{prefix: "bash: "}
}

// panicSlot keeps the first panic of a call's goroutines.
type panicSlot struct {
	mu  sync.Mutex
	val any
}

// pipe makes a pipe of the call: when the call ends, every pipe is
// closed, so no goroutine stays blocked on one.
func (c *callState) pipe() (*pipeReader, *pipeWriter) {
	pr, pw := newPipe()
	c.pipesMu.Lock()
	c.pipes = append(c.pipes, pr)
	c.pipesMu.Unlock()
	return pr, pw
}

// paced makes each write to w a checkpoint of the call (Budget.Pace): a
// pipeline's stages spend their time moving data through pipes.
func (c *callState) paced(w io.Writer) io.Writer {
	if c.sh.Budget == nil || c.sh.Budget.Pace == nil {
		return w
	}
	return pacedWriter{w, c.sh.Budget}
}

type pacedWriter struct {
	w io.Writer
	b *Budget
}

func (p pacedWriter) Write(b []byte) (int, error) {
	p.b.pace()
	return p.w.Write(b)
}

// closePipes ends every pipe of the call: writers fail and readers see
// the end.
func (c *callState) closePipes() {
	c.pipesMu.Lock()
	defer c.pipesMu.Unlock()
	for _, pr := range c.pipes {
		pr.CloseWithError(builtins.ErrPipeClosed)
	}
	c.pipes = nil
}

// goSafe runs fn in a goroutine of the call: a panic in it becomes an
// error message on stderr and status 2 through onPanic, and the call
// waits for it before returning.
func (c *callState) goSafe(fn func(), onPanic func(p any)) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer func() {
			if p := recover(); p != nil {
				c.panics.mu.Lock()
				if c.panics.val == nil {
					c.panics.val = p
				}
				c.panics.mu.Unlock()
				if debugPanics {
					fmt.Printf("panic: %v\n%s", p, debug.Stack())
				}
				onPanic(p)
			}
		}()
		fn()
	}()
}

// runNative runs inv with the native engine.
func (sh *Shell) runNative(ctx context.Context, inv Invocation) (status int) {
	if inv.Name == "" {
		inv.Name = "bash"
	}
	parent := infoOf(ctx)
	jobCtx, cancelJobs := context.WithCancel(ctx)
	call := &callState{
		sh: sh, ctx: jobCtx, name: inv.Name, source: inv.Source,
		pids: &pidAlloc{}, wg: &sync.WaitGroup{}, panics: &panicSlot{},
	}
	call.pids.next.Store(2)
	f := newFrame(call, inv)
	*f.nest = parent.depth
	defer func() {
		if p := recover(); p != nil {
			if debugPanics {
				fmt.Printf("panic: %v\n%s", p, debug.Stack())
			}
			io.WriteString(inv.Stderr, "bashbox: internal error: "+firstLine(fmt.Sprint(p))+"\n")
			status = 2
		}
		cancelJobs()
		f.fds.release()
		call.closePipes()
		call.wg.Wait()
	}()
	if _, nested := ctx.Value(ctxKey{}).(ctxInfo); nested {
		if !f.enterNest("bash") {
			return 125
		}
	}
	f.runSource(inv.Script, inv.Source == "-c" || inv.Source == "", true)
	f.runExitTrap()
	if st, ok := f.killedStatus(); ok {
		return st
	}
	return f.status
}

// newFrame builds the starting frame of a script.
func newFrame(call *callState, inv Invocation) *frame {
	// sized for what initVars puts in: the map does not grow while the
	// environment is read
	g := &scope{vars: make(map[string]*variable, len(nativeShellVars)+len(inv.Env)+8), gen: newGen()}
	f := &frame{
		call: call, ctx: call.ctx, vars: g, global: g,
		funcs: map[string]*syntax.Stmt{}, funcMeta: map[string]funcMeta{}, aliases: map[string]string{}, traps: map[string]string{},
		opts: defaultOptions, umask: 0o022, dir: inv.Dir, fds: &fdTab{},
		params: inv.Params, arg0: inv.Name, pid: 2, ppid: 1, shellPID: 2,
		nest: new(int), jobs: &jobTable{}, optind: 1,
	}
	if inv.umask != nil {
		f.umask = uint32(*inv.umask & fs.ModePerm)
	}
	f.rng.reseed = true
	f.proc = newProc(f.pid)
	call.procs.add(f.proc)
	f.startSecs = nowUnix()
	stdin := inv.Stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	f.fds.set(0, newStream(stdin, nil, nil))
	call.stdin = f.fds.get(0)
	f.fds.set(1, newStream(nil, inv.Stdout, nil))
	f.fds.set(2, newStream(nil, inv.Stderr, nil))
	f.initVars(inv.Env)
	if len(inv.Opts) > 0 {
		f.setFlags(inv.Opts)
	}
	if v := f.lookupVar("SHELLOPTS"); v != nil && v.attrs&attrExport != 0 {
		for _, o := range strings.Split(v.str, ":") {
			if bit, ok := setOptionByName(o); ok {
				f.opts.put(bit, true)
			}
		}
	}
	return f
}

// enterNest counts one level of nesting; past the budget it prints bash's
// line and trips the nesting budget.
func (f *frame) enterNest(what string) bool {
	*f.nest++
	limit := f.call.sh.Budget.nestingLimit()
	if *f.nest > limit {
		*f.nest--
		switch what {
		case "eval":
			f.errorf("eval: maximum eval nesting level exceeded (%d)", limit)
		case "source":
			f.errorf("source: maximum source nesting level exceeded (%d)", limit)
		case "bash", "subshell", "cmdsubst":
			f.errorf("maximum nesting level exceeded (%d)", limit)
		default:
			f.errorf("%s: maximum function nesting level exceeded (%d)", what, limit)
		}
		if b := f.call.sh.Budget; b != nil {
			b.Trip(BudgetNesting, int64(limit))
		}
		f.ctl, f.status = ctlExit, 125
		return false
	}
	return true
}

func (f *frame) leaveNest() { *f.nest-- }

// maxParseNesting bounds the nesting of input before it reaches the
// parser, which recurses once per level.
const maxParseNesting = 1000

// checkInputNesting scans src for brackets nested deeper than max: the
// parser would recurse that deep. Quotes are not tracked, so the bound
// is generous.
func checkInputNesting(src string, max int) bool {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '(', '{', '[', '`':
			depth++
			if depth > max {
				return false
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return true
}

// ctxReader stops the parser's input when the call ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) > 4096 {
		p = p[:4096]
	}
	return c.r.Read(p)
}

// runSource parses src statement by statement and runs each as it is
// parsed, as bash does: what precedes a syntax error has run. top says
// this is a script's top level, where fatal errors abandon one command
// and the next one runs.
func (f *frame) runSource(src string, inline, top bool) {
	if !checkInputNesting(src, maxParseNesting) {
		f.errorf("maximum nesting level exceeded (%d)", maxParseNesting)
		if b := f.call.sh.Budget; b != nil {
			b.Trip(BudgetNesting, maxParseNesting)
		}
		f.ctl, f.status = ctlExit, 125
		return
	}
	file, src, err := parseSource(f.ctx, src)
	if err != nil && f.ctx.Err() != nil {
		f.stopped()
		return
	}
	var perr error
	if err != nil {
		// bash runs the complete lines before the one with the error.
		perr = err
		file = nil
		var pe syntax.ParseError
		if errors.As(err, &pe) && pe.Pos.Line() > 1 {
			prefix := src
			for n, i := uint(1), 0; i < len(src); i++ {
				if src[i] == '\n' {
					n++
					if n == pe.Pos.Line() {
						prefix = src[:i+1]
						break
					}
				}
			}
			file, _ = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(prefix), "")
		}
	}
	// a sourced file, like a script, abandons only the line of a
	// fatal error
	lineTop := top || f.sourceTop
	f.sourceTop = false
	saved, savedEnd := f.src, f.unitEnd
	f.src = src
	if !top {
		f.traceLevel++
	}
	defer func() {
		f.src, f.unitEnd = saved, savedEnd
		if !top {
			f.traceLevel--
		}
	}()
	if file != nil {
		skipLine := uint(0)
		echoed := uint(0) // set -v: the input lines already echoed
		for _, st := range file.Stmts {
			if skipLine != 0 && st.Pos().Line() == skipLine {
				continue
			}
			f.unitEnd = st.End().Line()
			if f.opts.has(optVerbose) {
				echoed = f.echoInput(src, echoed, st)
			}
			f.stmt(st)
			if echoed < st.End().Line() {
				echoed = st.End().Line()
			}
			if lineTop && f.ctl == ctlAbort {
				f.ctl = ctlNone
				skipLine = st.End().Line()
			}
			if f.ctl != ctlNone || f.ctx.Err() != nil {
				break
			}
		}
	}
	if perr != nil && f.ctl == ctlNone {
		f.fds.writeString(2, nativeSyntaxError(f.syntaxPrefix(inline), src, perr, f.lineBase))
		f.status = 2
		if top {
			f.ctl = ctlExit
		}
		// eval, source and traps go on: the command fails with status 2.
	}
}

// echoInput prints, for set -v, the input lines of st not yet echoed,
// as bash echoes each line it reads.
func (f *frame) echoInput(src string, echoed uint, st *syntax.Stmt) uint {
	first, last := echoed+1, st.End().Line()
	if first > last {
		return echoed
	}
	line := uint(1)
	var b strings.Builder
	for _, text := range strings.SplitAfter(src, "\n") {
		if line >= first && line <= last {
			b.WriteString(text)
			if !strings.HasSuffix(text, "\n") {
				b.WriteByte('\n')
			}
		}
		line++
	}
	f.fds.writeString(2, b.String())
	return last
}

// syntaxPrefix starts a syntax error message: "bash: -c: " for inline
// scripts, "bash: eval: " in eval, "SCRIPT: " for files.
func (f *frame) syntaxPrefix(inline bool) string {
	if f.evalDepth > 0 {
		return f.call.name + ": eval: "
	}
	if src := f.curSource(); src != "" && !inline {
		return src + ": "
	}
	if inline || !f.fileScript() {
		return f.call.name + ": -c: "
	}
	return f.call.source + ": "
}

// stopped reports whether the call is over; the evaluator then unwinds.
func (f *frame) stopped() bool {
	if f.ctx.Err() != nil {
		if f.ctl == ctlNone {
			f.ctl = ctlExit
			f.status = 1
			if st, ok := f.killedStatus(); ok {
				f.status = st
			}
		}
		return true
	}
	return false
}

func (f *frame) stmts(list []*syntax.Stmt) {
	for _, st := range list {
		f.stmt(st)
		if f.ctl != ctlNone {
			return
		}
	}
}

func (f *frame) stmt(st *syntax.Stmt) {
	f.call.sh.Budget.pace()
	if f.stopped() || f.opts.has(optNoexec) {
		// set -n: a script reads its commands without running them
		return
	}
	f.lineno = f.lineBase + int(st.Position.Line())
	if f.opts.has(optXtrace) {
		// a command's trace goes where stderr was before its own
		// redirections, as bash prints it first
		saved := f.traceOut
		f.traceOut = nil
		if len(st.Redirs) > 0 && tracesItself(st.Cmd) {
			f.traceOut = f.fds.get(2)
		}
		defer func() { f.traceOut = saved }()
	}
	if !f.inTrap {
		switch st.Cmd.(type) {
		case *syntax.CallExpr, *syntax.TestClause, *syntax.ArithmCmd:
			f.curCmd = st
			if f.debugTrap != "" {
				f.runDebugTrap()
				if f.ctl != ctlNone {
					return
				}
			}
		}
	}
	if f.proc.has.Load() {
		if f.handleSignals(); f.ctl != ctlNone {
			return
		}
	}
	if st.Background {
		f.background(st)
		return
	}
	if st.Negated {
		f.noErrExit++
	}
	if len(st.Redirs) > 0 && isAssignOnly(st.Cmd) {
		// bash assigns first, then opens the files for nothing
		f.cmd(st.Cmd)
		if st2 := f.status; f.ctl == ctlNone {
			f.withRedirs(st.Redirs, false, func() {})
			if f.status == 0 {
				f.status = st2
			}
		}
	} else if ce, ok := st.Cmd.(*syntax.CallExpr); ok && len(st.Redirs) > 0 && !isBareExec(st.Cmd) {
		f.callRedir(ce, st.Redirs)
	} else if len(st.Redirs) > 0 {
		f.withRedirs(st.Redirs, isBareExec(st.Cmd), func() { f.cmd(st.Cmd) })
	} else {
		f.cmd(st.Cmd)
	}
	if producesStatus(st.Cmd) {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			f.commandDone()
		}
	}
	if st.Negated {
		f.noErrExit--
		if f.status == 0 {
			f.status = 1
		} else {
			f.status = 0
		}
		return
	}
	if f.status != 0 && f.ctl == ctlNone && f.noErrExit == 0 && producesStatus(st.Cmd) {
		f.onFailure()
	}
	if f.proc.has.Load() && f.ctl == ctlNone {
		f.handleSignals()
	}
}

// producesStatus says whether a failure of cmd itself (not of a command
// inside it) is what set -e and the ERR trap look at.
func producesStatus(cmd syntax.Command) bool {
	switch c := cmd.(type) {
	case *syntax.CallExpr, *syntax.Subshell, *syntax.TestClause, *syntax.ArithmCmd,
		*syntax.DeclClause, *syntax.LetClause, *syntax.TimeClause, nil:
		return true
	case *syntax.BinaryCmd:
		return c.Op == syntax.Pipe || c.Op == syntax.PipeAll
	}
	return false
}

// onFailure runs the ERR trap and applies set -e after a failed command.
func (f *frame) onFailure() {
	if act, ok := f.traps["ERR"]; ok && act != "" && !f.inTrap {
		f.runTrapHere(act)
	}
	if f.opts.has(optErrexit) {
		f.ctl = ctlExit
	}
}

func (f *frame) cmd(cmd syntax.Command) {
	switch c := cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		f.call1(c)
	case *syntax.Block:
		f.stmts(c.Stmts)
	case *syntax.Subshell:
		f.subshell1(c.Stmts)
	case *syntax.BinaryCmd:
		f.binary(c)
	case *syntax.IfClause:
		f.ifClause(c)
	case *syntax.WhileClause:
		f.whileClause(c)
	case *syntax.ForClause:
		f.forClause(c)
	case *syntax.CaseClause:
		f.caseClause(c)
	case *syntax.FuncDecl:
		f.status = f.defineFunc(c.Name.Value, c.Body)
	case *syntax.ArithmCmd:
		if f.opts.has(optXtrace) {
			f.traceArith(c)
		}
		n, ok := f.arithAs("((", c.X)
		if !ok {
			return
		}
		f.status = boolStatus(n != 0)
	case *syntax.TestClause:
		f.testClause(c)
	case *syntax.DeclClause:
		f.declClause(c)
	case *syntax.LetClause:
		f.letClause(c)
	case *syntax.TimeClause:
		f.timeClause(c)
	case *syntax.CoprocClause:
		f.coproc(c)
	default:
		f.errorf("unsupported command %T", cmd)
		f.status = 1
	}
}

func boolStatus(ok bool) int {
	if ok {
		return 0
	}
	return 1
}

// binary runs && and || lists and pipelines.
func (f *frame) binary(c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		f.noErrExit++
		f.stmt(c.X)
		f.noErrExit--
		if f.ctl != ctlNone {
			return
		}
		if (f.status == 0) == (c.Op == syntax.AndStmt) {
			f.stmt(c.Y)
		}
	default:
		f.pipeline(c)
	}
}

// subshell1 runs stmts in a copy of the frame: nothing it changes reaches
// the parent.
func (f *frame) subshell1(stmts []*syntax.Stmt) {
	if !f.enterNest("subshell") {
		return
	}
	defer f.leaveNest()
	c := f.fork(false)
	c.runSub(func() { c.stmts(stmts) })
	f.status = c.status
	f.reportSignaled(c, stmts)
}

// runSub runs fn as a subshell's whole life: its exit ends it, its EXIT
// trap runs, its descriptors are released.
func (c *frame) runSub(fn func()) {
	fn()
	if c.ctl == ctlAbort {
		c.status = 1
	}
	c.ctl = ctlNone
	c.runExitTrap()
	if st, ok := c.killedStatus(); ok {
		c.status = st
	}
	c.call.procs.drop(c.proc)
	c.fds.release()
}

// runExitTrap runs the EXIT trap once.
func (f *frame) runExitTrap() {
	act, ok := f.traps["EXIT"]
	if !ok || act == "" {
		return
	}
	delete(f.traps, "EXIT")
	st := f.status
	f.ctl = ctlNone
	f.runTrap(act)
	if f.ctl != ctlExit {
		f.status = st
	}
	f.ctl = ctlNone
}

// runTrap runs a trap's action; $? is kept for it and restored.
func (f *frame) runTrap(act string) {
	st := f.status
	old := f.inTrap
	f.inTrap = true
	f.traceLevel-- // a trap's commands trace at the level it interrupts
	f.runSource(act, true, false)
	f.traceLevel++
	f.inTrap = old
	if f.ctl != ctlExit && f.ctl != ctlReturn {
		f.status = st
	}
	if f.ctl == ctlAbort || f.ctl == ctlReturn && len(f.funcNames) == 0 && f.sourceDepth == 0 {
		f.ctl = ctlNone
	}
}

// isBareExec says whether cmd is exec without a command: its
// redirections then stay in effect.
func isBareExec(cmd syntax.Command) bool {
	c, ok := cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) != 1 || len(c.Assigns) > 0 || len(c.Args[0].Parts) != 1 {
		return false
	}
	l, ok := c.Args[0].Parts[0].(*syntax.Lit)
	return ok && l.Value == "exec"
}

// newSessionFrame builds the frame a session keeps between calls.
func (sh *Shell) newSessionFrame(env []string, dir string) *frame {
	call := &callState{sh: sh, ctx: context.Background(), name: "bash", source: "-c",
		pids: &pidAlloc{}, wg: &sync.WaitGroup{}, panics: &panicSlot{}}
	call.pids.next.Store(2)
	return newFrame(call, Invocation{Name: "bash", Source: "-c", Env: env, Dir: dir, Stdout: io.Discard, Stderr: io.Discard})
}

// runSession runs one call of a session on its kept frame: variables,
// functions, options, traps, aliases and the directory carry over.
func (sh *Shell) runSession(ctx context.Context, f *frame, script string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	jobCtx, cancelJobs := context.WithCancel(ctx)
	call := &callState{sh: sh, ctx: jobCtx, name: "bash", source: "-c",
		pids: f.call.pids, wg: &sync.WaitGroup{}, panics: &panicSlot{}}
	f.call, f.ctx, f.cancel = call, jobCtx, nil
	f.fds.release()
	f.fds = &fdTab{}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	f.fds.set(0, newStream(stdin, nil, nil))
	call.stdin = f.fds.get(0)
	f.fds.set(1, newStream(nil, stdout, nil))
	f.fds.set(2, newStream(nil, stderr, nil))
	f.ctl, f.jobs = ctlNone, &jobTable{}
	call.procs.add(f.proc)
	*f.nest = 0
	defer func() {
		if p := recover(); p != nil {
			io.WriteString(stderr, "bashbox: internal error: "+firstLine(fmt.Sprint(p))+"\n")
			status = 2
		}
		cancelJobs()
		f.fds.release()
		call.closePipes()
		call.wg.Wait()
		f.fds = &fdTab{}
		f.ctl = ctlNone
	}()
	f.runSource(script, true, true)
	return f.status
}
