package interp

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// ctl is a pending change of control flow, unwinding the evaluator.
type ctl uint8

const (
	ctlNone     ctl = iota
	ctlBreak        // break N
	ctlContinue     // continue N
	ctlReturn       // return from a function or sourced file
	ctlExit         // exit the shell (or subshell)
	ctlAbort        // a fatal error: abandon the current top-level command
)

// call is what one native run of a script shares across its frames:
// identity, the job table, the nesting count. Nested shells (bash -c,
// ./script) get their own call sharing the Shell.
type callState struct {
	sh     *Shell
	ctx    context.Context
	name   string // $0 and the error prefix for -c scripts ("bash")
	source string // "-c" for inline scripts, else the script path
	pids   *pidAlloc
	procs  procTable
	stdin  *stream         // the script's own standard input
	wg     *sync.WaitGroup // every goroutine the call starts
	panics *panicSlot

	pipesMu sync.Mutex
	pipes   []*pipeReader // every pipe of the call, closed when it ends
}

// pidAlloc hands out sandbox process ids: the shell is 2 (its parent 1),
// subshells and jobs get the next ones.
type pidAlloc struct{ next atomic.Int64 }

func (p *pidAlloc) alloc() int { return int(p.next.Add(1)) }

// frame is the shell state a subshell copies: ( ), $( ), pipeline stages
// and & jobs run on a fork; { } and function calls share their caller's.
type frame struct {
	call   *callState
	ctx    context.Context
	cancel context.CancelFunc // a job's: kill stops it

	vars   *scope // innermost scope
	global *scope

	funcs       map[string]*syntax.Stmt
	funcsShared bool
	funcMeta    map[string]funcMeta // source and attributes of funcs
	metaShared  bool
	aliases     map[string]string
	aliasShared bool
	aliasFrom   map[string]aliasPos // where each alias was defined; replaced, never changed in place
	unitEnd     uint                // last line of the top-level command being run
	traps       map[string]string
	trapShared  bool
	hashTab     map[string]hashEntry // remembered commands (hash)
	hashShared  bool
	disabled    map[string]bool   // builtins off by enable -n; replaced, never changed in place
	compSpecs   map[string]string // complete's specifications; replaced, never changed in place
	shownTraps  map[string]string // a subshell's parent's traps, shown by trap -p until it sets one
	debugTrap   string            // the DEBUG trap's action, checked before every command
	proc        *proc             // the simulated process this frame runs in

	opts     options
	editMode string // set -o emacs or vi
	umask    uint32
	dir      string
	oldDir   string
	fds      *fdTab

	status     int // $?
	params     []string
	arg0       string
	lastArg    string // $_
	pipeStatus []int  // of the last pipeline of several commands, else nil
	lastStatus int    // the status PIPESTATUS shows when pipeStatus is nil
	lostDyn    uint32 // dynamic variables unset (dynVar.bit)

	pid, ppid int // $BASHPID and the parent's, for sandbox ids
	shellPID  int // $$: the top shell's, kept in subshells

	// control flow
	ctl         ctl
	ctlN        int
	loopDepth   int
	funcNames   []string // the functions running, innermost first
	stack       []callEntry
	lineBase    int          // added to positions: eval's text starts at its line
	curCmd      *syntax.Stmt // $BASH_COMMAND
	curText     string       // $BASH_COMMAND when curCmd is nil (a for header)
	sourceDepth int
	evalDepth   int
	nest        *int // nesting depth, shared by the frames of one goroutine chain
	subshell    int  // BASH_SUBSHELL

	lineno      int
	src         string // the source being run, for error texts
	noErrExit   int    // > 0 while in a context set -e ignores (if/while conditions, && lists, !)
	inTrap      bool
	sourceTop   bool    // the next runSource is a sourced file's
	traceLevel  int     // set -x: levels of eval, source, trap and $( )
	traceNot    bool    // set -x: the [[ ]] primary being traced is negated
	onTraced    func()  // set -x in a pipeline stage: lets the next stage start
	traceOut    *stream // set -x: stderr before the running command's redirections
	lastBg      int     // $!
	jobs        *jobTable
	parentJobs  *jobTable // a command substitution's shell's, for $(jobs -p)
	dirStack    []string
	getoptsPos  int
	rng         rngState
	startSecs   int64
	seconds0    int64
	optind      int
	inCmdSubst  bool
	hadSubst    bool // a command substitution ran in this command's expansions
	substStatus int
	procFDs     []int // descriptors of the running command's process substitutions
	scratch     *scratch
	// arithCmd names the command arithmetic errors are reported for
	// ("((", "let", "[[", "declare"); arithFatal says such an error ends
	// the shell, as it does in an assignment to an integer variable.
	arithCmd   string
	arithFatal bool
	arithErr   bool // an arithmetic error was reported (for [[ ]]'s status)
}

// fork copies the frame for a subshell. async says the parent keeps
// running meanwhile (a background job or a concurrent pipeline stage).
func (f *frame) fork(async bool) *frame {
	c := *f
	c.global = f.global
	c.vars = f.vars.fork(async)
	// find the copy of the global scope: the end of the chain
	g := c.vars
	for g.parent != nil {
		g = g.parent
	}
	c.global = g
	f.funcsShared, c.funcsShared = true, true
	f.metaShared, c.metaShared = true, true
	f.aliasShared, c.aliasShared = true, true
	f.trapShared, c.trapShared = true, true
	f.hashShared, c.hashShared = true, true
	c.fds = f.fds.fork()
	c.params = f.params // replaced, never changed in place
	c.dirStack = append([]string(nil), f.dirStack...)
	c.stack = slices.Clone(f.stack) // the parent pushes and pops in place
	c.jobs = &jobTable{}
	c.pid = f.call.pids.alloc()
	c.ppid = f.pid
	c.subshell = f.subshell + 1
	c.rng.reseed = true
	c.ctl, c.ctlN = ctlNone, 0
	c.proc = newProc(c.pid)
	c.proc.async = f.proc != nil && f.proc.async // a job's subshells are async too
	f.call.procs.add(c.proc)
	c.inheritTraps(f)
	c.loopDepth = 0
	c.procFDs = nil
	c.scratch = nil
	n := *f.nest
	c.nest = &n
	return &c
}

func (f *frame) setFunc(name string, body *syntax.Stmt) {
	cowSet(&f.funcs, &f.funcsShared, name, body, body == nil)
	if body == nil {
		if _, ok := f.funcMeta[name]; ok {
			cowSet(&f.funcMeta, &f.metaShared, name, funcMeta{}, true)
		}
	}
}

func (f *frame) setAlias(name, val string, del bool) {
	cowSet(&f.aliases, &f.aliasShared, name, val, del)
}

func (f *frame) setTrap(sig, action string, del bool) {
	cowSet(&f.traps, &f.trapShared, sig, action, del)
}

// cowSet sets or deletes key in a map a subshell may still share with its
// parent (*shared): the first change copies it.
func cowSet[V any](m *map[string]V, shared *bool, key string, val V, del bool) {
	if *shared {
		*m = maps.Clone(*m)
		*shared = false
	}
	if del {
		delete(*m, key)
		return
	}
	(*m)[key] = val
}

// errPrefix is how bash starts an error message non-interactively:
// "bash: line N: " for -c scripts, "SCRIPT: line N: " for files.
func (f *frame) errPrefix() string {
	var b strings.Builder
	name := f.curSource()
	if name == "" {
		name = f.call.name
	}
	b.WriteString(name)
	b.WriteString(": line ")
	b.WriteString(itoa(f.lineno))
	b.WriteString(": ")
	return b.String()
}

// errorf prints a shell error with bash's prefix.
func (f *frame) errorf(format string, args ...any) {
	f.fds.printf(2, f.errPrefix()+format+"\n", args...)
}
