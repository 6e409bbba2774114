// Package interp runs scripts with mvdan.cc/sh/v3's interpreter inside the
// sandbox: every handler (exec, call, open, stat, readdir, access) is routed
// to the guest filesystem and the command registry, and the interpreter's
// known host-touching paths are closed (see THREAT_MODEL.md).
package interp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/expand"
	shinterp "mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/overlayfs"
	"github.com/bashbox/bashbox/volumes"
)

// Fallback runs an operator-named host command. handled is false when name
// is not a fallback command.
type Fallback func(ctx context.Context, c *builtins.Call) (status int, handled bool)

// Shell is one call's interpreter setup: the filesystem, the commands and
// the budget. Nested shells (bash -c, sh script.sh, ./script.sh) share it.
type Shell struct {
	Registry *builtins.Registry
	FS       *volumes.Namespace
	Budget   *Budget
	Fallback Fallback // may be nil

	// procFiles holds the outputs of process substitutions, by path.
	procMu    sync.Mutex
	procFiles map[string][]byte
	procNext  atomic.Int64

	// fds holds descriptors 3 and up (see fds.go).
	fds fdTable

	// noclobber is set -C.
	noclobber atomic.Bool

	// umask is the file mode creation mask of the call.
	umask atomic.Uint32

	// pipeStatus holds the stage statuses of running pipelines, by id.
	pipeMu     sync.Mutex
	pipeStatus map[int][]int
}

func (sh *Shell) setPipeStatus(id, idx, status int) {
	sh.pipeMu.Lock()
	defer sh.pipeMu.Unlock()
	if sh.pipeStatus == nil {
		sh.pipeStatus = map[int][]int{}
	}
	st := sh.pipeStatus[id]
	for len(st) <= idx {
		st = append(st, -1)
	}
	st[idx] = status
	sh.pipeStatus[id] = st
}

// takePipeStatus returns the statuses of pipeline id as "0 1 0" and forgets
// them. A stage that exited before recording (set -e, exit) counts as 1.
func (sh *Shell) takePipeStatus(id int) string {
	sh.pipeMu.Lock()
	st := sh.pipeStatus[id]
	delete(sh.pipeStatus, id)
	sh.pipeMu.Unlock()
	parts := make([]string, len(st))
	for i, s := range st {
		if s < 0 {
			s = 1
		}
		parts[i] = strconv.Itoa(s)
	}
	return strings.Join(parts, " ")
}

// Invocation describes one script run.
type Invocation struct {
	Script string
	// Name is $0 and the prefix of error messages ("bash").
	Name   string
	Params []string
	// Opts are shell options such as "-e" or "-o", "pipefail".
	Opts []string
	// Source names where the script came from in syntax errors: "-c" for
	// inline scripts, else the script's path.
	Source string
	Env    []string
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// noFIFODir is an impossible temporary directory given to the interpreter
// so that its FIFO shortcut (which opens paths under $TMPDIR on the host,
// bypassing the open handler) can never match a script's path.
const noFIFODir = "/\x00bashbox-no-host-fifo"

// Run parses and runs a script, returning its exit status.
func (sh *Shell) Run(ctx context.Context, inv Invocation) int {
	if inv.Name == "" {
		inv.Name = "bash"
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(inv.Script), inv.Name)
	if err != nil {
		fmt.Fprintln(inv.Stderr, syntaxError(inv, err))
		return 2
	}
	return sh.runFile(ctx, file, inv)
}

func syntaxError(inv Invocation, err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		src := inv.Source
		if src == "" {
			src = inv.Name
		}
		msg := "syntax error: " + pe.Text
		if q, ok := strings.CutPrefix(pe.Text, "reached EOF without closing quote `"); ok {
			msg = "unexpected EOF while looking for matching `" + strings.TrimSuffix(q, "`") + "'"
		}
		if src == "-c" {
			return fmt.Sprintf("bash: -c: line %d: %s", pe.Pos.Line(), msg)
		}
		return fmt.Sprintf("%s: line %d: %s", src, pe.Pos.Line(), msg)
	}
	return fmt.Sprintf("%s: %v", inv.Name, err)
}

func (sh *Shell) runFile(ctx context.Context, file *syntax.File, inv Invocation) (status int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(inv.Stderr, "bashbox: internal error: %v\n", p)
			status = 2
		}
	}()
	(&rewriter{}).rewrite(file)

	// The interpreter's stdin must be an *os.File; give it a pipe we own, so
	// the copying goroutine ends with the call.
	var stdin *os.File
	if inv.Stdin != nil {
		if f, ok := inv.Stdin.(*os.File); ok {
			stdin = f
		} else {
			pr, pw, err := os.Pipe()
			if err != nil {
				fmt.Fprintf(inv.Stderr, "bashbox: %v\n", err)
				return 2
			}
			copied := make(chan struct{})
			go func() {
				io.Copy(pw, inv.Stdin)
				pw.Close()
				close(copied)
			}()
			// Closing the read end stops the copy; waiting for it keeps the
			// next reader of inv.Stdin (a later nested shell) from racing.
			defer func() {
				pr.Close()
				<-copied
			}()
			stdin = pr
		}
	}
	r, err := sh.newRunner(inv.Env, inv.Dir, stdin, inv.Stdout, quietCancel(ctx, inv.Stderr),
		shinterp.Params(append(append(append([]string(nil), inv.Opts...), "--"), inv.Params...)...))
	if err != nil {
		fmt.Fprintf(inv.Stderr, "bashbox: %v\n", err)
		return 2
	}
	err = r.Run(ctx, file)
	if st, ok := errors.AsType[shinterp.ExitStatus](err); ok {
		return int(st)
	}
	if err != nil {
		if ctx.Err() != nil {
			return 1
		}
		fmt.Fprintf(inv.Stderr, "%s: %v\n", inv.Name, err)
		return 1
	}
	return 0
}

// newRunner builds an interpreter with every handler routed into the
// sandbox, in dir with env, closing the ways the upstream runner touches
// the host that depend on its set-up (THREAT_MODEL.md, TM-HAZ-*).
func (sh *Shell) newRunner(env []string, dir string, stdin *os.File, stdout, stderr io.Writer, extra ...shinterp.RunnerOption) (*shinterp.Runner, error) {
	// The first environment only fixes the interpreter's temp dir: it must
	// win over the script's TMPDIR, so it is set after the exported pairs.
	firstEnv := newEnviron(env, nil)
	firstEnv.set("TMPDIR", expand.Variable{Set: true, Kind: expand.String, Str: noFIFODir})
	opts := append([]shinterp.RunnerOption{
		shinterp.Env(firstEnv),
		shinterp.StdIO(stdin, stdout, stderr),
		shinterp.CallHandler(sh.call),
		shinterp.ExecHandlers(func(shinterp.ExecHandlerFunc) shinterp.ExecHandlerFunc { return sh.exec }),
		shinterp.OpenHandler(sh.open),
		shinterp.ReadDirHandler2(sh.readDir),
		shinterp.StatHandler(sh.stat),
		shinterp.AccessHandler(sh.access),
	}, extra...)
	r, err := shinterp.New(opts...)
	if err != nil {
		return nil, err
	}
	// Dir is set on the field: interp.Dir would stat the host path.
	r.Dir = dir
	r.Reset() // fixes the interpreter's temporary dir to noFIFODir
	r.Env = shellEnviron(env)
	r.Reset()
	return r, nil
}

// shellEnviron is the script's starting environment: the exported pairs
// plus bash's own shell variables, with sandbox values.
func shellEnviron(env []string) *environ { return newEnviron(env, shellVars) }

// shellVars are the unexported variables bash sets that a script sees.
var shellVars = map[string]string{
	"UID": "1000", "EUID": "1000", "GID": "1000",
	"__bashbox_pid": sandboxPID, "__bashbox_ppid": sandboxPPID,
	"BASH_VERSION": "5.2.15(1)-release", "HOSTNAME": "bashbox", "OSTYPE": "linux-gnu",
	"MACHTYPE": "x86_64-pc-linux-gnu", "HOSTTYPE": "x86_64", "BASH": "/bin/bash",
}

// call runs before every simple command: it checks the memory budget and
// routes the builtins that would look at the host to our own versions.
func (sh *Shell) call(ctx context.Context, args []string) ([]string, error) {
	hc := shinterp.HandlerCtx(ctx)
	if sh.Budget.memoryCheckDue() {
		used := variableBytes(hc.Env)
		switch buf := hc.Stdout.(type) {
		case *strings.Builder: // a command substitution being filled
			used += int64(buf.Len())
		case *bytes.Buffer:
			used += int64(buf.Len())
		}
		if !sh.Budget.checkMemory(used) {
			// The budget cancelled the call; "false" ends this command quietly.
			return []string{"false"}, nil
		}
	}
	switch args[0] {
	case cmdListVars:
		if len(args) > 1 {
			return listVariables(hc.Env, args[1:]), nil
		}
	case "pwd":
		// pwd -P resolves symlinks: in the guest namespace, not the host's.
		if len(args) > 1 && args[1] == "-P" {
			p, err := sh.FS.Resolve(hc.Dir, true)
			if err != nil {
				p = hc.Dir
			}
			return []string{"echo", p}, nil
		}
	case "umask":
		return append([]string{cmdUmask}, args[1:]...), nil
	case "set":
		if len(args) == 1 { // the interpreter lists nothing
			return listVariables(hc.Env, args), nil
		}
		// The interpreter lacks noclobber (set -C / set -o noclobber).
		if rest, changed := sh.takeNoclobber(args[1:]); changed {
			if len(rest) == 0 {
				return []string{":"}, nil
			}
			return append([]string{"set"}, rest...), nil
		}
	case "test", "[":
		// The interpreter's test lacks < and >, -a/-o precedence and
		// bash's error messages: use the sandbox's test, as a builtin.
		if _, ok := sh.Registry.Lookup(args[0]); ok {
			return append([]string{cmdTest}, args...), nil
		}
	case "cd":
		if len(args) == 2 && args[1] != "-" && args[1] != "" {
			// bash's wording for a missing directory.
			target := guestPath(hc, args[1])
			if fi, err := sh.FS.Stat(target); err != nil || !fi.IsDir() {
				text := "Not a directory"
				if err != nil {
					text = builtins.ErrText(err)
				}
				fmt.Fprintf(hc.Stderr, "bash: cd: %s: %s\n", args[1], text)
				return []string{"false"}, nil
			}
		}
		if len(args) > 2 && args[1] == "-P" {
			target := args[2]
			if !path.IsAbs(target) {
				target = path.Join(hc.Dir, target)
			}
			if p, err := sh.FS.Resolve(target, true); err == nil {
				return []string{"cd", p}, nil
			}
			return []string{"cd", args[2]}, nil
		}
	case "type", "which", "hash":
		return append([]string{cmdLookup, args[0]}, args[1:]...), nil
	case "command":
		if len(args) > 1 && (args[1] == "-v" || args[1] == "-V") {
			return append([]string{cmdLookup, "command"}, args[1:]...), nil
		}
	case "eval":
		if src, ok := rewriteSource(strings.Join(args[1:], " ")); ok {
			return []string{"eval", src}, nil
		}
	case "trap":
		if len(args) > 2 && args[1] != "-p" && args[1] != "-l" && args[1] != "-" && args[1] != "" {
			if src, ok := rewriteSource(args[1]); ok {
				return append([]string{"trap", src}, args[2:]...), nil
			}
		}
	case "source", ".":
		return sh.routeSource(hc, args)
	case "read":
		ifs := " \t\n"
		if v := hc.Env.Get("IFS"); v.IsSet() {
			ifs = v.String()
		}
		if routed, ok := sh.readRoute(hc.Stdin, hc.Stderr, ifs, args); ok {
			return routed, nil
		}
	case "printf":
		// The interpreter's printf lacks %q, the float verbs and -v.
		if len(args) > 3 && args[1] == "-v" {
			var out, errb strings.Builder
			st := bashPrintf(&out, &errb, args[3], args[4:])
			io.WriteString(hc.Stderr, errb.String())
			assign := args[2] + "=" + singleQuote(out.String())
			if st != 0 {
				assign += "; false"
			}
			return []string{"eval", assign}, nil
		}
		return append([]string{cmdPrintf}, args[1:]...), nil
	}
	return args, nil
}

// rewriteSource applies the program rewrites to code the interpreter would
// parse itself at run time (eval, trap).
func rewriteSource(src string) (string, bool) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return "", false // the interpreter reports the syntax error
	}
	(&rewriter{}).rewrite(file)
	var buf bytes.Buffer
	if err := syntax.NewPrinter().Print(&buf, file); err != nil {
		return "", false
	}
	return buf.String(), true
}

// routeSource reads a sourced file from the sandbox and hands the
// interpreter a rewritten copy, so that it neither searches the host PATH
// nor runs code without the rewrites.
func (sh *Shell) routeSource(hc shinterp.HandlerContext, args []string) ([]string, error) {
	if len(args) < 2 {
		return args, nil
	}
	name := args[1]
	p := name
	if !path.IsAbs(p) {
		p = path.Join(hc.Dir, p)
	}
	data, err := sh.readFile(p)
	if err != nil {
		// Let the interpreter print its error for a path that cannot exist.
		return []string{args[0], "/dev/fd/bashbox-missing/" + name}, nil
	}
	src, ok := rewriteSource(string(data))
	if !ok {
		src = string(data)
	}
	return append([]string{args[0], sh.storeProcFile([]byte(src))}, args[2:]...), nil
}

func (sh *Shell) readFile(p string) ([]byte, error) {
	f, err := sh.FS.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errIsDir}
	}
	return io.ReadAll(f)
}

var errIsDir = errors.New("is a directory")

// storeProcFile keeps data as an in-memory file under /dev/fd and returns
// its path.
func (sh *Shell) storeProcFile(data []byte) string {
	n := 63 + sh.procNext.Add(1)
	p := "/dev/fd/" + strconv.FormatInt(n, 10)
	sh.procMu.Lock()
	if sh.procFiles == nil {
		sh.procFiles = map[string][]byte{}
	}
	sh.procFiles[p] = data
	sh.procMu.Unlock()
	sh.Budget.buffered.Add(int64(len(data)))
	return p
}

func (sh *Shell) procFile(p string) ([]byte, bool) {
	sh.procMu.Lock()
	defer sh.procMu.Unlock()
	data, ok := sh.procFiles[p]
	return data, ok
}

// guestPath makes a handler path absolute against the shell's directory.
func guestPath(hc shinterp.HandlerContext, p string) string {
	if !path.IsAbs(p) {
		p = path.Join(hc.Dir, p)
	}
	return p
}

func (sh *Shell) open(ctx context.Context, p string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := shinterp.HandlerCtx(ctx)
	switch p {
	case "/dev/stdin", "/dev/fd/0":
		return streamRWC{r: hc.Stdin}, nil
	case "/dev/stdout", "/dev/fd/1":
		return streamRWC{w: hc.Stdout}, nil
	case "/dev/stderr", "/dev/fd/2":
		return streamRWC{w: hc.Stderr}, nil
	}
	if n, ok := strings.CutPrefix(p, "/dev/fd/"); ok {
		if fd, err := strconv.Atoi(n); err == nil && fd >= 3 {
			if f, ok := sh.fds.get(fd); ok {
				return fdFile{f}, nil
			}
			if _, ok := sh.procFile(p); !ok {
				return nil, &fs.PathError{Op: "bash:", Path: strconv.Itoa(fd), Err: errors.New("Bad file descriptor")}
			}
		}
	}
	if data, ok := sh.procFile(p); ok {
		return streamRWC{r: bytes.NewReader(data)}, nil
	}
	if forced, ok := strings.CutPrefix(p, clobberMark); ok {
		p = forced
	} else if sh.noclobber.Load() && flag&os.O_TRUNC != 0 {
		if fi, err := sh.FS.Stat(guestPath(hc, p)); err == nil && fi.Mode().IsRegular() {
			return nil, &fs.PathError{Op: "bash:", Path: p, Err: errors.New("cannot overwrite existing file")}
		}
	}
	f, err := sh.FS.OpenFile(guestPath(hc, p), flag, perm&^fs.FileMode(sh.umaskValue()))
	if err != nil {
		return nil, shellPathError(p, err)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		// Writing is refused as bash refuses it. Reading would hand the
		// command an empty stream (the interpreter copies non-host files
		// through a pipe and drops the read error), so the redirection
		// fails instead, with the same status the command would have.
		f.Close()
		return nil, shellPathError(p, errIsDir)
	}
	if of, ok := f.(overlayfs.OSFiler); ok && flag == os.O_RDONLY {
		// The interpreter takes a host file as standard input as it is
		// (anything else goes through an OS pipe and a copying
		// goroutine), and commands then see a regular file: its size,
		// seeking back (head), wc's widths.
		if osf := of.OSFile(); osf != nil {
			return osf, nil
		}
	}
	return f, nil
}

// shellPathError formats like bash: "bash: NAME: No such file or directory".
func shellPathError(name string, err error) error {
	return &fs.PathError{Op: "bash:", Path: name, Err: errors.New(builtins.ErrText(err))}
}

func (sh *Shell) stat(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	hc := shinterp.HandlerCtx(ctx)
	p := guestPath(hc, name)
	if follow {
		return sh.FS.Stat(p)
	}
	fi, _, err := sh.FS.LstatIfPossible(p)
	return fi, err
}

func (sh *Shell) readDir(ctx context.Context, name string) ([]fs.DirEntry, error) {
	hc := shinterp.HandlerCtx(ctx)
	infos, err := sh.FS.ReadDir(guestPath(hc, name))
	if err != nil {
		return nil, err
	}
	entries := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		entries[i] = fs.FileInfoToDirEntry(fi)
	}
	return entries, nil
}

func (sh *Shell) access(ctx context.Context, name string, mode shinterp.AccessMode) error {
	hc := shinterp.HandlerCtx(ctx)
	fi, err := sh.FS.Stat(guestPath(hc, name))
	if err != nil {
		return err
	}
	// The script's user owns every file it sees: check the owner bits.
	perm := fi.Mode().Perm()
	if mode&shinterp.AccessRead != 0 && perm&0o400 == 0 ||
		mode&shinterp.AccessWrite != 0 && perm&0o200 == 0 ||
		mode&shinterp.AccessExec != 0 && perm&0o100 == 0 {
		return fs.ErrPermission
	}
	return nil
}

// streamRWC exposes a stream as the interpreter's redirection target.
type streamRWC struct {
	r io.Reader
	w io.Writer
}

func (s streamRWC) Read(p []byte) (int, error) {
	if s.r == nil {
		return 0, io.EOF
	}
	return s.r.Read(p)
}

func (s streamRWC) Write(p []byte) (int, error) {
	if s.w == nil {
		return 0, os.ErrClosed
	}
	return s.w.Write(p)
}

func (s streamRWC) Close() error { return nil }

const defaultUmask = 0o022

func (sh *Shell) umaskValue() uint32 {
	if v := sh.umask.Load(); v != 0 {
		return v &^ umaskSet
	}
	return defaultUmask
}

// umaskSet marks an explicitly set mask, so that umask 0 is kept.
const umaskSet = 1 << 31

// runUmask implements umask [-S] [MODE].
func (sh *Shell) runUmask(out, errw io.Writer, args []string) int {
	symbolic := false
	if len(args) > 0 && args[0] == "-S" {
		symbolic, args = true, args[1:]
	}
	if len(args) == 0 {
		m := sh.umaskValue()
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
			fmt.Fprintf(out, "u=%s,g=%s,o=%s\n", perm(6), perm(3), perm(0))
		} else {
			fmt.Fprintf(out, "%04o\n", m)
		}
		return 0
	}
	n, err := strconv.ParseUint(args[0], 8, 32)
	if err != nil || n > 0o777 {
		fmt.Fprintf(errw, "bash: umask: %s: octal number out of range\n", args[0])
		return 1
	}
	sh.umask.Store(uint32(n) | umaskSet)
	return 0
}

// clobberMark prefixes the target of >| (rewritten to >), which overwrites
// even under noclobber.
const clobberMark = "\x01bashbox-clobber\x01"

// takeNoclobber removes -C / -o noclobber (and their + forms) from set's
// arguments, applying them.
func (sh *Shell) takeNoclobber(args []string) ([]string, bool) {
	var rest []string
	changed := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-o" || a == "+o") && i+1 < len(args) && args[i+1] == "noclobber":
			sh.noclobber.Store(a == "-o")
			changed = true
			i++
		case len(a) > 1 && (a[0] == '-' || a[0] == '+') && a != "--" && a[1] != 'o' && strings.ContainsRune(a, 'C'):
			sh.noclobber.Store(a[0] == '-')
			changed = true
			if f := strings.ReplaceAll(a, "C", ""); len(f) > 1 {
				rest = append(rest, f)
			}
		default:
			rest = append(rest, a)
		}
	}
	return rest, changed
}
