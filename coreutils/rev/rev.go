// Package rev implements util-linux rev: reverse the characters of each line.
package rev

import (
	"bufio"
	"context"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

const helpText = `
Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -h, --help     display this help
 -V, --version  display version

For more details see rev(1).
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'h', Long: "help"},
	{Short: 'V', Long: "version"},
}}

// errIllegal is the C library's EILSEQ text.
var errIllegal = errors.New("Invalid or incomplete multibyte or wide character")

// Run is the rev command.
func Run(ctx context.Context, c *builtins.Call) int {
	help := helpText[1:]
	opts, files, code, done := utilcmd.Parse(c, options, help, 1)
	if done {
		return code
	}
	for _, o := range opts {
		switch o.Key {
		}
	}
	out := textfmt.NewOutput(c.Stdout)
	status := 0
	if len(files) == 0 {
		if err := reverse(ctx, c, out, c.Stdin, "stdin"); err != nil {
			status = 1
		}
	}
	for _, name := range files {
		if out.Failed() || ctx.Err() != nil {
			break
		}
		f, err := c.Open(name)
		if err != nil {
			c.Errorf("cannot open %s: %s", name, builtins.ErrText(err))
			status = 1
			continue
		}
		if reverse(ctx, c, out, f, name) != nil {
			status = 1
		}
		f.Close()
	}
	return out.End(ctx, c, status)
}

var errReported = errors.New("reported")

func reverse(ctx context.Context, c *builtins.Call, out *textfmt.Output, r io.Reader, name string) error {
	br := textfmt.NewReader(r)
	var rbuf []byte
	var tick textfmt.Tick
	for line := 0; ; line++ {
		if tick.Stop(ctx) || out.Failed() {
			return nil
		}
		s, err := br.ReadSlice('\n')
		if err == bufioErrFull {
			// Long line: gather it whole.
			full := append([]byte(nil), s...)
			for err == bufioErrFull {
				s, err = br.ReadSlice('\n')
				full = append(full, s...)
			}
			s = full
		}
		if len(s) == 0 {
			if err != nil && err != io.EOF {
				c.Errorf("%s: %d: %s", name, line, builtins.ErrText(err))
				return errReported
			}
			return nil
		}
		nl := s[len(s)-1] == '\n'
		if nl {
			s = s[:len(s)-1]
		}
		rbuf = rbuf[:0]
		if cap(rbuf) < len(s) {
			rbuf = make([]byte, 0, len(s)+1)
		}
		rbuf = rbuf[:len(s)]
		ok := true
		for i := 0; i < len(s); {
			b := s[i]
			if b < utf8.RuneSelf {
				rbuf[len(s)-1-i] = b
				i++
				continue
			}
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size <= 1 {
				ok = false
				break
			}
			copy(rbuf[len(s)-i-size:], s[i:i+size])
			i += size
		}
		if !ok {
			c.Errorf("%s: %d: %s", name, line, errIllegal.Error())
			return errReported
		}
		if nl {
			rbuf = append(rbuf, '\n')
		}
		out.Write(rbuf)
		if err != nil {
			if err != io.EOF {
				c.Errorf("%s: %d: %s", name, line, builtins.ErrText(err))
				return errReported
			}
			return nil
		}
	}
}

var bufioErrFull = bufio.ErrBufferFull
