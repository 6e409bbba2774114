// Package sort implements sort: sort lines of text files.
//
// Ordering follows GNU sort in the C and C.UTF-8 locales (byte order),
// including keys (-k POS1[,POS2] with per-key options), the last-resort
// whole-line comparison unless -s or -u, numeric (-n), general numeric
// (-g, in double precision), human (-h), month (-M), version (-V) and
// random (-R, hashing as GNU does so that --random-source gives GNU's
// order) sorts, -c/-C checks, -m merges and -o (which may name an input).
// Input is sorted in memory, in parallel on large inputs. --debug is
// accepted and ignored; -S, -T, --parallel, --batch-size and
// --compress-program are validated and otherwise have no effect.
package sort

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: sort [OPTION]... [FILE]...
  or:  sort [OPTION]... --files0-from=F
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
Ordering options:

  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys.  See shuf(1)
      --random-source=FILE    get random bytes from FILE
  -r, --reverse               reverse the result of comparisons
      --sort=WORD             sort according to WORD:
                                general-numeric -g, human-numeric -h, month -M,
                                numeric -n, random -R, version -V
  -V, --version-sort          natural sort of (version) numbers within text

Other options:

      --batch-size=NMERGE   merge at most NMERGE inputs at once;
                            for more use temp files
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
      --compress-program=PROG  compress temporaries with PROG;
                              decompress them with PROG -d
      --debug               annotate the part of the line used to sort,
                              and warn about questionable usage to stderr
      --files0-from=F       read input from the files specified by
                            NUL-terminated names in file F;
                            If F is - then read names from standard input
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    use SIZE for main memory buffer
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  use DIR for temporaries, not $TMPDIR or /tmp;
                              multiple options specify multiple directories
      --parallel=N          change the number of sorts run concurrently to N
  -u, --unique              with -c, check for strict ordering;
                              without -c, output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  If neither -t nor -b is in
effect, characters in a field are counted from the beginning of the preceding
whitespace.  OPTS is one or more single-letter ordering options [bdfgiMhnRrV],
which override global ordering options for that key.  If no key is given, use
the entire line as the key.  Use --debug to diagnose incorrect key usage.

SIZE may be followed by the following multiplicative suffixes:
% 1% of memory, b 1, K 1024 (default), and so on for M, G, T, P, E, Z, Y.

*** WARNING ***
The locale specified by the environment affects sort order.
Set LC_ALL=C to get the traditional sort order that uses
native byte values.
`

// obsoleteKeyOpt carries a "+POS1 [-POS2]" key through option parsing.
const obsoleteKeyOpt = "\x01obsolete-key"

var options = []builtins.Option{
	{Short: 'b', Long: "ignore-leading-blanks"},
	{Long: "check", Arg: builtins.OptionalArg},
	{Long: "compress-program", Arg: builtins.RequiredArg},
	{Long: "debug"},
	{Short: 'd', Long: "dictionary-order"},
	{Short: 'f', Long: "ignore-case"},
	{Long: "files0-from", Arg: builtins.RequiredArg},
	{Short: 'g', Long: "general-numeric-sort"},
	{Short: 'i', Long: "ignore-nonprinting"},
	{Short: 'k', Long: "key", Arg: builtins.RequiredArg},
	{Short: 'm', Long: "merge"},
	{Short: 'M', Long: "month-sort"},
	{Short: 'n', Long: "numeric-sort"},
	{Short: 'h', Long: "human-numeric-sort"},
	{Short: 'V', Long: "version-sort"},
	{Short: 'R', Long: "random-sort"},
	{Long: "random-source", Arg: builtins.RequiredArg},
	{Long: "sort", Arg: builtins.RequiredArg},
	{Short: 'o', Long: "output", Arg: builtins.RequiredArg},
	{Short: 'r', Long: "reverse"},
	{Short: 's', Long: "stable"},
	{Long: "batch-size", Arg: builtins.RequiredArg},
	{Short: 'S', Long: "buffer-size", Arg: builtins.RequiredArg},
	{Short: 't', Long: "field-separator", Arg: builtins.RequiredArg},
	{Short: 'T', Long: "temporary-directory", Arg: builtins.RequiredArg},
	{Short: 'u', Long: "unique"},
	{Short: 'z', Long: "zero-terminated"},
	{Long: "parallel", Arg: builtins.RequiredArg},
	{Short: 'c'},
	{Short: 'C'},
	{Short: 'y', Arg: builtins.OptionalArg},
	{Long: obsoleteKeyOpt, Arg: builtins.RequiredArg},
}

const sortFailure = 2

// Run is the sort command.
func Run(ctx context.Context, c *builtins.Call) int {
	return run(ctx, c)
}

func die(c *builtins.Call, format string, a ...any) int {
	c.Errorf(format, a...)
	return sortFailure
}

// preprocess rewrites the historical forms GNU sort still accepts:
// "+POS1 [-POS2]" keys and "-y [DIGITS]".
func preprocess(args []string) ([]string, *keySpecError) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if a == "-y" {
			if i+1 < len(args) && allDigits(args[i+1]) {
				i++
			}
			continue
		}
		if len(a) > 1 && a[0] == '+' {
			hasPos2 := i+1 < len(args) && len(args[i+1]) > 1 && args[i+1][0] == '-' && isDigit(args[i+1][1])
			pos2 := ""
			if hasPos2 {
				pos2 = args[i+1]
			}
			k, err := parseObsoleteKey(a, pos2, hasPos2)
			if err != nil {
				return nil, err
			}
			if k != nil {
				enc := a
				if hasPos2 {
					enc += "\x00" + pos2
					i++
				}
				out = append(out, "--"+obsoleteKeyOpt+"="+enc)
				continue
			}
		}
		out = append(out, a)
	}
	return out, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func keyError(c *builtins.Call, e *keySpecError) int {
	if e.count {
		return die(c, "%s: invalid count at start of %s", e.msg, quote.New(c).Q(e.spec))
	}
	return die(c, "%s: invalid field specification %s", e.msg, quote.New(c).Q(e.spec))
}

func run(ctx context.Context, c *builtins.Call) int {
	args, kerr := preprocess(c.Args[1:])
	if kerr != nil {
		return keyError(c, kerr)
	}
	sub := *c
	sub.Args = append([]string{c.Args[0]}, args...)
	opts, files, code, done := textio.Parse(&sub, options, help, sortFailure)
	if done {
		return code
	}

	s := &sorter{tab: -1, eol: '\n'}
	gkey := &keyField{sword: sizeMax, eword: sizeMax}
	var checkonly byte
	var outfile string
	hasOut := false
	merge := false
	var filesFrom string
	hasFilesFrom := false
	randomSource := ""
	for _, o := range opts {
		switch o.Key {
		case "ignore-leading-blanks":
			gkey.setOrdering("b", blBoth)
		case "dictionary-order":
			gkey.setOrdering("d", blBoth)
		case "ignore-case":
			gkey.setOrdering("f", blBoth)
		case "general-numeric-sort":
			gkey.setOrdering("g", blBoth)
		case "ignore-nonprinting":
			gkey.setOrdering("i", blBoth)
		case "month-sort":
			gkey.setOrdering("M", blBoth)
		case "numeric-sort":
			gkey.setOrdering("n", blBoth)
		case "human-numeric-sort":
			gkey.setOrdering("h", blBoth)
		case "version-sort":
			gkey.setOrdering("V", blBoth)
		case "random-sort":
			gkey.setOrdering("R", blBoth)
		case "reverse":
			gkey.setOrdering("r", blBoth)
		case "sort":
			words := []string{"general-numeric", "human-numeric", "month", "numeric", "random", "version"}
			i, ok := argmatch.Get(c, o.Value, "--sort", argmatch.Words(words...), 1)
			if !ok {
				return 1
			}
			gkey.setOrdering(string("ghMnRV"[i]), blBoth)
		case "check", "c", "C":
			var mode byte = 'c'
			switch {
			case o.Key == "C":
				mode = 'C'
			case o.Key == "check" && o.Has:
				i, ok := argmatch.Get(c, o.Value, "--check", []argmatch.Choice{{Names: []string{"quiet", "silent"}, Value: 0}, {Names: []string{"diagnose-first"}, Value: 1}}, 1)
				if !ok {
					return 1
				}
				if i == 0 {
					mode = 'C'
				}
			}
			if checkonly != 0 && checkonly != mode {
				return die(c, "options '-cC' are incompatible")
			}
			checkonly = mode
		case "key":
			k, err := parseKey(o.Value)
			if err != nil {
				return keyError(c, err)
			}
			s.keys = append(s.keys, k)
		case obsoleteKeyOpt:
			pos1, pos2, hasPos2 := strings.Cut(o.Value, "\x00")
			k, _ := parseObsoleteKey(pos1, pos2, hasPos2)
			s.keys = append(s.keys, k)
		case "merge":
			merge = true
		case "output":
			if hasOut && outfile != o.Value {
				return die(c, "multiple output files specified")
			}
			outfile, hasOut = o.Value, true
		case "random-source":
			if randomSource != "" && randomSource != o.Value {
				return die(c, "multiple random sources specified")
			}
			randomSource = o.Value
		case "stable":
			s.stable = true
		case "buffer-size":
			if !validSize(o.Value) {
				return die(c, "invalid -S argument '%s'", o.Value)
			}
		case "field-separator":
			newtab := -1
			switch {
			case o.Value == "":
				return die(c, "empty tab")
			case len(o.Value) == 1:
				newtab = int(o.Value[0])
			case o.Value == `\0`:
				newtab = 0
			default:
				return die(c, "multi-character tab %s", quote.New(c).Q(o.Value))
			}
			if s.tab >= 0 && s.tab != newtab {
				return die(c, "incompatible tabs")
			}
			s.tab = newtab
		case "unique":
			s.unique = true
		case "zero-terminated":
			s.eol = 0
		case "parallel":
			n, e := textio.ParseUint(o.Value, "")
			if e != textio.NumOK {
				return die(c, "invalid --parallel argument '%s'", o.Value)
			}
			if n == 0 {
				return die(c, "number in parallel must be nonzero")
			}
		case "batch-size":
			n, e := textio.ParseUint(o.Value, "")
			if e == textio.NumInvalid {
				return die(c, "invalid --batch-size argument '%s'", o.Value)
			}
			if n < 2 {
				c.Errorf("invalid --batch-size argument %s", quote.New(c).Q(o.Value))
				return die(c, "minimum --batch-size argument is %s", quote.New(c).Q("2"))
			}
		case "files0-from":
			filesFrom, hasFilesFrom = o.Value, true
		}
	}

	if hasFilesFrom {
		if len(files) > 0 {
			c.Errorf("extra operand %s", quote.UTF8.AF(files[0]))
			fmt.Fprintln(c.Stderr, "file operands cannot be combined with --files0-from")
			c.TryHelp(0)
			return sortFailure
		}
		names, code, ok := readFiles0(c, filesFrom)
		if !ok {
			return code
		}
		files = names
	}

	// Keys without ordering options inherit the global ones.
	for _, k := range s.keys {
		if k.defaultCompare() && !k.reverse {
			k.ignore, k.translate = gkey.ignore, gkey.translate
			k.skipsblanks, k.skipeblanks = gkey.skipsblanks, gkey.skipeblanks
			k.month, k.numeric, k.general, k.human = gkey.month, gkey.numeric, gkey.general, gkey.human
			k.version, k.random, k.reverse = gkey.version, gkey.random, gkey.reverse
		}
	}
	if len(s.keys) == 0 && !gkey.defaultCompare() {
		s.keys = append(s.keys, gkey)
	}
	needRandom := false
	for _, k := range s.keys {
		needRandom = needRandom || k.random
		kinds := b2i(k.numeric) + b2i(k.general) + b2i(k.human) + b2i(k.month) + b2i(k.version || k.random || k.ignore != nil)
		if kinds > 1 {
			kk := *k
			kk.skipsblanks, kk.skipeblanks, kk.reverse = false, false, false
			return die(c, "options '-%s' are incompatible", kk.opts())
		}
	}
	s.reverse = gkey.reverse
	s.hardCollate = hardLocale(c)
	if needRandom {
		if code, ok := s.initRandom(c, randomSource); !ok {
			return code
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	if checkonly != 0 {
		if len(files) > 1 {
			return die(c, "extra operand %s not allowed with -%c", quote.UTF8.AF(files[1]), checkonly)
		}
		if hasOut {
			return die(c, "options '-%co' are incompatible", checkonly)
		}
		return s.check(ctx, c, files[0], checkonly == 'c')
	}
	// All inputs must be readable, and the output openable, before any
	// work is done.
	for _, f := range files {
		if f == "-" {
			continue
		}
		if _, err := c.Stat(f); err != nil {
			return die(c, "cannot read: %s: %s", quote.UTF8.F(f), builtins.ErrText(err))
		}
	}
	if hasOut {
		f, err := c.OpenFile(outfile, os.O_WRONLY|os.O_CREATE, 0o666)
		if err != nil {
			return die(c, "open failed: %s: %s", quote.UTF8.F(outfile), builtins.ErrText(err))
		}
		f.Close()
	}

	var ends []int // end offset in s.buf of each input, for -m
	for _, f := range files {
		if ctx.Err() != nil {
			return 1
		}
		if err := s.readAll(ctx, c, f); err != nil {
			if errors.Is(err, builtins.ErrMemory) {
				// GNU sort spills to temporary files; here the
				// whole input is held, within the memory budget.
				return die(c, "memory exhausted")
			}
			if ctx.Err() != nil {
				return sortFailure
			}
			return die(c, "read failed: %s: %s", quote.UTF8.F(f), builtins.ErrText(err))
		}
		ends = append(ends, len(s.buf))
	}
	// The records: 24 to 40 bytes per line besides the line itself.
	if err := c.Grow(int64(bytes.Count(s.buf, []byte{s.eol})) * 40); err != nil {
		return die(c, "memory exhausted")
	}
	simple := len(s.keys) == 0 && !merge
	var order []rec
	var sorder []srec
	if simple {
		sorder = s.splitSimple()
		if err := s.sortSimple(ctx, sorder); err != nil {
			return 1
		}
	} else {
		recs, bounds := s.split(ends)
		s.prepare(recs)
		if merge {
			order = s.mergeInputs(recs, bounds)
		} else {
			if err := s.sortRecs(ctx, recs); err != nil {
				return 1
			}
			order = recs
		}
	}

	var dst io.Writer = c.Stdout
	outName := "standard output"
	if hasOut {
		f, err := c.Create(outfile)
		if err != nil {
			return die(c, "open failed: %s: %s", quote.UTF8.F(outfile), builtins.ErrText(err))
		}
		defer f.Close()
		dst = f
		outName = outfile
	}
	w := textio.NewWriter(dst)
	var err error
	if simple {
		err = s.outputSimple(ctx, w, sorder)
	} else {
		err = s.output(ctx, w, order)
	}
	if err != nil {
		return s.writeFailed(c, err, outName)
	}
	if err := w.Flush(); err != nil {
		return s.writeFailed(c, err, outName)
	}
	return 0
}

func (s *sorter) writeFailed(c *builtins.Call, err error, name string) int {
	if builtins.IsBrokenPipe(err) {
		return 141
	}
	return die(c, "write failed: %s: %s", quote.UTF8.F(name), builtins.ErrText(err))
}

// validSize checks a -S argument: a number with an optional unit.
func validSize(v string) bool {
	if v == "" {
		return false
	}
	i := 0
	for i < len(v) && isDigit(v[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	rest := v[i:]
	switch {
	case rest == "":
		return true
	case len(rest) == 1 && strings.ContainsRune("bkKmMgGtTpPeEzZyY%", rune(rest[0])):
		return true
	}
	return false
}

// hardLocale reports whether the collation locale is other than C/POSIX.
func hardLocale(c *builtins.Call) bool {
	l := textio.Locale(c, "LC_COLLATE")
	return !(l == "" || l == "C" || l == "POSIX")
}

func (s *sorter) initRandom(c *builtins.Call, source string) (int, bool) {
	if source == "" {
		// No source: a fresh random salt, as GNU draws from getrandom.
		if _, err := rand.Read(s.salt[:]); err != nil {
			return 1, false
		}
		return 0, true
	}
	f, err := c.Open(source)
	if err != nil {
		code := die(c, "open failed: %s: %s", quote.UTF8.F(source), builtins.ErrText(err))
		return code, false
	}
	defer f.Close()
	if _, err := io.ReadFull(f, s.salt[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			code := die(c, "%s: end of file", quote.New(c).Q(source))
			return code, false
		}
		code := die(c, "%s: %s", quote.New(c).Q(source), builtins.ErrText(err))
		return code, false
	}
	return 0, true
}

func readFiles0(c *builtins.Call, from string) ([]string, int, bool) {
	var r io.ReadCloser
	if from == "-" {
		r, _ = textio.Open(c, "-")
	} else {
		f, err := c.Open(from)
		if err != nil {
			code := die(c, "open failed: %s: %s", quote.UTF8.F(from), builtins.ErrText(err))
			return nil, code, false
		}
		r = f
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		code := die(c, "cannot read file names from %s: %s", quote.UTF8.AF(from), builtins.ErrText(err))
		return nil, code, false
	}
	names := textio.Files0(data)
	if len(names) == 0 {
		code := die(c, "no input from %s", quote.UTF8.AF(from))
		return nil, code, false
	}
	for i, n := range names {
		if from == "-" && n == "-" {
			code := die(c, "when reading file names from stdin, no file name of %s allowed", quote.UTF8.AF(n))
			return nil, code, false
		}
		if n == "" {
			code := die(c, "%s:%d: invalid zero-length file name", quote.UTF8.F(from), i+1)
			return nil, code, false
		}
	}
	return names, 0, true
}

// readAll appends the contents of file name to the sorter's buffer,
// ending it with a line terminator.
func (s *sorter) readAll(ctx context.Context, c *builtins.Call, name string) error {
	r, err := textio.Open(c, name)
	if err != nil {
		return err
	}
	defer r.Close()
	start := len(s.buf)
	if st, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok && name != "-" {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			if err := s.grow(c, int(fi.Size())+1); err != nil {
				return err
			}
		}
	}
	for {
		if len(s.buf) == cap(s.buf) {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := s.grow(c, max(64<<10, cap(s.buf))); err != nil {
				s.buf = s.buf[:start]
				return err
			}
		}
		n, err := r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			s.buf = s.buf[:start]
			return err
		}
	}
	if len(s.buf) > start && s.buf[len(s.buf)-1] != s.eol {
		s.buf = append(s.buf, s.eol)
	}
	if len(s.buf) > math.MaxUint32 {
		return errTooBig
	}
	return nil
}

var errTooBig = errors.New("memory exhausted")

// split makes a record per line; bounds[i] is the end index in the
// records of the input ending at ends[i].
func (s *sorter) split(ends []int) ([]rec, []int) {
	recs := make([]rec, 0, bytes.Count(s.buf, []byte{s.eol}))
	var bounds []int
	off := 0
	for _, end := range ends {
		for off < end {
			i := bytes.IndexByte(s.buf[off:end], s.eol)
			recs = append(recs, rec{off: uint32(off), n: uint32(i), idx: uint32(len(recs))})
			off += i + 1
		}
		bounds = append(bounds, len(recs))
	}
	return recs, bounds
}

// splitSimple makes a whole-line record per line.
func (s *sorter) splitSimple() []srec {
	recs := make([]srec, 0, bytes.Count(s.buf, []byte{s.eol}))
	off := 0
	for off < len(s.buf) {
		i := bytes.IndexByte(s.buf[off:], s.eol)
		line := s.buf[off : off+i]
		recs = append(recs, srec{pfx: prefix(line), off: uint32(off), n: uint32(i)})
		off += i + 1
	}
	return recs
}

// grow makes room for n more bytes, charged to the memory budget. The
// buffer at least doubles, so many inputs, each sized exactly by its stat,
// cost amortised linear copying rather than a copy of everything read so
// far per input.
func (s *sorter) grow(c *builtins.Call, n int) error {
	if cap(s.buf)-len(s.buf) >= n {
		return nil
	}
	// The new buffer is charged whole while the old one is still held,
	// so the budget bounds the copy's peak; the old one is given back
	// after it.
	size := max(len(s.buf)+n, 2*cap(s.buf))
	if err := c.Grow(int64(size)); err != nil {
		return err
	}
	nb := make([]byte, len(s.buf), size)
	copy(nb, s.buf)
	c.Shrink(int64(cap(s.buf)))
	s.buf = nb
	return nil
}

// output writes the records, dropping equal runs with -u.
func (s *sorter) output(ctx context.Context, w *bufio.Writer, order []rec) error {
	c := &comparer{s: s}
	var last *rec
	for i := range order {
		if i&4095 == 0 && ctx.Err() != nil {
			return nil
		}
		r := &order[i]
		if s.unique && last != nil && c.compare(last, r) == 0 {
			continue
		}
		last = r
		w.Write(s.line(r))
		if err := w.WriteByte(s.eol); err != nil {
			return err
		}
	}
	return nil
}

// outputSimple writes whole-line records; with -u, a line equal to the
// previous one is dropped. Each line is followed by its terminator in the
// buffer.
func (s *sorter) outputSimple(ctx context.Context, w *bufio.Writer, order []srec) error {
	var last []byte
	for i := range order {
		if i&4095 == 0 && ctx.Err() != nil {
			return nil
		}
		r := &order[i]
		line := s.buf[r.off : r.off+r.n]
		if s.unique && i > 0 && bytes.Equal(last, line) {
			continue
		}
		last = line
		if _, err := w.Write(s.buf[r.off : r.off+r.n+1]); err != nil {
			return err
		}
	}
	return nil
}
