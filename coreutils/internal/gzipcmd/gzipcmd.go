// Package gzipcmd implements GNU gzip 1.12 for the gzip, gunzip and zcat
// commands (gunzip is gzip -d, zcat is gzip -cd, as Debian's scripts are).
//
// Compression uses Go's compress/flate, not gzip's own deflate: the
// compressed bytes (and so compressed sizes and ratios) differ from GNU
// gzip's, while the format, header fields (name, mtime, OS, XFL),
// decompressed output and every message follow GNU. The old compress
// (.Z), pack and lzh formats are not decompressed.
package gzipcmd

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

// Mode says which command runs.
type Mode int

const (
	Gzip Mode = iota
	Gunzip
	Zcat
)

// exit statuses
const (
	exitOK      = 0
	exitError   = 1
	exitWarning = 2
)

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "ascii"},
	{Short: 'c', Long: "stdout"},
	{Long: "to-stdout"},
	{Short: 'd', Long: "decompress"},
	{Long: "uncompress"},
	{Short: 'f', Long: "force"},
	{Short: 'h', Long: "help"},
	{Short: 'k', Long: "keep"},
	{Short: 'l', Long: "list"},
	{Short: 'L', Long: "license"},
	{Short: 'n', Long: "no-name"},
	{Short: 'N', Long: "name"},
	{Short: 'q', Long: "quiet"},
	{Long: "silent"},
	{Short: 'r', Long: "recursive"},
	{Long: "rsyncable"},
	{Short: 'S', Long: "suffix", Arg: builtins.RequiredArg},
	{Long: "synchronous"},
	{Short: 't', Long: "test"},
	{Short: 'v', Long: "verbose"},
	{Short: 'V', Long: "version"},
	{Short: '1', Long: "fast"},
	{Short: '2'}, {Short: '3'}, {Short: '4'}, {Short: '5'}, {Short: '6'}, {Short: '7'}, {Short: '8'},
	{Short: '9', Long: "best"},
}}

type gz struct {
	ctx context.Context
	c   *builtins.Call

	decompress, toStdout, force, keep, list, quiet, recursive, test bool
	verbose                                                         int
	noName                                                          int // -1 default, 0 -N, 1 -n
	suffix                                                          string
	level                                                           int

	status   int
	out      *bufio.Writer
	werr     error
	abort    bool
	loc      *time.Location
	operands int

	// -l state
	listed          bool
	totalIn, totOut int64

	lastHeaderLength int64
}

// Run runs gzip in the given mode.
func Run(ctx context.Context, c *builtins.Call, mode Mode) int {
	g := &gz{ctx: ctx, c: c, noName: -1, suffix: ".gz", level: 6}
	args := c.Args[1:]
	if mode != Gzip && len(args) > 0 {
		// The gunzip and zcat scripts answer these before running gzip.
		switch args[0] {
		case "--help":
			io.WriteString(c.Stdout, strings.ReplaceAll(map[Mode]string{Gunzip: gunzipHelp, Zcat: zcatHelp}[mode], "PROG", c.Name()))
			return 0
		case "--version":
			return c.Version()
		}
	}
	switch mode {
	case Gunzip:
		g.decompress = true
	case Zcat:
		g.decompress, g.toStdout = true, true
	}
	opts, operands, err := spec.Parse(args)
	if err != nil {
		fmt.Fprintf(c.Stderr, "gzip: %s\nTry `gzip --help' for more information.\n", err.Error())
		return exitError
	}
	for _, o := range opts {
		switch o.Key {
		case "ascii", "rsyncable", "synchronous":
		case "stdout", "to-stdout":
			g.toStdout = true
		case "decompress", "uncompress":
			g.decompress = true
		case "force":
			g.force = true
		case "help":
			io.WriteString(c.Stdout, gzipHelp)
			return 0
		case "keep":
			g.keep = true
		case "list":
			g.list, g.decompress = true, true
		case "license":
			io.WriteString(c.Stdout, "gzip (bashbox) "+builtins.ReleaseVersion+"\nThis is free software; it follows GNU gzip 1.12's behaviour.\n")
			return 0
		case "no-name":
			g.noName = 1
		case "name":
			g.noName = 0
		case "quiet", "silent":
			g.quiet, g.verbose = true, 0
		case "recursive":
			g.recursive = true
		case "suffix":
			if o.Value == "" || len(o.Value) > 30 || strings.Contains(o.Value, "/") {
				fmt.Fprintf(c.Stderr, "gzip: invalid suffix '%s'\n", o.Value)
				return exitError
			}
			g.suffix = o.Value
		case "test":
			g.test, g.decompress, g.toStdout = true, true, true
		case "verbose":
			g.verbose++
			g.quiet = false
		case "version":
			return c.Version()
		case "fast":
			g.level = 1
		case "best":
			g.level = 9
		default:
			g.level = int(o.Key[0] - '0')
		}
	}
	g.loc = timefmt.Location(c.LookupEnv)
	g.out = bufio.NewWriterSize(c.Stdout, 64<<10)
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	g.operands = len(operands)
	for _, name := range operands {
		if ctx.Err() != nil {
			g.setStatus(exitError)
			break
		}
		if name == "-" {
			g.treatStdin()
		} else {
			g.treatFile(name, false)
		}
		if g.werr != nil || g.abort {
			break
		}
	}
	if g.list && !g.quiet && g.operands > 1 && g.werr == nil {
		g.listTotals()
	}
	if err := g.out.Flush(); err != nil && g.werr == nil {
		g.werr = err
	}
	if g.werr != nil {
		if builtins.IsBrokenPipe(g.werr) {
			return 141
		}
		fmt.Fprintf(c.Stderr, "gzip: stdout: %s\n", builtins.ErrText(g.werr))
		return exitError
	}
	return g.status
}

func (g *gz) setStatus(s int) {
	if s == exitError || g.status == exitOK {
		g.status = s
	}
}

// errorf prints "gzip: ..." and records an error.
func (g *gz) errorf(format string, args ...any) {
	g.flushOut()
	fmt.Fprintf(g.c.Stderr, "gzip: "+format+"\n", args...)
	g.setStatus(exitError)
}

// warnf prints a warning (unless -q) and records the warning status.
func (g *gz) warnf(format string, args ...any) {
	if !g.quiet {
		g.flushOut()
		fmt.Fprintf(g.c.Stderr, "gzip: "+format+"\n", args...)
	}
	g.setStatus(exitWarning)
}

// dataError reports a corrupt stream the way gzip does, after a newline.
//
// Apart from "not in gzip format", a corrupt stream ends the whole run,
// as in gzip, where these errors abort.
func (g *gz) dataError(name string, err error) {
	g.flushOut()
	fmt.Fprintf(g.c.Stderr, "\ngzip: %s: %s\n", name, dataErrText(err))
	g.setStatus(exitError)
	if !errors.Is(err, errNotGzip) {
		g.abort = true
	}
}

func (g *gz) flushOut() {
	if g.werr == nil {
		if err := g.out.Flush(); err != nil {
			g.werr = err
		}
	}
}

func dataErrText(err error) string {
	var ce flate.CorruptInputError
	switch {
	case errors.Is(err, errNotGzip):
		return "not in gzip format"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "unexpected end of file"
	case errors.Is(err, errLength):
		return "invalid compressed data--length error"
	case errors.Is(err, gzip.ErrChecksum):
		return "invalid compressed data--crc error"
	case errors.As(err, &ce), errors.Is(err, gzip.ErrHeader):
		return "invalid compressed data--format violated"
	}
	return builtins.ErrText(err)
}

var (
	errNotGzip = errors.New("not in gzip format")
	errLength  = errors.New("length error")
)

// knownSuffixes are the suffixes gzip recognises on compressed files.
func (g *gz) knownSuffixes() []string {
	list := []string{g.suffix}
	for _, s := range []string{".gz", ".z", ".taz", ".tgz", "-gz", "-z", "_z"} {
		if s != g.suffix {
			list = append(list, s)
		}
	}
	return list
}

// compressedSuffix returns the known suffix name ends with, if any.
func (g *gz) compressedSuffix(name string) string {
	base := path.Base(name)
	lower := strings.ToLower(base)
	for _, s := range g.knownSuffixes() {
		ls := strings.ToLower(s)
		if len(lower) > len(ls) && strings.HasSuffix(lower, ls) {
			return base[len(base)-len(s):]
		}
	}
	return ""
}

// inputInfo is the source of one stream.
type inputInfo struct {
	name  string // ifname, as messages show it
	mode  fs.FileMode
	mtime time.Time
	size  int64 // -1 when unknown
}

func (g *gz) treatStdin() {
	in := inputInfo{name: "stdin", size: -1, mode: 0o644}
	if st, ok := g.c.Stdin.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			in.mtime, in.size = fi.ModTime(), fi.Size()
		}
	}
	r := bufio.NewReaderSize(g.c.Stdin, 64<<10)
	switch {
	case g.list:
		g.listStream(r, in, "stdout")
	case g.decompress:
		if g.test && g.verbose > 0 {
			// gzip -tv on stdin prints only the verdict.
			if g.decompressStream(r, io.Discard, in, nil) {
				g.flushOut()
				io.WriteString(g.c.Stderr, " OK\n")
			}
			return
		}
		g.decompressStream(r, g.writer(), in, nil)
	default:
		name := ""
		mtime := in.mtime
		if g.noName == 1 {
			mtime = time.Time{}
		}
		g.compressStream(r, g.writer(), name, mtime)
	}
}

// writer is standard output, or a sink for -t.
func (g *gz) writer() io.Writer {
	if g.test {
		return io.Discard
	}
	return g.out
}

func (g *gz) lstat(name string) (fs.FileInfo, error) {
	return g.c.Lstat(name)
}

func (g *gz) treatFile(name string, inDir bool) {
	fi, err := g.lstat(name)
	if err != nil && g.decompress && builtins.IsNotExist(err) {
		// gunzip x finds x.gz (or another known suffix).
		if g.compressedSuffix(name) == "" {
			found := false
			for _, s := range g.knownSuffixes() {
				if fi2, err2 := g.lstat(name + s); err2 == nil {
					name, fi, err, found = name+s, fi2, nil, true
					break
				}
			}
			if !found {
				name += g.suffix
			}
		}
	}
	if err != nil {
		g.errorf("%s: %s", name, builtins.ErrText(err))
		return
	}
	if fi.IsDir() {
		if g.recursive {
			g.treatDir(name)
			return
		}
		g.warnf("%s is a directory -- ignored", name)
		return
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if !g.force && !g.toStdout {
			g.errorf("%s: Too many levels of symbolic links", name)
			return
		}
		fi, err = g.c.Stat(name)
		if err != nil {
			g.errorf("%s: %s", name, builtins.ErrText(err))
			return
		}
		if fi.IsDir() {
			g.warnf("%s is a directory -- ignored", name)
			return
		}
	}
	if !fi.Mode().IsRegular() {
		g.warnf("%s is not a directory or a regular file - ignored", name)
		return
	}
	in := inputInfo{name: name, mode: fi.Mode(), mtime: fi.ModTime(), size: fi.Size()}

	var ofname string
	if g.decompress {
		suf := g.compressedSuffix(name)
		switch {
		case suf != "":
			ofname = name[:len(name)-len(suf)]
			if ls := strings.ToLower(suf); ls == ".tgz" || ls == ".taz" {
				ofname += ".tar"
			}
		case g.list || g.toStdout:
			ofname = name
		default:
			if !inDir && !g.quiet {
				g.warnf("%s: unknown suffix -- ignored", name)
			}
			return
		}
	} else {
		if suf := g.compressedSuffix(name); suf != "" && !g.toStdout {
			if g.verbose > 0 || (!inDir && !g.quiet) {
				g.flushOut()
				fmt.Fprintf(g.c.Stderr, "gzip: %s already has %s suffix -- unchanged\n", name, suf)
			}
			return
		}
		ofname = name + g.suffix
	}

	f, err := g.c.Open(name)
	if err != nil {
		g.errorf("%s: %s", name, builtins.ErrText(err))
		return
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)

	if g.list {
		g.listFile(f, r, in, path.Base(ofname))
		return
	}
	if g.verbose > 0 {
		g.flushOut()
		fmt.Fprintf(g.c.Stderr, "%s:\t", name)
	}
	if g.toStdout {
		var ok bool
		if g.decompress {
			ok = g.decompressStream(f, g.writer(), in, nil)
		} else {
			ok = g.compressFile(r, g.out, in)
		}
		if ok && g.verbose > 0 {
			if g.test {
				io.WriteString(g.c.Stderr, " OK\n")
			} else {
				io.WriteString(g.c.Stderr, " -- replaced with stdout\n")
			}
		}
		return
	}
	if g.decompress {
		g.decompressToFile(f, in, ofname)
	} else {
		g.compressToFile(r, in, ofname)
	}
}

func (g *gz) treatDir(name string) {
	entries, err := g.c.ReadDir(name)
	if err != nil {
		g.errorf("%s: %s", name, builtins.ErrText(err))
		return
	}
	for _, e := range entries {
		if g.ctx.Err() != nil || g.werr != nil || g.abort {
			return
		}
		child := name + "/" + e.Name()
		if strings.HasSuffix(name, "/") {
			child = name + e.Name()
		}
		g.treatFile(child, true)
	}
}

// createOutput opens ofname for writing, honouring -f.
func (g *gz) createOutput(ofname string) (io.WriteCloser, bool) {
	if _, err := g.lstat(ofname); err == nil {
		if !g.force {
			if g.verbose > 0 {
				io.WriteString(g.c.Stderr, "\n")
			}
			g.warnf("%s already exists;\tnot overwritten", ofname)
			return nil, false
		}
		if err := g.c.FS.Remove(g.c.Abs(ofname)); err != nil {
			g.errorf("%s: %s", ofname, builtins.ErrText(err))
			return nil, false
		}
	}
	f, err := g.c.OpenFile(ofname, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		g.errorf("%s: %s", ofname, builtins.ErrText(err))
		return nil, false
	}
	return f, true
}

// finishOutput gives the output the input's mode and times and removes
// the input, as gzip does after a successful run.
func (g *gz) finishOutput(in inputInfo, ofname string, mtime time.Time) {
	g.c.FS.Chmod(g.c.Abs(ofname), in.mode&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	g.c.FS.Chtimes(g.c.Abs(ofname), mtime, mtime)
	if !g.keep {
		if err := g.c.FS.Remove(g.c.Abs(in.name)); err != nil {
			g.errorf("%s: %s", in.name, builtins.ErrText(err))
		}
	}
}

func (g *gz) verboseDone(ratio float64, ofname string) {
	if g.verbose == 0 {
		return
	}
	verb := "replaced with"
	if g.keep {
		verb = "created"
	}
	fmt.Fprintf(g.c.Stderr, "%s -- %s %s\n", formatRatio(ratio), verb, ofname)
}

// formatRatio is gzip's display_ratio: "%5.1f%%".
func formatRatio(r float64) string {
	return fmt.Sprintf("%5.1f%%", r)
}

func ratio(num, den int64) float64 {
	if den == 0 {
		return 0
	}
	return 100 * float64(num) / float64(den)
}

const gzipHelp = `Usage: gzip [OPTION]... [FILE]...
Compress or uncompress FILEs (by default, compress FILES in-place).

Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -d, --decompress  decompress
  -f, --force       force overwrite of output file and compress links
  -h, --help        give this help
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -L, --license     display software license
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
      --rsyncable   make rsync-friendly archive
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
  -V, --version     display version number
  -1, --fast        compress faster
  -9, --best        compress better

With no FILE, or when FILE is -, read standard input.

Compressed data is produced by Go's deflate: it differs byte for byte
from GNU gzip's, and decompresses to the same data.
`

const gunzipHelp = `Usage: PROG [OPTION]... [FILE]...
Uncompress FILEs (by default, in-place).

Mandatory arguments to long options are mandatory for short options too.

  -c, --stdout      write on standard output, keep original files unchanged
  -f, --force       force overwrite of output file and compress links
  -k, --keep        keep (don't delete) input files
  -l, --list        list compressed file contents
  -n, --no-name     do not save or restore the original name and timestamp
  -N, --name        save or restore the original name and timestamp
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
      --help        display this help and exit
      --version     display version information and exit

With no FILE, or when FILE is -, read standard input.
`

const zcatHelp = `Usage: PROG [OPTION]... [FILE]...
Uncompress FILEs to standard output.

  -f, --force       force; read compressed data even from a terminal
  -l, --list        list compressed file contents
  -q, --quiet       suppress all warnings
  -r, --recursive   operate recursively on directories
  -S, --suffix=SUF  use suffix SUF on compressed files
      --synchronous synchronous output (safer if system crashes, but slower)
  -t, --test        test compressed file integrity
  -v, --verbose     verbose mode
      --help        display this help and exit
      --version     display version information and exit

With no FILE, or when FILE is -, read standard input.
`
