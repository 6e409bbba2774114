package interp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"runtime/debug"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/internal/lazy"
)

// Dispatch runs one command inside the sandbox: a fallback, a registered
// command, a shell, or a script file. It never starts a host process except
// through an operator-named fallback.
func (sh *Shell) Dispatch(ctx context.Context, c *builtins.Call) (status int) {
	return sh.dispatch(ctx, c, false)
}

// execQuiet is Call.Exec: a command running another (xargs, find -exec,
// env, timeout) reports a missing or unrunnable command in its own words,
// so the shell's messages for those are left out.
func (sh *Shell) execQuiet(ctx context.Context, c *builtins.Call) int {
	return sh.dispatch(ctx, c, true)
}

func (sh *Shell) dispatch(ctx context.Context, c *builtins.Call, quiet bool) (status int) {
	if ctx.Err() != nil {
		return 1
	}
	c.Exec = sh.execQuiet
	c.Workers = sh.Workers
	if fsys, ok := c.FS.(fdFS); ok {
		fsys.ctx = ctx // a FIFO's open waits no longer than this command
		c.FS = fsys
	}
	name := c.Args[0]
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(c.Stderr, "bashbox: %s: internal error: %v\n", name, firstLine(fmt.Sprint(p)))
			if debugPanics {
				fmt.Fprintf(c.Stderr, "%s\n", debug.Stack())
			}
			status = 2
		}
	}()
	if !sh.Budget.command() {
		return 1
	}
	// The command's own memory account, given back when it returns.
	acct := sh.Budget.Account()
	c.Memory = acct
	defer acct.Release()
	if sh.Fallback != nil {
		if st, ok := sh.Fallback(ctx, c); ok {
			return st
		}
	}
	if strings.Contains(name, "/") {
		return sh.runPath(ctx, c, quiet)
	}
	// A name is looked up along PATH, in order, as bash does: the commands
	// live in /usr/bin and /bin, so a PATH without them finds none (the
	// shell's builtins were run before this). A command's own exec (xargs,
	// env) with PATH unset searches execvp's default, /bin:/usr/bin; the
	// shell with PATH unset or empty looks in the current directory only.
	pathVar, set := c.LookupEnv("PATH")
	if !set && quiet {
		pathVar = "/bin:/usr/bin"
	}
	p, found := sh.lookPath(pathVar, c.Dir, name)
	if !found {
		if !quiet {
			why := "command not found"
			if pathVar == "" {
				why = "No such file or directory"
			}
			fmt.Fprintf(c.Stderr, "%s%s: %s\n", infoOf(ctx).prefix, name, why)
		}
		return 127
	}
	if dir := path.Dir(p); dir == "/bin" || dir == "/usr/bin" {
		switch name {
		case "bash", "sh":
			return sh.runShellCommand(ctx, c)
		}
		if cmd, ok := sh.Registry.Lookup(name); ok {
			return cmd(sh.Budget.commandContext(ctx), c)
		}
	}
	c2 := *c
	c2.Args = append([]string{p}, c.Args[1:]...)
	return sh.runPath(ctx, &c2, quiet)
}

// debugPanics adds stacks to panic messages; for development only.
var debugPanics = false

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// runPath runs a command named by path: /usr/bin/NAME, or a script file in
// the sandbox, through its #! line.
func (sh *Shell) runPath(ctx context.Context, c *builtins.Call, quiet bool) int {
	name := c.Args[0]
	fail := func(status int, format string, args ...any) int {
		if !quiet {
			fmt.Fprintf(c.Stderr, strings.Replace(format, "bash: ", infoOf(ctx).prefix, 1), args...)
		}
		return status
	}
	p := c.Abs(name)
	if dir, base := path.Split(path.Clean(p)); dir == "/bin/" || dir == "/usr/bin/" {
		if base == "bash" || base == "sh" {
			c2 := *c
			c2.Args = append([]string{base}, c.Args[1:]...)
			return sh.runShellCommand(ctx, &c2)
		}
		if cmd, ok := sh.Registry.Lookup(base); ok {
			return cmd(sh.Budget.commandContext(ctx), c)
		}
	}
	fi, err := sh.FS.Stat(p)
	if err != nil {
		return fail(127, "bash: %s: %s\n", name, builtins.ErrText(err))
	}
	if fi.IsDir() {
		return fail(126, "bash: %s: Is a directory\n", name)
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return fail(126, "bash: %s: Permission denied\n", name)
	}
	data, err := sh.readFile(p)
	if err != nil {
		return fail(126, "bash: %s: %s\n", name, builtins.ErrText(err))
	}
	interp, arg := shebang(data)
	base := path.Base(interp)
	if base == "env" && arg != "" {
		fields := strings.Fields(arg)
		if fields[0] == "-S" && len(fields) > 1 {
			fields = fields[1:]
		}
		base, arg = fields[0], strings.Join(fields[1:], " ")
	}
	switch {
	case interp == "" || base == "bash" || base == "sh" || base == "dash":
		var opts []string
		if arg != "" {
			opts = strings.Fields(arg)
		}
		return sh.Run(ctx, Invocation{
			Script: string(data), Name: name, Source: name, Opts: opts,
			Params: c.Args[1:], Env: c.Env, Dir: c.Dir,
			Stdin: c.Stdin, Stdout: c.Stdout, Stderr: c.Stderr, umask: &c.Umask,
		})
	}
	if cmd, ok := sh.Registry.Lookup(base); ok {
		argv := []string{base}
		if arg != "" {
			argv = append(argv, arg)
		}
		c2 := *c
		c2.Args = append(append(argv, name), c.Args[1:]...)
		return cmd(ctx, &c2)
	}
	return fail(126, "bash: %s: %s: bad interpreter: No such file or directory\n", name, interp)
}

// shebang returns the interpreter and its optional argument of a #! line.
func shebang(data []byte) (interp, arg string) {
	if !bytes.HasPrefix(data, []byte("#!")) {
		return "", ""
	}
	line, _, _ := bytes.Cut(data[2:], []byte("\n"))
	fields := strings.SplitN(strings.TrimSpace(strings.TrimSuffix(string(line), "\r")), " ", 2)
	if len(fields) == 2 {
		arg = strings.TrimSpace(fields[1])
	}
	return fields[0], arg
}

// runShellCommand implements bash and sh: -c SCRIPT [NAME [ARGS]], a script
// file with arguments, or a script on standard input. Set options (-e, -u,
// -x, -o pipefail) are passed on.
func (sh *Shell) runShellCommand(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	var opts []string
	script, hasScript := "", false
	fromStdin := false // -s: the script is standard input, the operands its arguments
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--version":
			fmt.Fprintf(c.Stdout, "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu) [bashbox sandbox]\n")
			return 0
		case a == "-c":
			if len(args) < 2 {
				fmt.Fprintf(c.Stderr, "%s: -c: option requires an argument\n", c.Args[0])
				return 2
			}
			script, hasScript = args[1], true
			args = args[2:]
			goto run
		case a == "-o" || a == "+o":
			if len(args) < 2 {
				args = args[1:]
				continue
			}
			opts = append(opts, a, args[1])
			args = args[2:]
		case a == "--":
			args = args[1:]
			goto run
		case a == "-s":
			fromStdin = true
			args = args[1:]
		case a == "-l" || a == "-i" || a == "--norc" || a == "--noprofile" || a == "--login" || a == "--posix":
			args = args[1:]
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			for _, f := range a[1:] {
				if f == 'c' {
					if len(args) < 2 {
						fmt.Fprintf(c.Stderr, "%s: -c: option requires an argument\n", c.Args[0])
						return 2
					}
					script, hasScript = args[1], true
					args = args[2:]
					if rest := strings.ReplaceAll(a[1:], "c", ""); rest != "" {
						opts = append(opts, string(a[0])+rest)
					}
					goto run
				}
			}
			opts = append(opts, a)
			args = args[1:]
		default:
			goto run
		}
	}
run:
	inv := Invocation{
		Name: c.Args[0], Opts: opts, Env: c.Env, Dir: c.Dir,
		Stdin: c.Stdin, Stdout: c.Stdout, Stderr: c.Stderr, umask: &c.Umask,
	}
	switch {
	case hasScript:
		inv.Script, inv.Source = script, "-c"
		if len(args) > 0 {
			inv.Name, inv.Params = args[0], args[1:]
		}
	case len(args) > 0 && !fromStdin:
		data, err := sh.readFile(c.Abs(args[0]))
		if fi, serr := sh.FS.Stat(c.Abs(args[0])); serr == nil && fi.IsDir() {
			// bash names the directory twice: as $0 and as the file.
			fmt.Fprintf(c.Stderr, "%s: %s: Is a directory\n", args[0], args[0])
			return 126
		}
		if err != nil {
			fmt.Fprintf(c.Stderr, "%s: %s: %s\n", c.Args[0], args[0], builtins.ErrText(err))
			return 127
		}
		inv.Script, inv.Source, inv.Name, inv.Params = string(data), args[0], args[0], args[1:]
	default:
		data, err := io.ReadAll(c.Stdin)
		if err != nil {
			return 1
		}
		inv.Script, inv.Source, inv.Params = string(data), c.Args[0], args
		inv.Stdin = strings.NewReader("")
	}
	return sh.Run(ctx, inv)
}

// lookPath finds name along pathVar: registered commands live in /usr/bin
// and /bin; other directories (relative ones from cwd, an empty entry
// being the current directory) are searched in the sandbox filesystem.
func (sh *Shell) lookPath(pathVar, cwd, name string) (string, bool) {
	_, registered := sh.Registry.Lookup(name)
	registered = registered || name == "bash" || name == "sh"
	for _, dir := range strings.Split(pathVar, ":") {
		if dir == "" {
			dir = "."
		}
		switch path.Clean(dir) {
		case "/usr/bin", "/bin":
			if registered {
				return path.Clean(dir) + "/" + name, true
			}
			continue
		}
		p := path.Join(dir, name)
		if !path.IsAbs(dir) {
			p = path.Join(cwd, p)
		}
		if fi, err := sh.FS.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			if !path.IsAbs(dir) {
				// bash runs it by the name PATH gave it
				return dir + "/" + name, true
			}
			return p, true
		}
	}
	return "", false
}

// shellKeywords are bash's reserved words (type, compgen -k, and the
// quoting of function names declare -f prints), built at first use.
var shellKeywords = lazy.Value[map[string]bool]{New: func() map[string]bool {
	return map[string]bool{
		"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
		"for": true, "select": true, "while": true, "until": true, "do": true, "done": true, "in": true,
		"function": true, "time": true, "{": true, "}": true, "!": true, "[[": true, "]]": true, "coproc": true,
	}
}}

// prefixWriter adds a prefix at the start of every line.
type prefixWriter struct {
	prefix string
	w      io.Writer
	mid    bool // inside a line
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	var out []byte
	for _, c := range b {
		if !p.mid {
			out = append(out, p.prefix...)
			p.mid = true
		}
		out = append(out, c)
		if c == '\n' {
			p.mid = false
		}
	}
	if _, err := p.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}
