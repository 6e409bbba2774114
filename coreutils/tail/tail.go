// Package tail implements tail: output the last part of files.
//
// -f/--follow and -F are accepted and validated, but a sandbox command runs
// once and cannot wait for a file to grow: tail prints what the files hold
// and exits as it would without -f (with "no files remaining" when no file
// could be opened). Following a pipe is ignored by GNU tail as well.
package tail

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
                             an absent option argument means 'descriptor'
  -F                       same as --follow=name --retry
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to skip NUM-1 lines at the start
      --max-unchanged-stats=N
                           with --follow=name, reopen a FILE which has not
                             changed size after N (default 5) iterations
                             to see if it has been unlinked or renamed
                             (this is the usual case of rotated log files);
                             with inotify, this option is rarely useful
      --pid=PID            with -f, terminate after process ID, PID dies
  -q, --quiet, --silent    never output headers giving file names
      --retry              keep trying to open a file if it is inaccessible
  -s, --sleep-interval=N   with -f, sleep for approximately N seconds
                             (default 1.0) between iterations;
                             with inotify and --pid=P, check process P at
                             least once every N seconds
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

In this sandbox, -f and -F print the current contents and exit: there is
no process to wait on and nothing to follow.
`

const suffixes = "bkKmMGTPEZY0"

var options = []builtins.Option{
	{Short: 'c', Long: "bytes", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "follow", Arg: builtins.OptionalArg},
	{Short: 'n', Long: "lines", Arg: builtins.RequiredArg},
	{Long: "max-unchanged-stats", Arg: builtins.RequiredArg},
	{Long: "pid", Arg: builtins.RequiredArg},
	{Long: "presume-input-pipe"},
	{Short: 'q', Long: "quiet"},
	{Long: "retry"},
	{Long: "silent"},
	{Short: 's', Long: "sleep-interval", Arg: builtins.RequiredArg},
	{Short: 'v', Long: "verbose"},
	{Short: 'z', Long: "zero-terminated"},
	{Short: 'F'},
}

type config struct {
	lines     bool
	fromStart bool
	count     uint64
	delim     byte
	header    int // 0 when several files, 1 never, 2 always
	follow    bool
}

// Run is the tail command.
func Run(ctx context.Context, c *builtins.Call) int {
	cfg := config{lines: true, count: 10, delim: '\n'}
	if sub, ok, code := obsolete(c, &cfg); code >= 0 {
		return code
	} else if ok {
		c = sub
	}
	opts, files, code, done := textio.Parse(c, options, help, 1)
	if done {
		return code
	}
	for _, o := range opts {
		switch o.Key {
		case "bytes", "lines":
			v := o.Value
			cfg.lines = o.Key == "lines"
			cfg.fromStart = false
			if strings.HasPrefix(v, "+") {
				cfg.fromStart = true
				v = v[1:]
			} else if strings.HasPrefix(v, "-") {
				v = v[1:]
			}
			n, ok := textio.ParseCount(c, v, suffixes, cfg.lines)
			if !ok {
				return 1
			}
			cfg.count = n
		case "follow":
			if o.Has {
				if _, ok := argmatch.Get(c, o.Value, "--follow", argmatch.Words([]string{"descriptor", "name"}...), 1); !ok {
					return 1
				}
			}
			cfg.follow = true
		case "F":
			cfg.follow = true
		case "max-unchanged-stats":
			if _, e := textio.ParseUint(o.Value, ""); e != textio.NumOK {
				c.Errorf("invalid maximum number of unchanged stats between opens: %s", quote.New(c).Q(o.Value))
				return 1
			}
		case "pid":
			if n, err := strconv.ParseInt(strings.TrimSpace(o.Value), 10, 32); err != nil || n < 0 {
				c.Errorf("invalid PID: %s", quote.New(c).Q(o.Value))
				return 1
			}
		case "sleep-interval":
			if f, err := strconv.ParseFloat(strings.TrimSpace(o.Value), 64); err != nil || f < 0 {
				c.Errorf("invalid number of seconds: %s", quote.New(c).Q(o.Value))
				return 1
			}
		case "quiet", "silent":
			cfg.header = 1
		case "verbose":
			cfg.header = 2
		case "zero-terminated":
			cfg.delim = 0
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	headers := cfg.header == 2 || (cfg.header == 0 && len(files) > 1)
	w := textio.NewWriter(c.Stdout)
	opened, status, stop := textio.EachHeaded(ctx, c, w, files, headers, func(r io.Reader, _ bool) error {
		return tail(ctx, r, w, &cfg)
	})
	if stop {
		return status
	}
	if cfg.follow && opened == 0 {
		c.Errorf("no files remaining")
	}
	return textio.Finish(c, w, status)
}

// obsolete handles tail's historical forms "-N[bcl][f]" and "+N[bcl][f]"
// given as the only option, with at most one file operand. code is >= 0
// when tail must exit.
func obsolete(c *builtins.Call, cfg *config) (*builtins.Call, bool, int) {
	args := c.Args
	if !(len(args) == 2 || (len(args) == 3 && !(len(args[2]) > 1 && args[2][0] == '-'))) {
		return nil, false, -1
	}
	a := args[1]
	if a == "" {
		return nil, false, -1
	}
	p := a[1:]
	fromStart := false
	switch a[0] {
	case '+':
		fromStart = true
	case '-':
		idx := 0
		if len(p) > 0 && p[0] == 'c' {
			idx = 1
		}
		if idx >= len(p) {
			return nil, false, -1
		}
	default:
		return nil, false, -1
	}
	i := 0
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
	}
	num := p[:i]
	rest := p[i:]
	lines := true
	mult := uint64(1)
	if rest != "" {
		switch rest[0] {
		case 'b':
			mult = 512
			lines = false
			rest = rest[1:]
		case 'c':
			lines = false
			rest = rest[1:]
		case 'l':
			rest = rest[1:]
		}
	}
	follow := false
	if strings.HasPrefix(rest, "f") {
		follow = true
		rest = rest[1:]
	}
	if rest != "" {
		return nil, false, -1
	}
	count := uint64(10)
	if num != "" {
		n, e := textio.ParseUint(num, "")
		if e != textio.NumOK {
			c.Errorf("invalid number: %s: Value too large for defined data type", quote.New(c).Q(a))
			return nil, false, 1
		}
		count = n
	}
	if hi := count * mult; mult != 1 && hi/mult != count {
		count = ^uint64(0)
	} else {
		count = hi
	}
	cfg.lines, cfg.fromStart, cfg.count, cfg.follow = lines, fromStart, count, follow
	sub := *c
	sub.Args = append([]string{args[0]}, args[2:]...)
	return &sub, true, -1
}

func tail(ctx context.Context, r io.Reader, w *bufio.Writer, cfg *config) error {
	if cfg.fromStart {
		return fromStart(ctx, r, w, cfg)
	}
	if cfg.count == 0 {
		return nil
	}
	if s, ok := r.(io.ReadSeeker); ok {
		if st, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
			if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > textio.BufSize {
				return seekTail(ctx, s, fi.Size(), w, cfg)
			}
		}
	}
	return streamTail(ctx, r, w, cfg)
}

// fromStart skips count-1 lines or bytes and copies the rest.
func fromStart(ctx context.Context, r io.Reader, w *bufio.Writer, cfg *config) error {
	skip := cfg.count
	if skip > 0 {
		skip--
	}
	return copySkipping(ctx, r, w, cfg, skip)
}

// copySkipping copies r to w after skip lines or bytes.
func copySkipping(ctx context.Context, r io.Reader, w *bufio.Writer, cfg *config, skip uint64) error {
	return textio.EachChunk(ctx, r, func(p []byte) error {
		for skip > 0 && len(p) > 0 {
			if !cfg.lines {
				n := min(uint64(len(p)), skip)
				p = p[n:]
				skip -= n
				continue
			}
			i := bytes.IndexByte(p, cfg.delim)
			if i < 0 {
				return nil
			}
			p = p[i+1:]
			skip--
		}
		if len(p) > 0 {
			return textio.Write(w, p)
		}
		return nil
	})
}

// streamTail keeps the tail of the input in memory, dropping what can no
// longer be part of the output.
func streamTail(ctx context.Context, r io.Reader, w *bufio.Writer, cfg *config) error {
	var pending []byte
	var count uint64
	err := textio.EachChunk(ctx, r, func(chunk []byte) error {
		pending = append(pending, chunk...)
		if cfg.lines {
			count += uint64(bytes.Count(chunk, []byte{cfg.delim}))
			if count > cfg.count+1 && len(pending) > 4*textio.BufSize {
				pos := textio.AfterNth(pending, count-cfg.count-1, cfg.delim)
				pending = append(pending[:0], pending[pos:]...)
				count = cfg.count + 1
			}
		} else if uint64(len(pending)) > cfg.count && len(pending) > 4*textio.BufSize {
			drop := uint64(len(pending)) - cfg.count
			pending = append(pending[:0], pending[drop:]...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return textio.Write(w, lastPart(pending, cfg))
}

// lastPart returns the last count lines or bytes of p; an unterminated
// last line counts as a line.
func lastPart(p []byte, cfg *config) []byte {
	if !cfg.lines {
		if uint64(len(p)) > cfg.count {
			return p[uint64(len(p))-cfg.count:]
		}
		return p
	}
	n := cfg.count
	end := len(p)
	if end > 0 && p[end-1] == cfg.delim {
		end--
	}
	for i := end - 1; i >= 0; i-- {
		if p[i] == cfg.delim {
			n--
			if n == 0 {
				return p[i+1:]
			}
		}
	}
	return p
}

// seekTail reads a regular file backwards from its end.
func seekTail(ctx context.Context, s io.ReadSeeker, size int64, w *bufio.Writer, cfg *config) error {
	start := int64(0)
	if !cfg.lines {
		if uint64(size) > cfg.count {
			start = size - int64(cfg.count)
		}
	} else {
		n := cfg.count
		buf := make([]byte, 64<<10)
		pos := size
		last := true
		found := false
		for pos > 0 && !found {
			if err := ctx.Err(); err != nil {
				return err
			}
			chunk := int64(len(buf))
			if chunk > pos {
				chunk = pos
			}
			pos -= chunk
			if _, err := s.Seek(pos, io.SeekStart); err != nil {
				return streamFromStart(ctx, s, w, cfg)
			}
			p := buf[:chunk]
			if _, err := io.ReadFull(s, p); err != nil {
				return err
			}
			end := len(p)
			if last {
				last = false
				if end > 0 && p[end-1] == cfg.delim {
					end--
				}
			}
			for i := end - 1; i >= 0; i-- {
				if p[i] == cfg.delim {
					n--
					if n == 0 {
						start = pos + int64(i) + 1
						found = true
						break
					}
				}
			}
		}
	}
	if _, err := s.Seek(start, io.SeekStart); err != nil {
		return streamFromStart(ctx, s, w, cfg)
	}
	return copySkipping(ctx, s, w, cfg, 0)
}

func streamFromStart(ctx context.Context, s io.ReadSeeker, w *bufio.Writer, cfg *config) error {
	if _, err := s.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return streamTail(ctx, s, w, cfg)
}
