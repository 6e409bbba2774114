package find

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
)

// argMax is the size of the command lines -exec ... + builds, counted as
// GNU does (each argument with its terminating NUL).
const argMax = 131072

func (f *finder) parseAction(name string, args []string) (*node, int, int, error) {
	arg := func(i int) (string, error) {
		if len(args) <= i {
			return "", perr("missing argument to `%s'", name)
		}
		return args[i], nil
	}
	switch name {
	case "-print":
		return pred(name, f.printFn(f.out, '\n')), 0, clsAction, nil
	case "-print0":
		return pred(name, f.printFn(f.out, 0)), 0, clsAction, nil
	case "-printf":
		a, err := arg(0)
		if err != nil {
			return nil, 0, 0, err
		}
		fm, err := f.compileFormat(a)
		if err != nil {
			return nil, 0, 0, perr("%s", err.Error())
		}
		out := f.out
		return pred(name, func(e *entry) bool { f.execFormat(out, fm, e); return true }), 1, clsAction, nil
	case "-fprint", "-fprint0", "-fls":
		a, err := arg(0)
		if err != nil {
			return nil, 0, 0, err
		}
		out, err := f.openOutput(a)
		if err != nil {
			return nil, 0, 0, err
		}
		switch name {
		case "-fprint":
			return pred(name, f.printFn(out, '\n')), 1, clsAction, nil
		case "-fprint0":
			return pred(name, f.printFn(out, 0)), 1, clsAction, nil
		}
		return pred(name, func(e *entry) bool { f.list(out, e); return true }), 1, clsAction, nil
	case "-fprintf":
		a, err := arg(0)
		if err != nil {
			return nil, 0, 0, err
		}
		format, err := arg(1)
		if err != nil {
			return nil, 0, 0, err
		}
		out, err := f.openOutput(a)
		if err != nil {
			return nil, 0, 0, err
		}
		fm, err := f.compileFormat(format)
		if err != nil {
			return nil, 0, 0, perr("%s", err.Error())
		}
		return pred(name, func(e *entry) bool { f.execFormat(out, fm, e); return true }), 2, clsAction, nil
	case "-ls":
		return pred(name, func(e *entry) bool { f.list(f.out, e); return true }), 0, clsAction, nil
	case "-delete":
		f.sawDelete = true
		return pred(name, f.delete), 0, clsAction, nil
	case "-exec", "-execdir", "-ok", "-okdir":
		return f.parseExec(name, args)
	}
	return nil, 0, 0, perr("unknown predicate `%s'", name)
}

func (f *finder) printFn(out *outFile, end byte) func(*entry) bool {
	return func(e *entry) bool {
		out.writeString(e.path)
		out.writeByte(end)
		return true
	}
}

// openOutput opens the file of -fprint and friends, once per name.
func (f *finder) openOutput(name string) (*outFile, error) {
	switch name {
	case "/dev/stdout":
		return f.out, nil
	case "/dev/stderr":
		if o, ok := f.files[name]; ok {
			return o, nil
		}
		o := &outFile{name: name, w: bufio.NewWriterSize(f.c.Stderr, 4096), unbuffered: true}
		f.files[name] = o
		return o, nil
	}
	key := path.Clean(f.c.Abs(name))
	if o, ok := f.files[key]; ok {
		return o, nil
	}
	fh, err := f.c.Create(name)
	if err != nil {
		return nil, perr("%s: %s", f.quote(name), builtins.ErrText(err))
	}
	o := &outFile{name: name, w: bufio.NewWriterSize(fh, 32<<10), closer: fh}
	f.files[key] = o
	return o, nil
}

// lsWidths are the column widths of -ls, which grow as wider values are
// seen, as GNU's do.
type lsWidths struct {
	inode, blocks, nlink, owner, group, size int
}

func grow(w *int, s string) {
	if len(s) > *w {
		*w = len(s)
	}
}

// list writes the -ls line of e.
func (f *finder) list(out *outFile, e *entry) {
	w := &f.lsWidths
	if w.inode == 0 {
		*w = lsWidths{inode: 9, blocks: 6, nlink: 3, owner: 8, group: 8, size: 8}
	}
	inode := strconv.FormatUint(e.inode(), 10)
	blocks := strconv.FormatInt((e.blocks()+1)/2, 10)
	nlink := strconv.FormatUint(f.nlink(e), 10)
	size := strconv.FormatInt(e.info.Size(), 10)
	grow(&w.inode, inode)
	grow(&w.blocks, blocks)
	grow(&w.nlink, nlink)
	grow(&w.size, size)
	mt := f.localTime(e.info.ModTime())
	var date string
	sixMonths := 31556952 / 2 * time.Second
	if !mt.Before(f.now.Add(-sixMonths)) && !mt.After(f.now) {
		date = fmt.Sprintf("%s %2d %02d:%02d", mt.Format("Jan"), mt.Day(), mt.Hour(), mt.Minute())
	} else {
		date = fmt.Sprintf("%s %2d  %d", mt.Format("Jan"), mt.Day(), mt.Year())
	}
	o := f.owner(e)
	user, group := o.User, o.Group
	if user == "" {
		user = strconv.Itoa(o.UID)
	}
	if group == "" {
		group = strconv.Itoa(o.GID)
	}
	line := fmt.Sprintf("%*s %*s %s %*s %-*s %-*s %*s %s %s", w.inode, inode, w.blocks, blocks, modes.ModeString(e.info.Mode()),
		w.nlink, nlink, w.owner, user, w.group, group, w.size, size, date, e.path)
	out.writeString(line)
	if e.info.Mode()&modeSymlink != 0 {
		if t, err := f.readlink(e); err == nil {
			out.writeString(" -> ")
			out.writeString(t)
		}
	}
	out.writeByte('\n')
}

// delete is -delete: remove the file, or the (by now empty) directory.
func (f *finder) delete(e *entry) bool {
	if e.depth == 0 && (e.path == "." || strings.HasSuffix(e.path, "/.")) {
		return true
	}
	if err := f.c.FS.Remove(e.absPath()); err != nil {
		f.errorf("cannot delete %s: %s", f.quote(e.path), builtins.ErrText(err))
		return false
	}
	return true
}

// execPred is one -exec, -execdir, -ok or -okdir.
type execPred struct {
	f       *finder
	name    string
	argv    []string // the command; "{}" marks where the file goes
	dir     bool     // -execdir/-okdir: run in the file's directory
	prompt  bool     // -ok/-okdir
	batch   bool     // ... {} +
	base    int      // size of the fixed arguments
	pending []string
	size    int
	curDir  string
}

func (f *finder) parseExec(name string, args []string) (*node, int, int, error) {
	x := &execPred{f: f, name: name, dir: strings.HasSuffix(name, "dir"), prompt: strings.HasPrefix(name, "-ok")}
	end := -1
	for i, a := range args {
		if a == ";" {
			end = i
			break
		}
		if a == "+" && i > 0 && strings.Contains(args[i-1], "{}") && !x.prompt {
			end = i
			x.batch = true
			break
		}
	}
	if end < 0 {
		return nil, 0, 0, perr("missing argument to `%s'", name)
	}
	if end == 0 {
		return nil, 0, 0, perr("invalid argument `%s' to `%s'", args[0], name)
	}
	x.argv = append([]string(nil), args[:end]...)
	if x.batch {
		n := 0
		for _, a := range x.argv {
			if strings.Contains(a, "{}") {
				n++
			}
		}
		if n > 1 {
			return nil, 0, 0, perr("Only one instance of {} is supported with %s ... +", name)
		}
		if last := x.argv[len(x.argv)-1]; last != "{}" {
			return nil, 0, 0, perr("In %s the %s must appear by itself, but you specified %s", f.quote(name+" ... {} +"), f.quote("{}"), f.quote(last))
		}
		x.argv = x.argv[:len(x.argv)-1]
		for _, a := range x.argv {
			x.base += len(a) + 1
		}
		x.size = x.base
		f.execs = append(f.execs, x)
	}
	if x.dir {
		if err := f.checkPath(name); err != nil {
			return nil, 0, 0, err
		}
	}
	if x.prompt && f.hasFiles0 && f.files0 == "-" {
		return nil, 0, 0, perr("option -files0-from reading from standard input cannot be combined with -ok, -okdir")
	}
	return pred(name, x.eval), end + 1, clsAction, nil
}

// checkPath refuses -execdir with relative directories in $PATH, as GNU
// find does.
func (f *finder) checkPath(name string) error {
	p, ok := f.c.LookupEnv("PATH")
	if !ok {
		return nil
	}
	for _, dir := range strings.Split(p, ":") {
		if dir == "" {
			return perr("The current directory is included in the PATH environment variable, which is insecure in combination with the %s action of find.  Please remove the current directory from your $PATH (that is, remove \".\", doubled colons, or leading or trailing colons)", name)
		}
		if !strings.HasPrefix(dir, "/") {
			return perr("The relative path %s is included in the PATH environment variable, which is insecure in combination with the %s action of find.  Please remove that entry from $PATH", f.quote(dir), name)
		}
	}
	return nil
}

// target returns the file name to substitute for {} and the directory to
// run in.
func (x *execPred) target(e *entry) (string, string) {
	c := x.f.c
	if !x.dir {
		return e.path, c.Dir
	}
	var dir string
	if e.depth == 0 {
		d := path.Dir(strings.TrimRight(e.path, "/"))
		if strings.TrimRight(e.path, "/") == "" {
			d = "/"
		}
		dir = path.Clean(c.Abs(d))
	} else {
		abs := e.absPath()
		dir = abs[:strings.LastIndexByte(abs, '/')]
		if dir == "" {
			dir = "/"
		}
	}
	base := baseName(e.path)
	if base == "/" {
		return base, dir
	}
	return "./" + base, dir
}

func (x *execPred) eval(e *entry) bool {
	name, dir := x.target(e)
	if x.batch {
		if x.dir && len(x.pending) > 0 && dir != x.curDir {
			x.flush()
		}
		need := len(name) + 1
		if x.size+need > argMax && len(x.pending) > 0 {
			x.flush()
		}
		x.curDir = dir
		x.pending = append(x.pending, name)
		x.size += need
		return true
	}
	argv := make([]string, len(x.argv))
	for i, a := range x.argv {
		argv[i] = strings.ReplaceAll(a, "{}", name)
	}
	if x.prompt && !x.ask(argv[0], e.path) {
		return false
	}
	return x.run(argv, dir) == 0
}

// ask prompts on standard error and reads the answer from standard input.
func (x *execPred) ask(cmd, name string) bool {
	f := x.f
	f.out.flush()
	fmt.Fprintf(f.c.Stderr, "< %s ... %s > ? ", cmd, name)
	if f.answers == nil {
		f.answers = f.c.Stdin
	}
	var line []byte
	var b [1]byte
	for {
		n, err := f.answers.Read(b[:])
		if n > 0 {
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
		}
		if err != nil {
			break
		}
	}
	s := strings.TrimLeft(string(line), " \t")
	return s != "" && (s[0] == 'y' || s[0] == 'Y')
}

// flush runs a -exec ... + command line with the files gathered.
func (x *execPred) flush() {
	if len(x.pending) == 0 {
		return
	}
	argv := append(append([]string(nil), x.argv...), x.pending...)
	x.pending = x.pending[:0]
	x.size = x.base
	if x.run(argv, x.curDir) != 0 {
		x.f.status = 1
	}
}

// run executes argv in dir and returns its status; failures to run are
// reported as GNU find reports them.
func (x *execPred) run(argv []string, dir string) int {
	f := x.f
	if f.ctx.Err() != nil {
		f.quit, f.canceled = true, true
		return 1
	}
	f.out.flush()
	c := f.c
	sub := c.Sub(argv)
	sub.Dir = dir
	sub.Stdout = c.Stdout
	if x.prompt {
		sub.Stdin = strings.NewReader("")
	}
	status, failure := procutil.Exec(f.ctx, c, sub)
	switch {
	case failure != procutil.Ran:
		f.c.Errorf("%s: %s", f.quote(argv[0]), failure.Text())
		if x.batch {
			f.status = 1
		}
	case status > 128 && status <= 128+64 && f.ctx.Err() == nil:
		f.c.Errorf("%s terminated by signal %d", f.quote(argv[0]), status-128)
	}
	if f.ctx.Err() != nil {
		f.quit, f.canceled = true, true
	}
	return status
}

// finishExecs runs the command lines -exec ... + still holds.
func (f *finder) finishExecs() {
	for _, x := range f.execs {
		if f.canceled {
			return
		}
		x.flush()
	}
}

// readFiles0 reads the starting points of -files0-from: NUL-terminated
// names, "-" for standard input.
func (f *finder) readFiles0() error {
	var r io.Reader
	if f.files0 == "-" {
		r = f.c.Stdin
	} else {
		fh, err := f.c.Open(f.files0)
		if err != nil {
			f.c.Errorf("cannot open %s for reading: %s", f.quote(f.files0), builtins.ErrText(err))
			return err
		}
		defer fh.Close()
		r = fh
	}
	data, err := io.ReadAll(r)
	if err != nil {
		f.c.Errorf("%s: read error: %s", f.quote(f.files0), builtins.ErrText(err))
		return err
	}
	items := strings.Split(string(data), "\x00")
	if len(items) > 0 && items[len(items)-1] == "" {
		items = items[:len(items)-1]
	}
	for i, it := range items {
		if it == "" {
			f.errorf("%s:%d: invalid zero-length file name", f.quote(f.files0), i+1)
			continue
		}
		f.starts = append(f.starts, it)
	}
	return nil
}

func (f *finder) help() {
	fmt.Fprintf(f.c.Stdout, "Usage: %s [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]\n", f.c.Name())
	fmt.Fprint(f.c.Stdout, `
Default path is the current directory; default expression is -print.
Expression may consist of: operators, options, tests, and actions.

Operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

Positional options (always true):
      -daystart -follow -nowarn -regextype -warn

Normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race

Tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE
      -ctime N -empty -false -fstype TYPE -gid N -group NAME -ilname PATTERN
      -iname PATTERN -inum N -iwholename PATTERN -iregex PATTERN
      -links N -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

Actions:
      -delete -print0 -printf FORMAT -fprintf FILE FORMAT -print
      -fprint0 FILE -fprint FILE -ls -fls FILE -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;

Other common options:
      --help                   display this help and exit
      --version                output version information and exit
`)
}
