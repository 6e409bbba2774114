package zwrap

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/vfs"
)

// Diff returns the command of family f's diff wrapper running prog
// ("cmp" or "diff").
func (f *Family) Diff(prog string) builtins.Command {
	return func(ctx context.Context, c *builtins.Call) int { return f.diff(ctx, c, prog) }
}

// fd5 is the name the first uncompressed stream gets when both operands
// are compressed, as the script hands it over on descriptor 5.
const fd5 = "/dev/fd/5"

func (f *Family) diff(ctx context.Context, c *builtins.Call, prog string) int {
	self := f.self(c.Name())
	opts := []string{prog}
	var files []string
	filesOnly, need := false, ""
	for _, a := range c.Args[1:] {
		switch {
		case !filesOnly && need == "" && strings.HasPrefix(a, "--h"):
			fmt.Fprintf(c.Stdout, "%s\n", f.diffUsage(self, prog))
			return 0
		case !filesOnly && need == "" && strings.HasPrefix(a, "--v"):
			fmt.Fprintf(c.Stdout, "%s %s\n", c.Name(), f.version)
			return 0
		case !filesOnly && need == "" && a == "--":
			filesOnly = true
		case !filesOnly && need == "" && len(a) == 2 && a[0] == '-' && strings.IndexByte("CDFISUWXx", a[1]) >= 0:
			need = a
		case !filesOnly && need == "" && len(a) > 1 && a[0] == '-':
			opts = append(opts, a)
		case need != "":
			opts = append(opts, need, a)
			need = ""
		case a == "":
			fmt.Fprintf(c.Stderr, "%s: empty file name\n", self)
			return 2
		case len(files) == 2:
			fmt.Fprintf(c.Stderr, "%s: extra operand '%s'\n", self, a)
			return 2
		default:
			files = append(files, a)
		}
	}
	if need != "" {
		fmt.Fprintf(c.Stderr, "%s: option requires an argument -- %s\n", self, need)
		return 2
	}
	opts = append(opts, "--")
	if len(files) == 0 {
		fmt.Fprintf(c.Stderr, "%s: missing operand\n", self)
		return 2
	}
	for i, name := range files {
		if name == "-" {
			continue
		}
		if f.regularOnly {
			// bzdiff's own test -f, reported on standard output.
			if fi, err := c.Stat(name); err != nil || !fi.Mode().IsRegular() {
				fmt.Fprintf(c.Stdout, "%s: %s not found or not a regular file\n", path.Base(c.Name()), name)
				return 1
			}
		}
		fh, err := c.Open(name)
		if err != nil {
			// The shell's redirection test fails first, in dash's words,
			// with the script's name and line.
			fmt.Fprintf(c.Stderr, "%s: %d: cannot open %s: %s\n", f.openScript(c.Name()), f.openLines[i], name, dashErr(err))
			return 2
		}
		fh.Close()
	}
	run := func(stdin io.Reader, fsys builtins.FS, operands ...string) int {
		sub := c.Sub(append(append([]string(nil), opts...), operands...))
		if stdin != nil {
			sub.Stdin = stdin
		}
		if fsys != nil {
			sub.FS = fsys
		}
		return c.Exec(ctx, sub)
	}
	if len(files) == 1 {
		name := files[0]
		plain, ok := f.strip(name)
		if !ok {
			fmt.Fprintf(c.Stderr, "%s: %s: unknown compressed file extension\n", self, name)
			return 2
		}
		st, d := f.piped(ctx, c, name, func(r io.Reader) int { return run(r, nil, "-", plain) })
		return result(st, d)
	}
	a, b := files[0], files[1]
	ca, cb := a == "-" || f.compressed(a), b == "-" || f.compressed(b)
	switch {
	case a == "-" && b == "-":
		st, d := f.piped(ctx, c, "-", func(r io.Reader) int { return run(r, nil, "-", "-") })
		return result(st, d)
	case ca && cb && f.regularOnly:
		return f.viaTemp(ctx, c, a, b, run)
	case ca && cb:
		var st, d2 int
		_, d1 := f.piped(ctx, c, a, func(r5 io.Reader) int {
			fsys := &fdFS{FS: c.FS, r: r5}
			st, d2 = f.piped(ctx, c, b, func(r io.Reader) int { return run(r, fsys, fd5, "-") })
			return 0
		})
		return result(st, max(d1, d2))
	case ca:
		st, d := f.piped(ctx, c, a, func(r io.Reader) int { return run(r, nil, "-", b) })
		return result(st, d)
	case cb:
		st, d := f.piped(ctx, c, b, func(r io.Reader) int { return run(r, nil, a, "-") })
		return result(st, d)
	}
	return run(nil, nil, a, b)
}

// viaTemp compares two compressed files as bzdiff does: the second one
// is uncompressed into a temporary file (made by the sandbox's mktemp,
// under $TMPDIR or /tmp), and the first one's stream is compared with it.
// cmp -l sizes its offset column for the regular file, as it does there.
func (f *Family) viaTemp(ctx context.Context, c *builtins.Call, a, b string,
	run func(io.Reader, builtins.FS, ...string) int) int {
	dir := c.Getenv("TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	var name strings.Builder
	mk := c.Sub([]string{"mktemp", dir + "/bzdiff.XXXXXXXXXX"})
	mk.Stdout = &name
	if c.Exec(ctx, mk) != 0 {
		fmt.Fprintf(c.Stderr, "cannot create a temporary file\n")
		return 1
	}
	tmp := strings.TrimSuffix(name.String(), "\n")
	defer c.FS.Remove(c.Abs(tmp))
	out, err := c.OpenFile(tmp, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		c.FileError(tmp, err, 1)
		return 2
	}
	var werr error
	_, d2 := f.piped(ctx, c, b, func(r io.Reader) int {
		_, werr = io.Copy(out, r)
		return 0
	})
	if cerr := out.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		c.FileError(tmp, werr, 1)
		return 2
	}
	st, d1 := f.piped(ctx, c, a, func(r io.Reader) int { return run(r, nil, "-", tmp) })
	return result(st, max(d1, d2))
}

// result is the script's status: 2 when the decompressor failed.
func result(status, dstatus int) int {
	if dstatus == 1 {
		return 2
	}
	return status
}

// strip finds the uncompressed file a lone operand is compared with.
func (f *Family) strip(name string) (string, bool) {
	if !f.compressed(name) {
		return "", false
	}
	for _, s := range []string{".tgz", ".taz", ".tbz2", ".tbz", ".txz", ".tzst"} {
		if strings.HasSuffix(name, s) {
			return strings.TrimSuffix(name, s[2:]) + "ar", true
		}
	}
	i := strings.LastIndexAny(name, ".-")
	if i <= 0 {
		return name, true
	}
	return name[:i], true
}

func (f *Family) diffUsage(self, prog string) string {
	if prog == "cmp" {
		return "Usage: " + self + ` [OPTION]... FILE1 [FILE2]
Compare FILE1 to FILE2 byte by byte, using their uncompressed contents
if they are compressed.  If FILE2 is omitted, compare FILE1 to the
uncompressed contents of FILE1.gz.  Do comparisons like 'cmp' does.

Options are the same as for 'cmp'.

If a FILE is '-' or missing, read standard input.

Report bugs to <` + f.bugs + ">."
	}
	return "Usage: " + self + ` [OPTION]... FILE1 [FILE2]
Compare FILE1 to FILE2, using their uncompressed contents if they are
compressed.  If FILE2 is omitted, compare FILE1 to the uncompressed
contents of FILE1.gz.  Do comparisons like '` + prog + `' does.

OPTIONs are the same as for '` + prog + `'.

Report bugs to <` + f.bugs + ">."
}

// dashErr is dash's short text for a failed redirection.
func dashErr(err error) string {
	switch {
	case builtins.IsNotExist(err):
		return "No such file"
	case os.IsPermission(err):
		return "Permission denied"
	}
	return builtins.ErrText(err)
}

// fdFS is the call's filesystem with /dev/fd/5 reading a stream.
type fdFS struct {
	builtins.FS
	r io.Reader
}

func (f *fdFS) file() vfs.File { return builtins.StreamFile(fd5, f.r, nil) }

func (f *fdFS) Open(name string) (vfs.File, error) {
	if name == fd5 {
		return f.file(), nil
	}
	return f.FS.Open(name)
}

func (f *fdFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if name == fd5 {
		return f.file(), nil
	}
	return f.FS.OpenFile(name, flag, perm)
}

func (f *fdFS) Stat(name string) (fs.FileInfo, error) {
	if name == fd5 {
		return f.file().Stat()
	}
	return f.FS.Stat(name)
}

func (f *fdFS) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	if name == fd5 {
		fi, err := f.file().Stat()
		return fi, false, err
	}
	return f.FS.LstatIfPossible(name)
}
