// Package head implements head: output the first part of files.
package head

import (
	"bufio"
	"bytes"
	"context"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
`

const suffixes = "bkKmMGTPEZY0"

func options() []builtins.Option {
	list := []builtins.Option{
		{Short: 'c', Long: "bytes", Arg: builtins.RequiredArg},
		{Short: 'n', Long: "lines", Arg: builtins.RequiredArg},
		{Short: 'q', Long: "quiet"},
		{Long: "silent"},
		{Short: 'v', Long: "verbose"},
		{Short: 'z', Long: "zero-terminated"},
	}
	for d := byte('0'); d <= '9'; d++ {
		list = append(list, builtins.Option{Short: d})
	}
	return list
}

type config struct {
	lines  bool
	elide  bool
	count  uint64
	delim  byte
	header int // 0 multiple files, 1 never, 2 always
}

// Run is the head command.
func Run(ctx context.Context, c *builtins.Call) int {
	cfg := config{lines: true, count: 10, delim: '\n'}
	args := c.Args
	// Obsolete -COUNT[bcklmqvz] as the first argument.
	if len(args) > 1 && len(args[1]) > 1 && args[1][0] == '-' && isDigit(args[1][1]) {
		a := args[1][1:]
		i := 0
		for i < len(a) && isDigit(a[i]) {
			i++
		}
		num := a[:i]
		mult := ""
		for _, ch := range []byte(a[i:]) {
			switch ch {
			case 'c':
				cfg.lines, mult = false, ""
			case 'b', 'k', 'm':
				cfg.lines, mult = false, string(ch)
			case 'l':
				cfg.lines = true
			case 'q':
				cfg.header = 1
			case 'v':
				cfg.header = 2
			case 'z':
				cfg.delim = 0
			default:
				c.Errorf("invalid trailing option -- %c", ch)
				c.TryHelp(0)
				return 1
			}
		}
		n, ok := textio.ParseCount(c, num+mult, suffixes, cfg.lines)
		if !ok {
			return 1
		}
		cfg.count = n
		sub := *c
		sub.Args = append([]string{args[0]}, args[2:]...)
		c = &sub
	}
	opts, files, code, done := textio.Parse(c, options(), help, 1)
	if done {
		return code
	}
	for _, o := range opts {
		switch o.Key {
		case "bytes", "lines":
			v := o.Value
			cfg.lines = o.Key == "lines"
			cfg.elide = false
			if len(v) > 0 && v[0] == '-' {
				cfg.elide = true
				v = v[1:]
			}
			n, ok := textio.ParseCount(c, v, suffixes, cfg.lines)
			if !ok {
				return 1
			}
			cfg.count = n
		case "quiet", "silent":
			cfg.header = 1
		case "verbose":
			cfg.header = 2
		case "zero-terminated":
			cfg.delim = 0
		default:
			c.Errorf("invalid trailing option -- %s", o.Key)
			c.TryHelp(0)
			return 1
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	headers := cfg.header == 2 || (cfg.header == 0 && len(files) > 1)
	w := textio.NewWriter(c.Stdout)
	_, status, stop := textio.EachHeaded(ctx, c, w, files, headers, func(r io.Reader, stdin bool) error {
		return head(ctx, r, w, &cfg, stdin)
	})
	if stop {
		return status
	}
	return textio.Finish(c, w, status)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func head(ctx context.Context, r io.Reader, w *bufio.Writer, cfg *config, stdin bool) error {
	switch {
	case !cfg.elide && cfg.count == 0:
		return nil
	case !cfg.elide && !cfg.lines:
		return headBytes(ctx, r, w, cfg.count)
	case !cfg.elide:
		return headLines(ctx, r, w, cfg.count, cfg.delim, stdin)
	case !cfg.lines:
		return elideBytes(ctx, r, w, cfg.count)
	default:
		return elideLines(ctx, r, w, cfg.count, cfg.delim)
	}
}

func headBytes(ctx context.Context, r io.Reader, w *bufio.Writer, n uint64) error {
	buf := textio.ReadBuffer(nil, r)
	for n > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		p := buf
		if uint64(len(p)) > n {
			p = p[:n]
		}
		k, err := r.Read(p)
		if k > 0 {
			if werr := textio.Write(w, p[:k]); werr != nil {
				return werr
			}
			n -= uint64(k)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// exactPrefix is how much of an unseekable standard input head reads a
// byte at a time, so that "(head -n 1; sort) < file" leaves the rest of
// the input to the next command, as GNU head does by seeking back on a
// redirected file.
const exactPrefix = 16 << 10

func headLines(ctx context.Context, r io.Reader, w *bufio.Writer, n uint64, delim byte, stdin bool) error {
	buf := textio.ReadBuffer(nil, r)
	exact := 0
	if s, ok := r.(io.Seeker); stdin && (!ok || func() bool { _, err := s.Seek(0, io.SeekCurrent); return err != nil }()) {
		exact = exactPrefix
	}
	for n > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		rb := buf
		if exact > 0 {
			rb = buf[:1]
			exact--
		}
		k, err := r.Read(rb)
		p := buf[:k]
		for len(p) > 0 && n > 0 {
			i := bytes.IndexByte(p, delim)
			if i < 0 {
				if werr := textio.Write(w, p); werr != nil {
					return werr
				}
				break
			}
			if werr := textio.Write(w, p[:i+1]); werr != nil {
				return werr
			}
			p = p[i+1:]
			n--
		}
		if n == 0 && len(p) > 0 {
			// Give back what was read past the last line, as GNU head
			// does on seekable input, so that a later reader of the
			// same stream (a shared stdin) continues right after it.
			if s, ok := r.(io.Seeker); ok {
				s.Seek(-int64(len(p)), io.SeekCurrent)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func elideBytes(ctx context.Context, r io.Reader, w *bufio.Writer, n uint64) error {
	var pending []byte
	return textio.EachChunk(ctx, r, func(chunk []byte) error {
		pending = append(pending, chunk...)
		if uint64(len(pending)) > n {
			out := uint64(len(pending)) - n
			if err := textio.Write(w, pending[:out]); err != nil {
				return err
			}
			pending = append(pending[:0], pending[out:]...)
		}
		return nil
	})
}

func elideLines(ctx context.Context, r io.Reader, w *bufio.Writer, n uint64, delim byte) error {
	var pending []byte
	var count uint64 // delimiters in pending
	err := textio.EachChunk(ctx, r, func(chunk []byte) error {
		count += uint64(bytes.Count(chunk, []byte{delim}))
		pending = append(pending, chunk...)
		if count > n && len(pending) > 4*textio.BufSize {
			// Emit every line before the last n complete lines.
			pos := textio.AfterNth(pending, count-n, delim)
			if err := textio.Write(w, pending[:pos]); err != nil {
				return err
			}
			pending = append(pending[:0], pending[pos:]...)
			count = n
		}
		return nil
	})
	if err != nil {
		return err
	}
	lines := count
	if len(pending) > 0 && pending[len(pending)-1] != delim {
		lines++
	}
	if lines <= n {
		return nil
	}
	pos := textio.AfterNth(pending, lines-n, delim)
	return textio.Write(w, pending[:pos])
}
