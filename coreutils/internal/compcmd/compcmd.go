// Package compcmd is the command line shared by bzip2, xz and zstd and
// their decompress-by-name forms (bunzip2 bzcat, unxz xzcat, unzstd
// zstdcat): which files to compress or decompress to where, keeping or
// removing the input, -c -d -t -k -f -q. Each tool's own words and exit
// statuses come from its Dialect. The formats are package codec's; the
// compressed bytes differ from the real tools' encoders, while the
// formats, decompressed data and messages follow them.
package compcmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/codec"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// Dialect is how one tool speaks.
type Dialect struct {
	Format *codec.Format
	// Help is the --help text (%s is the program name).
	Help string
	// Suffixes maps compressed suffixes to what replaces them on
	// decompression (".bz2" -> "", ".tbz2" -> ".tar").
	Suffixes [][2]string
	// KeepByDefault: zstd keeps its input unless --rm.
	KeepByDefault bool
	// NameFirst: zstd derives the output name before looking at the file;
	// FormatFirst: xz checks the data's format before the name's suffix.
	NameFirst, FormatFirst bool
	// Messages; each returns the text after "PROG: " (or the whole line
	// when Raw is set) and the exit status it causes.
	OpenFailed    func(name string, err error) (string, int)
	IsDir         func(name string) (string, int)
	HasSuffix     func(name string) (string, int)
	UnknownSuffix func(name string) (string, int) // "" message: decompress to name.out
	OutputExists  func(out string) (string, int)
	NotFormat     func(name string) (string, int)
	Corrupt       func(name string, err error) (string, int)
	// Decompressed reports a decompressed file (zstd's summary), or nil.
	Decompressed func(name string, size int64) string
	// Options beyond the common ones, taking no argument or one.
	Flags, ArgOptions []builtins.Option
	// CatForces: the cat form is -dcf (zstdcat passes data that is not
	// compressed through, where bzcat and xzcat refuse it).
	CatForces bool
}

// Mode is how the command was invoked.
type Mode int

const (
	Compress Mode = iota
	Decompress
	Cat // decompress to standard output
)

var common = []builtins.Option{
	{Short: 'd', Long: "decompress"}, {Long: "uncompress"}, {Short: 'z', Long: "compress"},
	{Short: 'c', Long: "stdout"}, {Long: "to-stdout"}, {Short: 'k', Long: "keep"}, {Short: 'f', Long: "force"},
	{Short: 't', Long: "test"}, {Short: 'q', Long: "quiet"}, {Short: 'v', Long: "verbose"},
	{Short: 'h', Long: "help"}, {Short: 'V', Long: "version"},
	{Short: '0'}, {Short: '1', Long: "fast"}, {Short: '2'}, {Short: '3'}, {Short: '4'}, {Short: '5'},
	{Short: '6'}, {Short: '7'}, {Short: '8'}, {Short: '9', Long: "best"},
}

type run struct {
	ctx                             context.Context
	c                               *builtins.Call
	d                               *Dialect
	decompress, stdout, keep, force bool
	test, quiet                     bool
	level                           int
	output                          string // zstd -o
	status                          int
}

// Run runs a compressor command.
func Run(ctx context.Context, c *builtins.Call, d *Dialect, mode Mode) int {
	r := &run{ctx: ctx, c: c, d: d, keep: d.KeepByDefault}
	switch mode {
	case Decompress:
		r.decompress = true
	case Cat:
		r.decompress, r.stdout, r.force = true, true, d.CatForces
	}
	spec := builtins.Options{List: append(append(append([]builtins.Option{}, common...), d.Flags...), d.ArgOptions...)}
	opts, operands, err := spec.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		switch o.Key {
		case "decompress", "uncompress":
			r.decompress = true
		case "compress":
			r.decompress = false
		case "stdout", "to-stdout":
			r.stdout = true
		case "keep":
			r.keep = true
		case "rm":
			r.keep = false
		case "force":
			r.force = true
		case "test":
			r.test, r.decompress = true, true
		case "quiet":
			r.quiet = true
		case "help":
			return textfmt.Help(c, fmt.Sprintf(d.Help, c.Name()))
		case "version":
			return c.Version()
		case "fast":
			r.level = 1
		case "best":
			r.level = 9
		case "output":
			r.output = o.Value
		case "format":
			// xz -F: the container written (and the one accepted).
			switch o.Value {
			case "xz":
				r.d = Xz
			case "lzma", "alone":
				r.d = Lzma
			case "auto":
			default:
				c.Errorf("%s: Unknown file format type", o.Value)
				return 1
			}
		default:
			if len(o.Key) == 1 && o.Key[0] >= '0' && o.Key[0] <= '9' {
				r.level = int(o.Key[0] - '0')
			}
		}
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		r.file(name)
	}
	return r.status
}

func (r *run) fail(msg string, status int) {
	if msg != "" && !(r.quiet && status != 1) {
		if strings.HasPrefix(msg, "\x00") {
			io.WriteString(r.c.Stderr, msg[1:])
		} else {
			fmt.Fprintf(r.c.Stderr, "%s: %s\n", r.c.Name(), msg)
		}
	}
	if status > r.status {
		r.status = status
	}
}

// outName is the name a file compresses or decompresses to, or "" when
// the file is to be skipped (the message printed).
func (r *run) outName(name string) string {
	if r.output != "" {
		return r.output
	}
	if !r.decompress {
		for _, s := range r.d.Suffixes {
			if strings.HasSuffix(name, s[0]) {
				r.fail(r.d.HasSuffix(name))
				return ""
			}
		}
		return name + r.d.Format.Suffix
	}
	for _, s := range r.d.Suffixes {
		if strings.HasSuffix(name, s[0]) && len(name) > len(s[0]) {
			return strings.TrimSuffix(name, s[0]) + s[1]
		}
	}
	msg, status := r.d.UnknownSuffix(name)
	if status != 0 {
		r.fail(msg, status)
		return ""
	}
	if msg != "" {
		r.fail(msg, 0)
	}
	return name + ".out"
}

func (r *run) file(name string) {
	c := r.c
	toStdout := r.stdout || r.test || name == "-"
	outName := ""
	if !toStdout && r.d.NameFirst {
		if outName = r.outName(name); outName == "" {
			return
		}
	}
	var in io.Reader
	if name == "-" {
		in = c.Stdin
	} else {
		fi, err := c.Stat(name)
		if err != nil {
			r.fail(r.d.OpenFailed(name, err))
			return
		}
		if fi.IsDir() {
			r.fail(r.d.IsDir(name))
			return
		}
		f, err := c.Open(name)
		if err != nil {
			r.fail(r.d.OpenFailed(name, err))
			return
		}
		defer f.Close()
		in = f
	}
	if toStdout {
		var out io.Writer = c.Stdout
		if r.test {
			out = io.Discard
		}
		r.transform(name, in, out)
		return
	}
	if r.d.FormatFirst && r.decompress {
		br := bufio.NewReader(in)
		if head, _ := br.Peek(r.d.Format.HeaderLen()); !r.d.Format.Matches(head) {
			r.fail(r.d.NotFormat(name))
			return
		}
		in = br
	}
	if outName == "" {
		if outName = r.outName(name); outName == "" {
			return
		}
	}
	if _, err := c.Lstat(outName); err == nil {
		if !r.force {
			r.fail(r.d.OutputExists(outName))
			return
		}
		c.FS.Remove(c.Abs(outName))
	}
	perm := fs.FileMode(0o666)
	if fi, err := c.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	}
	out, err := c.OpenFile(outName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		r.fail(r.d.OpenFailed(outName, err))
		return
	}
	n, ok := r.transform(name, in, out)
	if cerr := out.Close(); cerr != nil && ok {
		r.fail(r.d.OpenFailed(outName, cerr))
		ok = false
	}
	if !ok {
		c.FS.Remove(c.Abs(outName))
		return
	}
	if r.decompress && r.d.Decompressed != nil && !r.quiet {
		io.WriteString(c.Stderr, r.d.Decompressed(name, n))
	}
	if !r.keep {
		if err := c.FS.Remove(c.Abs(name)); err != nil {
			r.fail(r.d.OpenFailed(name, err))
		}
	}
}

// transform streams in to out through the codec; it reports the bytes
// written and whether all went well (the failure reported).
func (r *run) transform(name string, in io.Reader, out io.Writer) (int64, bool) {
	if name == "-" {
		name = "(stdin)"
	}
	cw := &countWriter{w: out}
	if !r.decompress {
		zw, err := r.d.Format.NewWriter(cw, r.level)
		if err != nil {
			r.fail(err.Error(), 1)
			return 0, false
		}
		if _, err := io.Copy(zw, textio.Cancellable(r.ctx, in)); err != nil {
			r.ioFailed(name, err)
			return cw.n, false
		}
		if err := zw.Close(); err != nil {
			r.ioFailed(name, err)
			return cw.n, false
		}
		return cw.n, true
	}
	head := make([]byte, r.d.Format.HeaderLen())
	k, _ := io.ReadFull(in, head)
	if k < len(head) || !r.d.Format.Matches(head) {
		if r.force && (r.stdout || name == "(stdin)") && !r.test {
			// -cdf passes data that is not compressed through, as
			// bzip2, xz and zstd all do (the z*grep wrappers rely on it).
			cw.Write(head[:k])
			if _, err := io.Copy(cw, textio.Cancellable(r.ctx, in)); err != nil {
				r.ioFailed(name, err)
				return cw.n, false
			}
			return cw.n, true
		}
		r.fail(r.d.NotFormat(name))
		return 0, false
	}
	zr, err := r.d.Format.NewReader(io.MultiReader(strings.NewReader(string(head)), in))
	if err != nil {
		r.fail(r.d.Corrupt(name, err))
		return 0, false
	}
	defer zr.Close()
	if _, err := io.Copy(cw, textio.Cancellable(r.ctx, zr)); err != nil {
		r.ioFailed(name, err)
		return cw.n, false
	}
	return cw.n, true
}

// errWrite marks a failure of the output, not of the data.
type errWrite struct{ err error }

func (e errWrite) Error() string { return e.err.Error() }

func (r *run) ioFailed(name string, err error) {
	var we errWrite
	switch {
	case errors.As(err, &we):
		if builtins.IsBrokenPipe(we.err) {
			r.status = max(r.status, 1)
			return
		}
		r.fail(fmt.Sprintf("%s: %s", name, builtins.ErrText(we.err)), 1)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		r.status = 130
	default:
		r.fail(r.d.Corrupt(name, err))
	}
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil {
		return n, errWrite{err}
	}
	return n, nil
}
