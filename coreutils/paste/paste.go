// Package paste implements paste: merge lines of files.
package paste

import (
	"bufio"
	"bytes"
	"context"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var options = []builtins.Option{
	{Short: 'd', Long: "delimiters", Arg: builtins.RequiredArg},
	{Short: 's', Long: "serial"},
	{Short: 'z', Long: "zero-terminated"},
}

// delim is one delimiter; empty means none (from "\0").
type delim []byte

// Run is the paste command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, code, done := textio.Parse(c, options, help, 1)
	if done {
		return code
	}
	delimArg := "\t"
	serial := false
	var eol byte = '\n'
	for _, o := range opts {
		switch o.Key {
		case "delimiters":
			delimArg = o.Value
			if delimArg == "" {
				delimArg = `\0`
			}
		case "serial":
			serial = true
		case "zero-terminated":
			eol = 0
		}
	}
	delims, ok := parseDelims(delimArg)
	if !ok {
		c.Errorf("delimiter list ends with an unescaped backslash: %s", delimArg)
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	w := textio.NewWriter(c.Stdout)
	var status int
	if serial {
		status = pasteSerial(ctx, c, w, files, delims, eol)
	} else {
		status = pasteParallel(ctx, c, w, files, delims, eol)
	}
	if status == 141 {
		return status
	}
	return textio.Finish(c, w, status)
}

func parseDelims(s string) ([]delim, bool) {
	var out []delim
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			out = append(out, delim{s[i]})
			continue
		}
		i++
		if i >= len(s) {
			return nil, false
		}
		switch s[i] {
		case '0':
			out = append(out, delim{})
		case 'b':
			out = append(out, delim{'\b'})
		case 'f':
			out = append(out, delim{'\f'})
		case 'n':
			out = append(out, delim{'\n'})
		case 'r':
			out = append(out, delim{'\r'})
		case 't':
			out = append(out, delim{'\t'})
		case 'v':
			out = append(out, delim{'\v'})
		default:
			out = append(out, delim{s[i]})
		}
	}
	return out, true
}

type input struct {
	name string
	r    *bufio.Reader
	c    io.Closer
	open bool
}

// readLine returns the next line without its terminator, whether any byte
// was read, and a read error.
func readLine(r *bufio.Reader, eol byte, scratch []byte) ([]byte, bool, error) {
	line := scratch[:0]
	for {
		frag, err := r.ReadSlice(eol)
		if err == bufio.ErrBufferFull {
			line = append(line, frag...)
			continue
		}
		if len(line) > 0 {
			line = append(line, frag...)
		} else {
			line = frag
		}
		got := len(line) > 0
		if len(line) > 0 && line[len(line)-1] == eol && err == nil {
			line = line[:len(line)-1]
		}
		if err == io.EOF {
			err = nil
		}
		return line, got, err
	}
}

func pasteParallel(ctx context.Context, c *builtins.Call, w *bufio.Writer, files []string, delims []delim, eol byte) int {
	ins := make([]*input, len(files))
	var stdin *bufio.Reader
	for i, name := range files {
		if name == "-" {
			if stdin == nil {
				stdin = textio.NewReader(textio.Stdin(c))
			}
			ins[i] = &input{name: name, r: stdin, open: true}
			continue
		}
		f, err := c.Open(name)
		if err != nil {
			for _, in := range ins[:i] {
				if in.c != nil {
					in.c.Close()
				}
			}
			c.FileError(quote.UTF8.F(name), err, 1)
			return 1
		}
		ins[i] = &input{name: name, r: bufio.NewReaderSize(f, 64<<10), c: f, open: true}
	}
	defer func() {
		for _, in := range ins {
			if in.c != nil {
				in.c.Close()
			}
		}
	}()
	status := 0
	filesOpen := len(ins)
	var saved []byte
	var scratch []byte
	for n := 0; filesOpen > 0; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return 1
		}
		someDone := false
		di := 0
		saved = saved[:0]
		for i := 0; i < len(ins) && filesOpen > 0; i++ {
			in := ins[i]
			var line []byte
			got := false
			if in.open {
				var err error
				line, got, err = readLine(in.r, eol, scratch)
				if err != nil {
					c.FileError(quote.UTF8.F(in.name), err, 1)
					status = 1
					got = false
				}
				if got {
					if len(saved) > 0 {
						w.Write(saved)
						saved = saved[:0]
					}
					w.Write(line)
				}
			}
			if !got {
				if in.open {
					in.open = false
					filesOpen--
				}
				if i+1 == len(ins) {
					if someDone {
						w.Write(saved)
						saved = saved[:0]
						w.WriteByte(eol)
					}
				} else {
					saved = append(saved, delims[di]...)
					di = (di + 1) % len(delims)
				}
				continue
			}
			someDone = true
			if i+1 != len(ins) {
				w.Write(delims[di])
				di = (di + 1) % len(delims)
			} else {
				if _, err := w.Write([]byte{eol}); err != nil {
					return textio.WriteFailed(c, err)
				}
			}
		}
	}
	return status
}

func pasteSerial(ctx context.Context, c *builtins.Call, w *bufio.Writer, files []string, delims []delim, eol byte) int {
	status := 0
	for _, name := range files {
		if ctx.Err() != nil {
			return 1
		}
		r, err := textio.Open(c, name)
		if err != nil {
			status = c.FileError(quote.UTF8.F(name), err, 1)
			continue
		}
		br := textio.NewReader(r)
		di := 0
		var pending bool // a line terminator not yet written as a delimiter
		buf := make([]byte, textio.BufSize)
		for {
			n, rerr := br.Read(buf)
			p := buf[:n]
			for len(p) > 0 {
				if pending {
					w.Write(delims[di])
					di = (di + 1) % len(delims)
					pending = false
				}
				i := bytes.IndexByte(p, eol)
				if i < 0 {
					w.Write(p)
					break
				}
				w.Write(p[:i])
				pending = true
				p = p[i+1:]
			}
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				status = c.FileError(quote.UTF8.F(name), rerr, 1)
				break
			}
		}
		r.Close()
		if _, err := w.Write([]byte{eol}); err != nil {
			return textio.WriteFailed(c, err)
		}
	}
	return status
}
