// Package xargs implements GNU xargs (findutils 4.9): build command lines
// from standard input and run them through the sandbox, in parallel with
// -P.
//
// Deviations, due to the sandbox:
//   - There is no terminal: -p fails as GNU xargs does without a
//     controlling terminal, and -o gives commands an empty standard input.
//   - A command's status of 129 to 192 is taken as death by signal
//     (status-128), as the sandbox's commands report a broken pipe (141)
//     or a timeout; GNU would see a real signal.
//   - --show-limits counts the environment as the sum of its strings.
package xargs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

var options = builtins.Options{StopAtOperand: true, List: []builtins.Option{
	// long options in GNU's table order, which shows in ambiguity errors
	{Short: '0', Long: "null"},
	{Short: 'a', Long: "arg-file", Arg: builtins.RequiredArg},
	{Short: 'd', Long: "delimiter", Arg: builtins.RequiredArg},
	{Short: 'e', Long: "eof", Arg: builtins.OptionalArg},
	{Short: 'i', Long: "replace", Arg: builtins.OptionalArg},
	{Short: 'l', Long: "max-lines", Arg: builtins.OptionalArg},
	{Short: 'n', Long: "max-args", Arg: builtins.RequiredArg},
	{Short: 'o', Long: "open-tty"},
	{Short: 'p', Long: "interactive"},
	{Short: 'r', Long: "no-run-if-empty"},
	{Short: 's', Long: "max-chars", Arg: builtins.RequiredArg},
	{Short: 't', Long: "verbose"},
	{Long: "show-limits"},
	{Short: 'x', Long: "exit"},
	{Short: 'P', Long: "max-procs", Arg: builtins.RequiredArg},
	{Long: "process-slot-var", Arg: builtins.RequiredArg},
	{Long: "version"},
	{Long: "help"},
	{Short: 'E', Arg: builtins.RequiredArg},
	{Short: 'I', Arg: builtins.RequiredArg},
	{Short: 'L', Arg: builtins.RequiredArg},
}}

const (
	argMax          = 2097152 // the kernel's ARG_MAX on Linux
	defaultMaxChars = 131072
	maxProcsLimit   = 2147483647

	exitNonzero = 123 // some invocation exited with status 1-125
	exitStop    = 124 // an invocation exited with status 255
	exitSignal  = 125 // an invocation was killed by a signal
)

// errExit ends xargs with a status after its message was printed.
type errExit struct{ status int }

func (e errExit) Error() string { return "exit " + strconv.Itoa(e.status) }

type xargs struct {
	ctx context.Context
	c   *builtins.Call

	cmd        []string
	maxArgs    int
	maxLines   int
	replace    string
	hasReplace bool
	maxChars   int
	exitTooBig bool
	eof        string
	delimited  bool
	delim      byte
	noRunEmpty bool
	verbose    bool
	prompt     bool
	procs      int
	slotVar    string
	openTTY    bool
	argFile    string
	hasArgFile bool
	showLimits bool

	childStdin io.Reader
	in         *bufio.Reader
	nulWarned  bool
	atEOF      bool
	word       []byte
	lineno     int
	item       *string

	// the command line being built
	base  int
	size  int
	batch []string
	ran   bool

	// parallel runs
	mu       sync.Mutex
	wg       sync.WaitGroup
	slots    []bool
	free     chan struct{}
	status   int
	fatal    int
	out, err io.Writer
}

// Run reads items from standard input (or -a FILE), and runs the command
// (echo by default) through c.Exec with as many items appended as the
// limits allow.
func Run(ctx context.Context, c *builtins.Call) int {
	x := &xargs{ctx: ctx, c: c, procs: 1}
	if status, done := x.parseOptions(); done {
		return status
	}
	return x.run()
}

func (x *xargs) warnf(format string, args ...any) {
	x.c.Errorf("warning: "+format, args...)
}

// usageFail prints msg and GNU's hint to try --help.
func (x *xargs) usageFail(msg string) {
	x.c.Errorf("%s", msg)
	x.c.TryHelp(0)
}

func (x *xargs) run() int {
	c := x.c
	var src io.Reader = c.Stdin
	x.childStdin = strings.NewReader("")
	if x.hasArgFile {
		f, err := c.Open(x.argFile)
		if err != nil {
			c.Errorf("Cannot open input file %s: %s", quote.New(c).Q(x.argFile), builtins.ErrText(err))
			return 1
		}
		defer f.Close()
		src = f
		if !x.openTTY {
			x.childStdin = c.Stdin
		}
	}
	x.in = bufio.NewReaderSize(src, 64<<10)
	x.out, x.err = c.Stdout, c.Stderr
	if x.procs > 1 {
		x.out = &procutil.LockedWriter{W: c.Stdout}
		x.err = &procutil.LockedWriter{W: c.Stderr}
		x.free = make(chan struct{}, min(x.procs, 1<<16))
		for i := 0; i < cap(x.free); i++ {
			x.free <- struct{}{}
		}
	}

	err := x.loop()
	x.wg.Wait()
	var ee errExit
	switch {
	case errors.As(err, &ee):
		return ee.status
	case err != nil:
		return 1
	}
	if x.fatal != 0 {
		return x.fatal
	}
	if x.ctx.Err() != nil {
		return procutil.CancelStatus(x.ctx)
	}
	return x.status
}

func baseSize(args []string) int {
	n := 0
	for _, a := range args {
		n += len(a) + 1
	}
	return n
}

// loop reads the input, one line (or delimited item) at a time, and runs
// the command lines as they fill up.
func (x *xargs) loop() error {
	if !x.hasReplace {
		x.base = baseSize(x.cmd)
	}
	if x.base > x.maxChars {
		x.c.Errorf("cannot fit single argument within argument list size limit")
		return errExit{1}
	}
	x.size = x.base
	for {
		if x.stopped() {
			return nil
		}
		var more bool
		var err error
		if x.delimited {
			more, err = x.readItem()
		} else {
			more, err = x.readLine()
		}
		if err != nil {
			return err
		}
		if x.hasReplace {
			if x.item != nil {
				if err := x.execReplaced(*x.item); err != nil {
					return err
				}
				x.item = nil
			}
		} else if x.maxLines > 0 && x.lineno >= x.maxLines {
			x.lineno = 0
			if err := x.flush(); err != nil {
				return err
			}
		}
		if !more {
			break
		}
	}
	if !x.hasReplace && (len(x.batch) > 0 || !x.ran && !x.noRunEmpty) {
		return x.flush()
	}
	return nil
}

// flush runs the command with the arguments gathered so far.
func (x *xargs) flush() error {
	x.ran = true
	argv := make([]string, 0, len(x.cmd)+len(x.batch))
	argv = append(append(argv, x.cmd...), x.batch...)
	x.batch, x.size = x.batch[:0], x.base
	return x.exec(argv)
}

// push adds an argument to the command line being built, running the
// command first when the argument would not fit or -n is reached.
func (x *xargs) push(arg string) error {
	if x.hasReplace {
		item := arg // a copy: taking arg's address would move every argument to the heap
		x.item = &item
		return nil
	}
	need := len(arg) + 1
	if x.size+need > x.maxChars {
		if len(x.batch) == 0 {
			x.c.Errorf("cannot fit single argument within argument list size limit")
			return errExit{1}
		}
		if x.exitTooBig && (x.maxLines > 0 || x.maxArgs > 0) {
			x.c.Errorf("argument list too long")
			return errExit{1}
		}
		if err := x.flush(); err != nil {
			return err
		}
	}
	if x.maxArgs > 0 && len(x.batch) >= x.maxArgs {
		if err := x.flush(); err != nil {
			return err
		}
	}
	x.batch = append(x.batch, arg)
	x.size += need
	return nil
}

// execReplaced runs the command once for an input line, with the replace
// string substituted in the initial arguments.
func (x *xargs) execReplaced(item string) error {
	argv := make([]string, len(x.cmd))
	size := 0
	for i, a := range x.cmd {
		if x.replace != "" && strings.Contains(a, x.replace) {
			a = strings.ReplaceAll(a, x.replace, item)
		}
		argv[i] = a
		size += len(a) + 1
		if size > x.maxChars {
			if i == 0 {
				x.c.Errorf("cannot fit single argument within argument list size limit")
			} else {
				x.c.Errorf("argument list too long")
			}
			return errExit{1}
		}
	}
	x.ran = true
	return x.exec(argv)
}

// fail runs what is pending, as GNU's exec_if_possible does, then stops
// with the message.
func (x *xargs) fail(msg string) error {
	if !x.hasReplace && len(x.batch) > 0 {
		if err := x.flush(); err != nil {
			return err
		}
	}
	x.wg.Wait()
	x.c.Errorf("%s", msg)
	return errExit{1}
}

func (x *xargs) stopped() bool {
	if x.ctx.Err() != nil {
		return true
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.fatal != 0
}

// exec runs one command line, in the background when -P allows more
// than one at a time.
func (x *xargs) exec(argv []string) error {
	c := x.c
	if x.verbose {
		var b strings.Builder
		q := quote.New(c)
		for i, a := range argv {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(q.Quote(a, quote.ShellEscape))
		}
		if x.prompt {
			fmt.Fprint(x.err, b.String())
			c.Errorf("failed to open /dev/tty for reading: No such device or address")
			return errExit{1}
		}
		b.WriteByte('\n')
		fmt.Fprint(x.err, b.String())
	}
	if x.procs <= 1 {
		status, failure := x.runOne(argv, 0)
		return x.record(argv, status, failure)
	}
	select {
	case <-x.free:
	case <-x.ctx.Done():
		return nil
	}
	if x.stopped() {
		x.free <- struct{}{}
		return nil
	}
	x.mu.Lock()
	slot := -1
	for i, busy := range x.slots {
		if !busy {
			slot = i
			break
		}
	}
	if slot < 0 {
		slot = len(x.slots)
		x.slots = append(x.slots, false)
	}
	x.slots[slot] = true
	x.mu.Unlock()
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		status, failure := x.runOne(argv, slot)
		x.mu.Lock()
		x.slots[slot] = false
		x.mu.Unlock()
		x.record(argv, status, failure)
		x.free <- struct{}{}
	}()
	return nil
}

func (x *xargs) runOne(argv []string, slot int) (int, procutil.ExecFailure) {
	sub := x.c.Sub(argv)
	sub.Stdin = x.childStdin
	sub.Stdout = x.out
	sub.Stderr = x.err
	if x.slotVar != "" {
		env := make([]string, 0, len(x.c.Env)+1)
		prefix := x.slotVar + "="
		for _, kv := range x.c.Env {
			if !strings.HasPrefix(kv, prefix) {
				env = append(env, kv)
			}
		}
		sub.Env = append(env, prefix+strconv.Itoa(slot))
	}
	return procutil.Exec(x.ctx, x.c, sub)
}

// record accounts for a finished command: status 1-125 makes the final
// status 123; 255, a signal, or a command that could not run stop xargs.
func (x *xargs) record(argv []string, status int, failure procutil.ExecFailure) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	name := argv[0]
	fatal := 0
	switch {
	case failure != procutil.Ran:
		fmt.Fprintf(x.err, "%s: %s: %s\n", x.c.Name(), name, failure.Text())
		fatal = status
	case status == 0:
	case status == 255:
		fmt.Fprintf(x.err, "%s: %s: exited with status 255; aborting\n", x.c.Name(), name)
		fatal = exitStop
	case status > 128 && status <= 128+64:
		if x.ctx.Err() != nil {
			fatal = status
			break
		}
		fmt.Fprintf(x.err, "%s: %s: terminated by signal %d\n", x.c.Name(), name, status-128)
		fatal = exitSignal
	default:
		x.status = exitNonzero
	}
	if fatal != 0 && x.fatal == 0 {
		x.fatal = fatal
	}
	if fatal != 0 {
		return errExit{fatal}
	}
	return nil
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, "Usage: %s [OPTION]... COMMAND [INITIAL-ARGS]...\n", c.Name())
	fmt.Fprint(c.Stdout, `Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

Mandatory and optional arguments to long options are also
mandatory or optional for the corresponding short option.
  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
                                 (ignored if -0 or -d was specified)
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -o, --open-tty               Reopen stdin as /dev/tty in the child process
                                 before executing the command; useful to run an
                                 interactive application.
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
  -p, --interactive            prompt before running commands
      --process-slot-var=VAR   set environment variable VAR in child processes
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
      --show-limits            show limits on command-line length
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit
`)
}
