// Package wc implements wc: print newline, word, and byte counts.
package wc

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"strconv"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"
)

const help = `Usage: wc [OPTION]... [FILE]...
  or:  wc [OPTION]... --files0-from=F
Print newline, word, and byte counts for each FILE, and a total line if
more than one FILE is specified.  A word is a non-zero-length sequence of
printable characters delimited by white space.

With no FILE, or when FILE is -, read standard input.

The options below may be used to select which counts are printed, always in
the following order: newline, word, character, byte, maximum line length.
  -c, --bytes            print the byte counts
  -m, --chars            print the character counts
  -l, --lines            print the newline counts
      --files0-from=F    read input from the files specified by
                           NUL-terminated names in file F;
                           If F is - then read names from standard input
  -L, --max-line-length  print the maximum display width
  -w, --words            print the word counts
      --help        display this help and exit
      --version     output version information and exit
`

var options = []builtins.Option{
	{Short: 'c', Long: "bytes"},
	{Short: 'm', Long: "chars"},
	{Short: 'l', Long: "lines"},
	{Short: 'w', Long: "words"},
	{Long: "files0-from", Arg: builtins.RequiredArg},
	{Short: 'L', Long: "max-line-length"},
}

type counts struct {
	lines, words, chars, bytes, maxLen uint64
}

type wc struct {
	c                                     *builtins.Call
	ctx                                   context.Context
	lines, words, chars, bytes, maxLength bool
	utf8                                  bool
	width                                 int
	out                                   *bufio.Writer
	total                                 counts
	buf                                   []byte
}

// Run is the wc command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, code, done := textio.Parse(c, options, help, 1)
	if done {
		return code
	}
	w := &wc{c: c, ctx: ctx, utf8: textio.IsUTF8(c)}
	filesFrom := ""
	hasFrom := false
	for _, o := range opts {
		switch o.Key {
		case "bytes":
			w.bytes = true
		case "chars":
			w.chars = true
		case "lines":
			w.lines = true
		case "words":
			w.words = true
		case "max-line-length":
			w.maxLength = true
		case "files0-from":
			filesFrom, hasFrom = o.Value, true
		}
	}
	if !(w.bytes || w.chars || w.lines || w.words || w.maxLength) {
		w.lines, w.words, w.bytes = true, true, true
	}
	w.out = textio.NewWriter(c.Stdout)
	status := 0

	if hasFrom {
		if len(files) > 0 {
			c.Errorf("extra operand %s", quote.UTF8.AF(files[0]))
			io.WriteString(c.Stderr, "file operands cannot be combined with --files0-from\n")
			c.TryHelp(0)
			return 1
		}
		return w.filesFrom(filesFrom)
	}

	names := files
	noOperand := len(names) == 0
	if noOperand {
		names = []string{"-"}
	}
	w.width = w.numberWidth(names)
	for _, name := range names {
		label := name
		if noOperand {
			label = ""
		}
		if !w.countOne(name, label) {
			status = 1
		}
		if ctx.Err() != nil {
			return textio.Finish(c, w.out, 1)
		}
	}
	if len(names) > 1 {
		w.print(&w.total, "total", true)
	}
	return textio.Finish(c, w.out, status)
}

// numberWidth is GNU's compute_number_width: wide enough for the total
// size of the regular files, at least 7 when an input is not a regular
// file, and 1 when a single count of a single input is printed.
func (w *wc) numberWidth(names []string) int {
	n := 0
	for _, b := range []bool{w.lines, w.words, w.chars, w.bytes, w.maxLength} {
		if b {
			n++
		}
	}
	if len(names) == 1 && n == 1 {
		return 1
	}
	minWidth := 1
	var total uint64
	for i, name := range names {
		fi, err := w.stat(name)
		if err != nil {
			if i == 0 {
				return 1
			}
			continue
		}
		if fi == nil || !fi.Mode().IsRegular() {
			minWidth = 7
		} else {
			total += uint64(fi.Size())
		}
	}
	width := 1
	for ; total >= 10; total /= 10 {
		width++
	}
	if width < minWidth {
		width = minWidth
	}
	return width
}

// stat returns the file's information; nil (and no error) for a standard
// input that cannot tell.
func (w *wc) stat(name string) (fs.FileInfo, error) {
	if name == "" {
		return nil, fs.ErrNotExist
	}
	if name == "-" {
		if st, ok := w.c.Stdin.(interface{ Stat() (fs.FileInfo, error) }); ok {
			return st.Stat()
		}
		return nil, nil
	}
	return w.c.Stat(name)
}

func (w *wc) filesFrom(from string) int {
	c := w.c
	var r io.ReadCloser
	var fromRegular bool
	if from == "-" {
		r, _ = textio.Open(c, "-")
		if fi, err := w.stat("-"); err == nil && fi != nil && fi.Mode().IsRegular() {
			fromRegular = true
		}
	} else {
		f, err := c.Open(from)
		if err != nil {
			c.Errorf("cannot open %s for reading: %s", quote.UTF8.AF(from), builtins.ErrText(err))
			return 1
		}
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			fromRegular = true
		}
		r = f
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		c.Errorf("cannot read file names from %s: %s", quote.UTF8.AF(from), builtins.ErrText(err))
		return 1
	}
	names := textio.Files0(data)
	if fromRegular {
		w.width = w.numberWidth(names)
	} else {
		w.width = 1
	}
	status := 0
	for i, name := range names {
		if w.ctx.Err() != nil {
			return textio.Finish(c, w.out, 1)
		}
		switch {
		case from == "-" && name == "-":
			c.Errorf("when reading file names from stdin, no file name of %s allowed", quote.UTF8.AF("-"))
			status = 1
			continue
		case name == "":
			c.Errorf("%s:%d: invalid zero-length file name", quote.UTF8.F(from), i+1)
			status = 1
			continue
		}
		if !w.countOne(name, name) {
			status = 1
		}
	}
	if len(names) > 1 {
		w.print(&w.total, "total", true)
	}
	return textio.Finish(c, w.out, status)
}

// countOne counts one input and prints its line; false on error.
func (w *wc) countOne(name, label string) bool {
	c := w.c
	r, err := textio.Open(c, name)
	if err != nil {
		c.FileError(quote.UTF8.F(name), err, 1)
		return false
	}
	defer r.Close()
	var cnt counts
	err = w.count(r, &cnt)
	ok := true
	if err != nil {
		if w.ctx.Err() != nil {
			return false
		}
		c.FileError(quote.UTF8.F(name), err, 1)
		ok = false
	}
	w.print(&cnt, label, label != "")
	w.total.lines += cnt.lines
	w.total.words += cnt.words
	w.total.chars += cnt.chars
	w.total.bytes += cnt.bytes
	if cnt.maxLen > w.total.maxLen {
		w.total.maxLen = cnt.maxLen
	}
	return ok
}

func (w *wc) print(cnt *counts, label string, withLabel bool) {
	out := w.out
	first := true
	var num [24]byte
	put := func(v uint64) {
		s := strconv.AppendUint(num[:0], v, 10)
		if !first {
			out.WriteByte(' ')
		}
		first = false
		for i := len(s); i < w.width; i++ {
			out.WriteByte(' ')
		}
		out.Write(s)
	}
	if w.lines {
		put(cnt.lines)
	}
	if w.words {
		put(cnt.words)
	}
	if w.chars {
		put(cnt.chars)
	}
	if w.bytes {
		put(cnt.bytes)
	}
	if w.maxLength {
		put(cnt.maxLen)
	}
	if withLabel {
		out.WriteByte(' ')
		out.WriteString(label)
	}
	out.WriteByte('\n')
}

// count reads r to its end, filling cnt.
func (w *wc) count(r io.Reader, cnt *counts) error {
	w.buf = textio.ReadBuffer(w.buf, r)
	if !w.words && !w.maxLength && !(w.chars && w.utf8) {
		// Only lines and bytes (and bytes as chars): no decoding.
		for {
			if err := w.ctx.Err(); err != nil {
				return err
			}
			n, err := r.Read(w.buf)
			cnt.bytes += uint64(n)
			if w.lines {
				cnt.lines += uint64(bytes.Count(w.buf[:n], []byte{'\n'}))
			}
			if err == io.EOF {
				cnt.chars = cnt.bytes
				return nil
			}
			if err != nil {
				cnt.chars = cnt.bytes
				return err
			}
		}
	}
	var st scanState
	_, posix := w.c.LookupEnv("POSIXLY_CORRECT")
	st.nbspace = !posix
	carry := 0 // bytes of an incomplete UTF-8 sequence kept at buf[0:carry]
	for {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(w.buf[carry:])
		cnt.bytes += uint64(n)
		data := w.buf[:carry+n]
		atEOF := err != nil
		var rest int
		if w.utf8 {
			rest = st.scanUTF8(data, atEOF)
		} else {
			st.scanBytes(data)
		}
		carry = copy(w.buf, data[len(data)-rest:])
		if atEOF {
			if st.linepos > st.maxLen {
				st.maxLen = st.linepos
			}
			if st.inWord {
				st.words++
			}
			cnt.lines, cnt.words, cnt.chars, cnt.maxLen = st.lines, st.words, st.chars, st.maxLen
			if !w.utf8 {
				cnt.chars = cnt.bytes
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

type scanState struct {
	lines, words, chars, maxLen, linepos uint64
	inWord                               bool
	nbspace                              bool // no-break spaces separate words
}

// cPrint and cSpace are isprint and isspace in the C locale.
func cPrint(b byte) bool { return b >= 0x20 && b < 0x7f }

func (s *scanState) scanBytes(p []byte) {
	for _, b := range p {
		s.byteClass(b)
	}
}

func (s *scanState) byteClass(b byte) {
	switch b {
	case '\n':
		s.lines++
		fallthrough
	case '\r', '\f':
		if s.linepos > s.maxLen {
			s.maxLen = s.linepos
		}
		s.linepos = 0
		s.sep()
	case '\t':
		s.linepos += 8 - s.linepos%8
		s.sep()
	case ' ':
		s.linepos++
		s.sep()
	case '\v':
		s.sep()
	default:
		if cPrint(b) {
			s.linepos++
			s.inWord = true
		}
	}
}

func (s *scanState) sep() {
	if s.inWord {
		s.words++
		s.inWord = false
	}
}

// scanUTF8 scans p and returns how many trailing bytes form an incomplete
// sequence to be completed by the next read (0 at EOF).
func (s *scanState) scanUTF8(p []byte, atEOF bool) int {
	i := 0
	for i < len(p) {
		b := p[i]
		if b < utf8.RuneSelf {
			s.chars++
			s.byteClass(b)
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size <= 1 {
			if !atEOF && !utf8.FullRune(p[i:]) {
				return len(p) - i
			}
			i++ // an invalid byte: neither a character nor a separator
			continue
		}
		i += size
		s.chars++
		if wcwidth.IsWPrint(r) {
			if wd := wcwidth.RuneWidth(r); wd > 0 {
				s.linepos += uint64(wd)
			}
			if wcwidth.IsWSpace(r) || (s.nbspace && (r == 0xa0 || r == 0x2007 || r == 0x202f || r == 0x2060)) {
				s.sep()
			} else {
				s.inWord = true
			}
		}
	}
	return 0
}
