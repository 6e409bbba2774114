// Package cat implements cat: concatenate files to standard output.
package cat

import (
	"bufio"
	"context"
	"io"
	"io/fs"
	"path"
	"strconv"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help        display this help and exit
      --version     output version information and exit

Examples:
  cat f - g  Output f's contents, then standard input, then g's contents.
  cat        Copy standard input to standard output.
`

// options is in GNU's long_options order, which ambiguity messages show.
var options = []builtins.Option{
	{Short: 'b', Long: "number-nonblank"},
	{Short: 'n', Long: "number"},
	{Short: 's', Long: "squeeze-blank"},
	{Short: 'v', Long: "show-nonprinting"},
	{Short: 'E', Long: "show-ends"},
	{Short: 'T', Long: "show-tabs"},
	{Short: 'A', Long: "show-all"},
	{Short: 'e'},
	{Short: 't'},
	{Short: 'u'},
}

type state struct {
	number, nonblank, squeeze, ends, tabs, nonprint bool

	newlines  int // GNU's counter: -1 inside a line, else newlines seen at line start
	lineNo    int64
	pendingCR bool
	out       *bufio.Writer
	scratch   []byte
}

// Run is the cat command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, code, done := textio.Parse(c, options, help, 1)
	if done {
		return code
	}
	st := &state{}
	for _, o := range opts {
		switch o.Key {
		case "show-all":
			st.nonprint, st.ends, st.tabs = true, true, true
		case "number-nonblank":
			st.number, st.nonblank = true, true
		case "e":
			st.nonprint, st.ends = true, true
		case "show-ends":
			st.ends = true
		case "number":
			st.number = true
		case "squeeze-blank":
			st.squeeze = true
		case "t":
			st.nonprint, st.tabs = true, true
		case "show-tabs":
			st.tabs = true
		case "show-nonprinting":
			st.nonprint = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	plain := !(st.number || st.squeeze || st.ends || st.tabs || st.nonprint)
	st.out = textio.NewWriter(c.Stdout)
	status := 0
	var buf []byte
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return textio.Finish(c, st.out, 1)
		}
		r, err := textio.Open(c, name)
		if err != nil {
			status = c.FileError(quote.UTF8.F(name), err, 1)
			continue
		}
		if _, named := c.Stdout.(namedStat); named && name != "-" {
			// What was written so far counts, as GNU cat writes each
			// file out before opening the next.
			if err := st.out.Flush(); err != nil {
				r.Close()
				return textio.WriteFailed(c, err)
			}
		}
		if name != "-" && sameFile(c.Stdout, r) {
			c.Errorf("%s: input file is output file", quote.UTF8.F(name))
			r.Close()
			status = 1
			continue
		}
		buf = textio.ReadBuffer(buf, r)
		for {
			n, rerr := r.Read(buf)
			if n > 0 {
				var werr error
				if plain {
					_, werr = st.out.Write(buf[:n])
				} else {
					werr = st.format(buf[:n])
				}
				if werr != nil {
					r.Close()
					return textio.WriteFailed(c, werr)
				}
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				status = c.FileError(quote.UTF8.F(name), rerr, 1)
				break
			}
			if ctx.Err() != nil {
				r.Close()
				return textio.Finish(c, st.out, 1)
			}
		}
		if st.pendingCR {
			st.out.WriteByte('\r')
			st.pendingCR = false
		}
		r.Close()
	}
	return textio.Finish(c, st.out, status)
}

type namedStat interface {
	Name() string
	Stat() (fs.FileInfo, error)
}

// sameFile reports whether the output is the nonempty regular file being
// read, which GNU cat refuses to copy to itself.
func sameFile(out io.Writer, in io.Reader) bool {
	o, ok := out.(namedStat)
	if !ok {
		return false
	}
	i, ok := in.(namedStat)
	if !ok || path.Clean(o.Name()) != path.Clean(i.Name()) {
		return false
	}
	fi, err := i.Stat()
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

func (st *state) putNumber() {
	st.lineNo++
	b := st.scratch[:0]
	s := strconv.AppendInt(b, st.lineNo, 10)
	for i := len(s); i < 6; i++ {
		st.out.WriteByte(' ')
	}
	st.out.Write(s)
	st.out.WriteByte('\t')
	st.scratch = s
}

// format writes p with the numbering and notation options, keeping the
// state across calls (and across files, as GNU cat does).
func (st *state) format(p []byte) error {
	w := st.out
	for i := 0; i < len(p); {
		ch := p[i]
		if st.pendingCR {
			st.pendingCR = false
			if ch == '\n' {
				w.WriteString("^M")
			} else {
				w.WriteByte('\r')
			}
		}
		if ch == '\n' {
			st.newlines++
			if st.newlines > 0 {
				if st.newlines >= 2 {
					st.newlines = 2
					if st.squeeze {
						i++
						continue
					}
				}
				if st.number && !st.nonblank {
					st.putNumber()
				}
			}
			if st.ends {
				w.WriteByte('$')
			}
			w.WriteByte('\n')
			i++
			continue
		}
		if st.newlines >= 0 && st.number {
			st.putNumber()
		}
		st.newlines = -1
		// The rest of the line up to the next newline.
		j := i
		for j < len(p) && p[j] != '\n' {
			j++
		}
		seg := p[i:j]
		switch {
		case st.nonprint:
			for _, b := range seg {
				switch {
				case b >= 32 && b < 127:
					w.WriteByte(b)
				case b == 127:
					w.WriteString("^?")
				case b >= 128:
					w.WriteString("M-")
					b -= 128
					switch {
					case b >= 32 && b < 127:
						w.WriteByte(b)
					case b == 127:
						w.WriteString("^?")
					default:
						w.WriteByte('^')
						w.WriteByte(b + 64)
					}
				case b == '\t' && !st.tabs:
					w.WriteByte('\t')
				default:
					w.WriteByte('^')
					w.WriteByte(b + 64)
				}
			}
		case st.tabs || st.ends:
			for k, b := range seg {
				switch {
				case b == '\t' && st.tabs:
					w.WriteString("^I")
				case b == '\r' && st.ends && k == len(seg)-1:
					if j < len(p) {
						w.WriteString("^M")
					} else {
						st.pendingCR = true
					}
				default:
					w.WriteByte(b)
				}
			}
		default:
			w.Write(seg)
		}
		i = j
	}
	_, err := w.Write(nil) // reports a sticky write error
	return err
}
