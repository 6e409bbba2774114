// Package env implements env: run a command in a modified environment,
// or print the environment.
package env

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

var options = builtins.Options{StopAtOperand: true, List: []builtins.Option{
	{Short: 'i', Long: "ignore-environment"},
	{Short: '0', Long: "null"},
	{Short: 'u', Long: "unset", Arg: builtins.RequiredArg},
	{Short: 'C', Long: "chdir", Arg: builtins.RequiredArg},
	{Long: "default-signal", Arg: builtins.OptionalArg},
	{Long: "ignore-signal", Arg: builtins.OptionalArg},
	{Long: "block-signal", Arg: builtins.OptionalArg},
	{Long: "list-signal-handling"},
	{Short: 'v', Long: "debug"},
	{Short: 'S', Long: "split-string", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
}}

const usage = "[OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]"

// exitCanceled is env's status for its own failures.
const exitCanceled = 125

type state struct {
	c      *builtins.Call
	ignore bool
	null   bool
	debug  bool
	unset  []string
	chdir  string
	hasDir bool
}

// Run applies the options and assignments, then runs the command through
// c.Exec or prints the resulting environment.
func Run(ctx context.Context, c *builtins.Call) int {
	st := &state{c: c}
	args := append([]string(nil), c.Args[1:]...)
	for len(args) > 0 {
		tok := args[0]
		if tok == "--" {
			args = args[1:]
			break
		}
		if len(tok) < 2 || tok[0] != '-' {
			break
		}
		n := 1
		opts, _, err := options.Parse(args[:1])
		if err != nil && len(args) > 1 && strings.Contains(err.Error(), "requires an argument") {
			n = 2
			opts, _, err = options.Parse(args[:2])
		}
		if err != nil {
			return c.UsageFail(err, "", exitCanceled)
		}
		args = args[n:]
		for _, o := range opts {
			switch o.Key {
			case "ignore-environment":
				st.ignore = true
			case "null":
				st.null = true
			case "unset":
				st.unset = append(st.unset, o.Value)
			case "chdir":
				st.chdir, st.hasDir = o.Value, true
			case "debug":
				st.debug = true
			case "block-signal", "default-signal", "ignore-signal":
				// The sandbox has no signal dispositions to change;
				// the names are still checked as GNU env does.
				if o.Has {
					for _, name := range strings.Split(o.Value, ",") {
						sig, ok := procutil.ParseSignal(name)
						if !ok || sig.Num == 0 {
							c.Errorf("%s: invalid signal", quote.New(c).Q(name))
							c.TryHelp(0)
							return exitCanceled
						}
						if o.Key == "ignore-signal" && (sig.Num == 9 || sig.Num == 19) {
							c.Errorf("failed to set signal action for signal %d: Invalid argument", sig.Num)
							return exitCanceled
						}
					}
				}
			case "split-string":
				split, status := st.splitString(o.Value)
				if status != 0 {
					return status
				}
				args = append(split, args...)
			case "help":
				help(c)
				return 0
			case "version":
				return c.Version()
			}
		}
	}
	if len(args) > 0 && args[0] == "-" {
		st.ignore = true
		args = args[1:]
	}

	var env []string
	if st.ignore {
		st.debugf("cleaning environ\n")
	} else {
		env = append(env, c.Env...)
	}
	for _, name := range st.unset {
		if name == "" || strings.Contains(name, "=") {
			c.Errorf("cannot unset %s: Invalid argument", quote.New(c).Q(name))
			return exitCanceled
		}
		st.debugf("unset:    %s\n", name)
		env = unsetVar(env, name)
	}
	for len(args) > 0 && strings.Contains(args[0], "=") {
		st.debugf("setenv:   %s\n", args[0])
		env = setVar(env, args[0])
		args = args[1:]
	}

	if len(args) == 0 {
		if st.hasDir {
			return c.UsageFail(errors.New("must specify command with --chdir (-C)"), "", exitCanceled)
		}
		end := byte('\n')
		if st.null {
			end = 0
		}
		w := bufio.NewWriterSize(c.Stdout, 32<<10)
		for _, kv := range env {
			w.WriteString(kv)
			w.WriteByte(end)
		}
		if err := w.Flush(); err != nil {
			if builtins.IsBrokenPipe(err) {
				return 141
			}
			c.Errorf("write error: %s", builtins.ErrText(err))
			return exitCanceled
		}
		return 0
	}
	if st.null {
		return c.UsageFail(errors.New("cannot specify --null (-0) with command"), "", exitCanceled)
	}

	sub := c.Sub(args)
	sub.Env = env
	if st.hasDir {
		dir := path.Clean(c.Abs(st.chdir))
		fi, err := c.FS.Stat(dir)
		if err == nil && !fi.IsDir() {
			err = &fs.PathError{Op: "chdir", Path: st.chdir, Err: errNotDir}
		}
		if err != nil {
			c.Errorf("cannot change directory to %s: %s", quote.New(c).AF(st.chdir), builtins.ErrText(err))
			return exitCanceled
		}
		st.debugf("chdir:    %s\n", quote.New(c).AF(st.chdir))
		sub.Dir = dir
	}
	if st.debug {
		st.debugf("executing: %s\n", args[0])
		for i, a := range args {
			st.debugf("   arg[%d]= %s\n", i, quote.New(c).Q(a))
		}
	}
	status, failure := procutil.Exec(ctx, c, sub)
	if failure != procutil.Ran {
		c.Errorf("%s: %s", quote.New(c).Q(args[0]), failure.Text())
	}
	return status
}

var errNotDir = errors.New("not a directory")

func (st *state) debugf(format string, args ...any) {
	if st.debug {
		fmt.Fprintf(st.c.Stderr, format, args...)
	}
}

func unsetVar(env []string, name string) []string {
	out := env[:0]
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return out
}

func setVar(env []string, kv string) []string {
	name, _, _ := strings.Cut(kv, "=")
	for i, e := range env {
		if k, _, ok := strings.Cut(e, "="); ok && k == name {
			env[i] = kv
			return env
		}
	}
	return append(env, kv)
}

// splitString splits the argument of -S into words, as GNU env does for
// shebang lines: white space separates words, single and double quotes
// group, backslash escapes, ${NAME} expands, and # starts a comment.
func (st *state) splitString(s string) ([]string, int) {
	c := st.c
	q := quote.New(c)
	fail := func(format string, args ...any) ([]string, int) {
		c.Errorf(format, args...)
		return nil, exitCanceled
	}
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	const (
		none = iota
		single
		double
	)
	quoting := none
loop:
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quoting == single:
			switch {
			case ch == '\'':
				quoting = none
			case ch == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\''):
				i++
				cur.WriteByte(s[i])
			default:
				cur.WriteByte(ch)
			}
			continue
		case ch == '\'' && quoting == none:
			quoting, inWord = single, true
			continue
		case ch == '"':
			if quoting == double {
				quoting = none
			} else {
				quoting, inWord = double, true
			}
			continue
		case quoting == none && strings.IndexByte(" \t\n\v\f\r", ch) >= 0:
			flush()
			continue
		case quoting == none && ch == '#' && !inWord:
			break loop
		case ch == '\\':
			if i+1 >= len(s) {
				return fail("invalid backslash at end of string in -S")
			}
			i++
			switch e := s[i]; e {
			case '\\', '\'', '"', '#', '$':
				cur.WriteByte(e)
			case '_':
				if quoting == none {
					flush()
					continue
				}
				cur.WriteByte(' ')
			case 'c':
				if quoting == double {
					return fail("'\\c' must not appear in double-quoted -S string")
				}
				break loop
			case 'f':
				cur.WriteByte('\f')
			case 'n':
				cur.WriteByte('\n')
			case 'r':
				cur.WriteByte('\r')
			case 't':
				cur.WriteByte('\t')
			case 'v':
				cur.WriteByte('\v')
			default:
				return fail("invalid sequence '\\%c' in -S", e)
			}
			inWord = true
			continue
		case ch == '$':
			rest := s[i:]
			end := -1
			if strings.HasPrefix(rest, "${") {
				end = strings.IndexByte(rest, '}')
			}
			if end < 0 || !validName(rest[2:end]) {
				return fail("only ${VARNAME} expansion is supported, error at: %s", rest)
			}
			name := rest[2:end]
			val := c.Getenv(name)
			st.debugf("expanding ${%s} into %s\n", name, q.Q(val))
			cur.WriteString(val)
			inWord = true
			i += end
			continue
		}
		cur.WriteByte(ch)
		inWord = true
	}
	if quoting != none {
		return fail("no terminating quote in -S string")
	}
	flush()
	if st.debug {
		st.debugf("split -S:  %s\n", q.Q(s))
		for i, w := range words {
			if i == 0 {
				st.debugf(" into:    %s\n", q.Q(w))
			} else {
				st.debugf("     &    %s\n", q.Q(w))
			}
		}
	}
	return words, 0
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, "Usage: %s %s\n", c.Name(), usage)
	fmt.Fprint(c.Stdout, `Set each NAME to VALUE in the environment and run COMMAND.

Mandatory arguments to long options are mandatory for short options too.
  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -u, --unset=NAME     remove variable from the environment
  -C, --chdir=DIR      change working directory to DIR
  -S, --split-string=S  process and split S into separate arguments;
                        used to pass multiple arguments on shebang lines
      --block-signal[=SIG]    block delivery of SIG signal(s) to COMMAND
      --default-signal[=SIG]  reset handling of SIG signal(s) to the default
      --ignore-signal[=SIG]   set handling of SIG signal(s) to do nothing
      --list-signal-handling  list non default signal handling to stderr
  -v, --debug          print verbose information for each processing step
      --help        display this help and exit
      --version     output version information and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.
`)
}
