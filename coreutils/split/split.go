// Package split implements GNU split: split a file into pieces.
package split

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const helpText = `Usage: split [OPTION]... [FILE [PREFIX]]
Output pieces of FILE to PREFIXaa, PREFIXab, ...;
default size is 1000 lines, and default PREFIX is 'x'.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --suffix-length=N   generate suffixes of length N (default 2)
      --additional-suffix=SUFFIX  append an additional SUFFIX to file names
  -b, --bytes=SIZE        put SIZE bytes per output file
  -C, --line-bytes=SIZE   put at most SIZE bytes of records per output file
  -d                      use numeric suffixes starting at 0, not alphabetic
      --numeric-suffixes[=FROM]  same as -d, but allow setting the start value
  -x                      use hex suffixes starting at 0, not alphabetic
      --hex-suffixes[=FROM]  same as -x, but allow setting the start value
  -e, --elide-empty-files  do not generate empty output files with '-n'
      --filter=COMMAND    write to shell COMMAND; file name is $FILE
  -l, --lines=NUMBER      put NUMBER lines/records per output file
  -n, --number=CHUNKS     generate CHUNKS output files; see explanation below
  -t, --separator=SEP     use SEP instead of newline as the record separator;
                            '\0' (zero) specifies the NUL character
  -u, --unbuffered        immediately copy input to output with '-n r/...'
      --verbose           print a diagnostic just before each
                            output file is opened
      --help        display this help and exit
      --version     output version information and exit

The SIZE argument is an integer and optional unit (example: 10K is 10*1024).
Units are K,M,G,T,P,E,Z,Y (powers of 1024) or KB,MB,... (powers of 1000).
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

CHUNKS may be:
  N       split into N files based on size of input
  K/N     output Kth of N to stdout
  l/N     split into N files without splitting lines/records
  l/K/N   output Kth of N to stdout without splitting lines/records
  r/N     like 'l' but use round robin distribution
  r/K/N   likewise but only output Kth of N to stdout
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "suffix-length", Arg: builtins.RequiredArg},
	{Long: "additional-suffix", Arg: builtins.RequiredArg},
	{Short: 'b', Long: "bytes", Arg: builtins.RequiredArg},
	{Short: 'C', Long: "line-bytes", Arg: builtins.RequiredArg},
	{Short: 'd'},
	{Long: "numeric-suffixes", Arg: builtins.OptionalArg},
	{Short: 'x'},
	{Long: "hex-suffixes", Arg: builtins.OptionalArg},
	{Short: 'e', Long: "elide-empty-files"},
	{Long: "filter", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "lines", Arg: builtins.RequiredArg},
	{Short: 'n', Long: "number", Arg: builtins.RequiredArg},
	{Short: 't', Long: "separator", Arg: builtins.RequiredArg},
	{Short: 'u', Long: "unbuffered"},
	{Long: "verbose"},
	{Long: "help"},
	{Long: "version"},
}}

type mode int

const (
	byLines mode = iota
	byBytes
	byLineBytes
	chunkBytes
	chunkLines
	chunkRoundRobin
)

type splitter struct {
	c          *builtins.Call
	ctx        context.Context
	prefix     string
	addSuffix  string
	suffixLen  int
	suffixAuto bool
	alphabet   string
	start      uint64
	elide      bool
	verbose    bool
	filter     string
	sep        byte

	index     uint64 // files made so far
	cur       *bufio.Writer
	curFile   io.Closer
	curName   string
	filterBuf *bytes.Buffer
	stdout    *textfmt.Output
}

// Run is the split command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	q := quote.New(c)
	quote := q.Q
	s := &splitter{c: c, ctx: ctx, prefix: "x", suffixLen: 2, suffixAuto: true, alphabet: "abcdefghijklmnopqrstuvwxyz", sep: '\n'}
	m := byLines
	var size uint64 = 1000
	var chunkK, chunkN uint64
	ways := 0
	setMode := func(nm mode) bool {
		if ways > 0 && !(m == nm && (nm == byLines || nm == byBytes || nm == byLineBytes)) {
			c.Errorf("cannot split in more than one way")
			c.TryHelp(1)
			return false
		}
		ways++
		m = nm
		return true
	}
	for _, o := range opts {
		if st, done := textfmt.HelpVersion(c, o, helpText); done {
			return st
		}
		switch o.Key {
		case "suffix-length":
			v, msg, ok := textfmt.DecToUint(o.Value, 0, math.MaxInt32)
			if !ok {
				c.Errorf("invalid suffix length: %s%s", quote(o.Value), msg)
				return 1
			}
			if v > 0 {
				s.suffixLen = int(v)
				s.suffixAuto = false
			}
		case "additional-suffix":
			if strings.Contains(o.Value, "/") {
				c.Errorf("invalid suffix %s, contains directory separator", quote(o.Value))
				return c.TryHelp(1)
			}
			s.addSuffix = o.Value
		case "bytes", "line-bytes":
			// GNU reads the size with xstrtoimax: the shared
			// xstrtoumax reader, capped at the int64 maximum.
			v, e := textio.ParseUint(o.Value, "bEGKkMmPTYZ0")
			if e != textio.NumOK || v == 0 || v > math.MaxInt64 {
				msg := ""
				switch {
				case e == textio.NumOverflow || e == textio.NumOK && v > math.MaxInt64:
					msg = ": " + textfmt.ErrOverflowText
				case e == textio.NumOK:
					msg = ": " + textfmt.ErrRangeText
				}
				c.Errorf("invalid number of bytes: %s%s", quote(o.Value), msg)
				return 1
			}
			nm := byBytes
			if o.Key == "line-bytes" {
				nm = byLineBytes
			}
			if !setMode(nm) {
				return 1
			}
			size = v
		case "lines":
			v, msg, ok := textfmt.DecToUint(o.Value, 1, math.MaxInt64)
			if !ok {
				c.Errorf("invalid number of lines: %s%s", quote(o.Value), msg)
				return 1
			}
			if !setMode(byLines) {
				return 1
			}
			size = v
		case "number":
			nm, k, n, status := parseChunks(c, o.Value)
			if status != 0 {
				return status
			}
			if !setMode(nm) {
				return 1
			}
			chunkK, chunkN = k, n
		case "d", "x", "numeric-suffixes", "hex-suffixes":
			if o.Key == "d" || o.Key == "numeric-suffixes" {
				s.alphabet = "0123456789"
			} else {
				s.alphabet = "0123456789abcdef"
			}
			if o.Has && o.Value != "" {
				base := 10
				if len(s.alphabet) == 16 {
					base = 16
				}
				v, err := strconv.ParseUint(o.Value, base, 64)
				if err != nil || strings.HasPrefix(o.Value, "+") {
					kind := "numerical"
					if base == 16 {
						kind = "hex"
					}
					c.Errorf("%s: invalid start value for %s suffix", quote(o.Value), kind)
					return c.TryHelp(1)
				}
				s.start = v
				s.suffixAuto = false
			}
		case "elide-empty-files":
			s.elide = true
		case "filter":
			s.filter = o.Value
		case "separator":
			v := o.Value
			switch {
			case v == "":
				c.Errorf("empty record separator")
				return 1
			case v == `\0`:
				s.sep = 0
			case len(v) > 1:
				c.Errorf("multi-character separator %s", quote(v))
				return 1
			default:
				s.sep = v[0]
			}
		case "unbuffered":
		case "verbose":
			s.verbose = true
		}
	}
	if len(operands) > 2 {
		c.Errorf("extra operand %s", quote(operands[2]))
		return c.TryHelp(1)
	}
	input := "-"
	if len(operands) >= 1 {
		input = operands[0]
	}
	if len(operands) == 2 {
		s.prefix = operands[1]
	}

	// Suffix length for -n: enough for N files.
	if m == chunkBytes || m == chunkLines || m == chunkRoundRobin {
		need := 1
		for max := uint64(len(s.alphabet)); max < chunkN+s.start; max *= uint64(len(s.alphabet)) {
			need++
			if max > math.MaxUint64/64 {
				break
			}
		}
		if s.suffixAuto {
			if need > s.suffixLen {
				s.suffixLen = need
			}
			s.suffixAuto = false
		} else if need > s.suffixLen {
			c.Errorf("the suffix length needs to be at least %d", need)
			return 1
		}
	}

	r, err := textio.Open(c, input)
	if err != nil {
		c.Errorf("cannot open %s for reading: %s", q.AF(input), builtins.ErrText(err))
		return 1
	}
	defer r.Close()
	s.stdout = textfmt.NewOutput(c.Stdout)
	var status int
	switch m {
	case byLines:
		status = s.lines(r, size)
	case byBytes:
		status = s.bytes(r, size)
	case byLineBytes:
		status = s.lineBytes(r, size)
	default:
		data, err := io.ReadAll(r)
		if err != nil {
			c.FileError(input, err, 1)
			return 1
		}
		status = s.chunks(m, data, chunkK, chunkN)
	}
	if st := s.closeFile(); status == 0 {
		status = st
	}
	return s.stdout.Finish(c, status)
}

func parseChunks(c *builtins.Call, v string) (mode, uint64, uint64, int) {
	q := quote.New(c)
	quote := q.Q
	m := chunkBytes
	rest := v
	switch {
	case strings.HasPrefix(v, "l/"):
		m, rest = chunkLines, v[2:]
	case strings.HasPrefix(v, "r/"):
		m, rest = chunkRoundRobin, v[2:]
	}
	kStr, nStr, hasK := strings.Cut(rest, "/")
	if !hasK {
		nStr, kStr = kStr, ""
	}
	n, msg, ok := textfmt.DecToUint(nStr, 1, math.MaxInt64)
	if !ok {
		c.Errorf("invalid number of chunks: %s%s", quote(nStr), msg)
		return 0, 0, 0, 1
	}
	var k uint64
	if hasK {
		kv, msg, ok := textfmt.DecToUint(kStr, 1, n)
		if !ok {
			c.Errorf("invalid chunk number: %s%s", quote(kStr), msg)
			return 0, 0, 0, 1
		}
		k = kv
	}
	return m, k, n, 0
}

// name returns the name of file number i, or false when the suffixes are
// exhausted.
func (s *splitter) name(i uint64) (string, bool) {
	base := uint64(len(s.alphabet))
	i += s.start
	width := s.suffixLen
	var lead strings.Builder
	if s.suffixAuto {
		// Suffixes widen by two: the first digit runs up to the next to
		// last symbol, then the last symbol becomes a fixed lead.
		for {
			count := base - 1
			for k := 1; k < width; k++ {
				count *= base
			}
			if i < count {
				break
			}
			i -= count
			lead.WriteByte(s.alphabet[base-1])
			width++
		}
	} else {
		max := uint64(1)
		for k := 0; k < width; k++ {
			if max > math.MaxUint64/base {
				max = math.MaxUint64
				break
			}
			max *= base
		}
		if i >= max {
			return "", false
		}
	}
	suf := make([]byte, width)
	for k := width - 1; k >= 0; k-- {
		suf[k] = s.alphabet[i%base]
		i /= base
	}
	return s.prefix + lead.String() + string(suf) + s.addSuffix, true
}

// newFile closes the current output and opens the next one.
func (s *splitter) newFile() int {
	if st := s.closeFile(); st != 0 {
		return st
	}
	name, ok := s.name(s.index)
	if !ok {
		s.c.Errorf("output file suffixes exhausted")
		return 1
	}
	s.index++
	if s.verbose {
		fmt.Fprintf(s.stdout, "creating file %s\n", quote.New(s.c).AF(name))
	}
	s.curName = name
	if s.filter != "" {
		s.filterBuf = &bytes.Buffer{}
		s.cur = bufio.NewWriterSize(s.filterBuf, textfmt.BufSize)
		return 0
	}
	f, err := s.c.Create(name)
	if err != nil {
		s.c.FileError(name, err, 1)
		return 1
	}
	s.cur = bufio.NewWriterSize(f, textfmt.BufSize)
	s.curFile = f
	return 0
}

func (s *splitter) closeFile() int {
	if s.cur == nil {
		return 0
	}
	err := s.cur.Flush()
	s.cur = nil
	if s.filter != "" {
		sub := s.c.Sub([]string{"sh", "-c", s.filter})
		sub.Env = append(append([]string{}, s.c.Env...), "FILE="+s.curName)
		sub.Stdin = bytes.NewReader(s.filterBuf.Bytes())
		s.stdout.Flush()
		if st := s.c.Exec(s.ctx, sub); st != 0 {
			s.c.Errorf("with FILE=%s, exit %d from command: %s", s.curName, st, s.filter)
			return st
		}
		return 0
	}
	if cerr := s.curFile.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.c.FileError(s.curName, err, 1)
		return 1
	}
	return 0
}

func (s *splitter) write(p []byte) int {
	if _, err := s.cur.Write(p); err != nil {
		s.c.FileError(s.curName, err, 1)
		return 1
	}
	return 0
}

func (s *splitter) lines(r io.Reader, n uint64) int {
	br := textfmt.NewReader(r)
	var count uint64
	for {
		if s.ctx.Err() != nil { // each chunk: up to 64 KiB of writing
			return 1
		}
		chunk, err := br.ReadSlice(s.sep)
		if len(chunk) > 0 {
			if s.cur == nil || count == n {
				if st := s.newFile(); st != 0 {
					return st
				}
				count = 0
			}
			if st := s.write(chunk); st != 0 {
				return st
			}
			if chunk[len(chunk)-1] == s.sep {
				count++
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err != io.EOF {
				s.c.FileError("-", err, 1)
				return 1
			}
			return 0
		}
	}
}

func (s *splitter) bytes(r io.Reader, n uint64) int {
	buf := make([]byte, textfmt.BufSize)
	var left uint64
	for {
		if s.ctx.Err() != nil { // each chunk: up to 64 KiB of writing
			return 1
		}
		k, err := r.Read(buf)
		p := buf[:k]
		for len(p) > 0 {
			if s.cur == nil || left == 0 {
				if st := s.newFile(); st != 0 {
					return st
				}
				left = n
			}
			w := uint64(len(p))
			if w > left {
				w = left
			}
			if st := s.write(p[:w]); st != 0 {
				return st
			}
			p = p[w:]
			left -= w
		}
		if err != nil {
			if err != io.EOF {
				s.c.FileError("-", err, 1)
				return 1
			}
			return 0
		}
	}
}

func (s *splitter) lineBytes(r io.Reader, n uint64) int {
	br := textfmt.NewReader(r)
	var cur uint64
	var line []byte
	for {
		if s.ctx.Err() != nil { // each chunk: up to 64 KiB of writing
			return 1
		}
		chunk, err := br.ReadSlice(s.sep)
		if err == bufio.ErrBufferFull {
			line = append(line, chunk...)
			continue
		}
		if len(line) > 0 {
			line = append(line, chunk...)
			chunk = line
			line = line[:0]
		}
		for len(chunk) > 0 {
			if s.cur != nil && cur+uint64(len(chunk)) <= n {
				if st := s.write(chunk); st != 0 {
					return st
				}
				cur += uint64(len(chunk))
				break
			}
			if s.cur != nil && cur > 0 {
				if st := s.newFile(); st != 0 {
					return st
				}
				cur = 0
				continue
			}
			if s.cur == nil {
				if st := s.newFile(); st != 0 {
					return st
				}
				cur = 0
				continue
			}
			// An empty file and a record longer than the limit.
			if st := s.write(chunk[:n]); st != 0 {
				return st
			}
			chunk = chunk[n:]
			cur = n
		}
		if err != nil {
			if err != io.EOF {
				s.c.FileError("-", err, 1)
				return 1
			}
			return 0
		}
	}
}

// chunks implements -n: the whole input is in data.
func (s *splitter) chunks(m mode, data []byte, k, n uint64) int {
	size := uint64(len(data))
	var parts [][]byte
	switch m {
	case chunkBytes:
		cs := max(size/n, 1)
		for i := uint64(1); i <= n; i++ {
			start := min((i-1)*cs, size)
			end := min(i*cs, size)
			if i == n {
				end = size
			}
			parts = append(parts, data[start:end])
		}
	case chunkLines:
		cs := max(size/n, 1)
		var pos uint64
		for i := uint64(1); i <= n; i++ {
			end := i*cs - 1
			if i == n {
				end = size - 1
			}
			if size == 0 || pos > end || pos >= size {
				parts = append(parts, nil)
				continue
			}
			from := end
			if from < pos {
				from = pos
			}
			j := bytes.IndexByte(data[from:], s.sep)
			b := size
			if j >= 0 {
				b = from + uint64(j) + 1
			}
			parts = append(parts, data[pos:b])
			pos = b
		}
	case chunkRoundRobin:
		bufs := make([][]byte, n)
		var i uint64
		for len(data) > 0 {
			j := bytes.IndexByte(data, s.sep)
			var rec []byte
			if j < 0 {
				rec, data = data, nil
			} else {
				rec, data = data[:j+1], data[j+1:]
			}
			if k == 0 || i%n == k-1 {
				bufs[i%n] = append(bufs[i%n], rec...)
			}
			i++
		}
		parts = bufs
	}
	if k > 0 {
		s.stdout.Write(parts[k-1])
		return 0
	}
	for _, p := range parts {
		if s.elide && len(p) == 0 {
			continue
		}
		if st := s.newFile(); st != 0 {
			return st
		}
		if st := s.write(p); st != 0 {
			return st
		}
	}
	return 0
}
