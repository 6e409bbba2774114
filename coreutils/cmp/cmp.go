// Package cmp implements GNU cmp (diffutils 3.8): compare two files byte
// by byte.
package cmp

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: cmp [OPTION]... FILE1 [FILE2 [SKIP1 [SKIP2]]]
Compare two files byte by byte.

The optional SKIP1 and SKIP2 specify the number of bytes to skip
at the beginning of each file (zero by default).

Mandatory arguments to long options are mandatory for short options too.
  -b, --print-bytes          print differing bytes
  -i, --ignore-initial=SKIP         skip first SKIP bytes of both inputs
  -i, --ignore-initial=SKIP1:SKIP2  skip first SKIP1 bytes of FILE1 and
                                      first SKIP2 bytes of FILE2
  -l, --verbose              output byte numbers and differing byte values
  -n, --bytes=LIMIT          compare at most LIMIT bytes
  -s, --quiet, --silent      suppress all normal output
      --help                 display this help and exit
  -v, --version              output version information and exit

SKIP values may be followed by the following multiplicative suffixes:
kB 1000, K 1024, MB 1,000,000, M 1,048,576,
GB 1,000,000,000, G 1,073,741,824, and so on for T, P, E, Z, Y.

If a FILE is '-' or missing, read standard input.
Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.

Report bugs to: bug-diffutils@gnu.org
GNU diffutils home page: <https://www.gnu.org/software/diffutils/>
General help using GNU software: <https://www.gnu.org/gethelp/>
`

// options is GNU cmp's long option table, in its order.
var options = []builtins.Option{
	{Short: 'b', Long: "print-bytes"},
	{Short: 'c', Long: "print-chars"},
	{Short: 'i', Long: "ignore-initial", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "verbose"},
	{Short: 'n', Long: "bytes", Arg: builtins.RequiredArg},
	{Long: "silent"},
	{Short: 's', Long: "quiet"},
	{Short: 'v', Long: "version"},
	{Long: "help"},
}

type mode int

const (
	firstDiff mode = iota
	allDiffs
	statusOnly
)

type cmper struct {
	c          *builtins.Call
	ctx        context.Context
	out        *bufio.Writer
	mode       mode
	modeSet    bool
	printBytes bool
	ignore     [2]int64
	limit      int64 // -1: no limit
	names      [2]string
	readers    [2]io.Reader
	sizes      [2]int64 // -1 when not a regular file
}

// Run is the cmp command.
func Run(ctx context.Context, c *builtins.Call) int {
	// Standard output is buffered like stdio's (one 4096-byte block), so
	// that the EOF message on standard error comes where GNU's does.
	m := &cmper{c: c, ctx: ctx, out: bufio.NewWriterSize(c.Stdout, 4096), limit: -1}
	status := m.run()
	if err := m.out.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		c.Errorf("write failed")
		return 2
	}
	return status
}

func (m *cmper) tryHelp(format string, args ...any) int {
	if format != "" {
		m.c.Errorf(format, args...)
	}
	m.c.TryHelpNamed(0)
	return 2
}

func (m *cmper) run() int {
	c := m.c
	set := builtins.Options{List: options}
	args := c.Args[1:]
	opts, operands, err := set.Parse(args)
	if err != nil {
		return m.tryHelp("%s", err.Error())
	}
	for _, o := range opts {
		switch o.Key {
		case "print-bytes", "print-chars":
			m.printBytes = true
		case "ignore-initial":
			v, rest, ok := parseSize(o.Value, ':')
			if !ok {
				return m.tryHelp("invalid --ignore-initial value '%s'", o.Value)
			}
			m.ignore[0] = max(m.ignore[0], v)
			if strings.HasPrefix(rest, ":") {
				arg := rest[1:]
				v2, _, ok := parseSize(arg, 0)
				if !ok {
					return m.tryHelp("invalid --ignore-initial value '%s'", arg)
				}
				m.ignore[1] = max(m.ignore[1], v2)
			} else if m.ignore[1] < m.ignore[0] {
				m.ignore[1] = m.ignore[0]
			}
		case "verbose":
			if m.modeSet && m.mode != allDiffs {
				return m.tryHelp("options -l and -s are incompatible")
			}
			m.mode, m.modeSet = allDiffs, true
		case "bytes":
			v, _, ok := parseSize(o.Value, 0)
			if !ok || v < 0 {
				return m.tryHelp("invalid --bytes value '%s'", o.Value)
			}
			if !(m.limit >= 0 && m.limit < v) {
				m.limit = v
			}
		case "silent", "quiet":
			if m.modeSet && m.mode != statusOnly {
				return m.tryHelp("options -l and -s are incompatible")
			}
			m.mode, m.modeSet = statusOnly, true
		case "version":
			return c.Version()
		case "help":
			io.WriteString(m.out, help)
			return 0
		}
	}
	if len(operands) == 0 {
		last := c.Name()
		if len(args) > 0 {
			last = args[len(args)-1]
		}
		return m.tryHelp("missing operand after '%s'", last)
	}
	m.names[0] = operands[0]
	m.names[1] = "-"
	rest := operands[1:]
	if len(rest) > 0 {
		m.names[1] = rest[0]
		rest = rest[1:]
	}
	for f := 0; f < 2 && len(rest) > 0; f++ {
		v, _, ok := parseSize(rest[0], 0)
		if !ok {
			return m.tryHelp("invalid --ignore-initial value '%s'", rest[0])
		}
		m.ignore[f] = max(m.ignore[f], v)
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return m.tryHelp("extra operand '%s'", rest[0])
	}

	for f := 0; f < 2; f++ {
		if f == 1 && m.ignore[0] == m.ignore[1] && m.names[0] == m.names[1] {
			if r, ok := m.readers[0].(io.Closer); ok {
				r.Close()
			}
			return 0
		}
		m.sizes[f] = -1
		if m.names[f] == "-" {
			m.readers[f] = textio.Stdin(c)
			continue
		}
		fl, err := c.Open(m.names[f])
		if err == nil {
			if fi, serr := fl.Stat(); serr == nil {
				if fi.IsDir() {
					fl.Close()
					m.readers[f] = errReader{&fs.PathError{Op: "read", Path: m.names[f], Err: errIsDir}}
					continue
				} else if fi.Mode().IsRegular() {
					m.sizes[f] = fi.Size()
				}
			}
		}
		if err != nil {
			if m.mode != statusOnly {
				c.FileError(m.names[f], err, 2)
			}
			m.closeAll()
			return 2
		}
		m.readers[f] = fl
	}
	defer m.closeAll()
	return m.compare()
}

type isDirError struct{}

func (isDirError) Error() string { return "is a directory" }

var errIsDir = isDirError{}

// errReader fails every read, as reading a directory does.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func (m *cmper) closeAll() {
	for _, r := range m.readers {
		if cl, ok := r.(io.Closer); ok && r != m.c.Stdin {
			cl.Close()
		}
	}
}

// parseSize parses a number as gnulib's xstrtoimax with base 0 and the
// suffixes "kKMGTPEZY0" does. When delim is not 0, the number may be
// followed by delim; rest is what follows the number.
func parseSize(s string, delim byte) (int64, string, bool) {
	// Of the negative numbers only -0 passes.
	neg, r := textio.ScanSigned(s, 0, "kKMGTPEZY0")
	switch {
	case r.Invalid:
		return 0, s, false
	case neg && r.Value != 0,
		r.BadSuffix && (delim == 0 || !strings.HasPrefix(r.Rest, string(delim))),
		r.Overflow || r.Value > math.MaxInt64:
		return 0, r.Rest, false
	}
	return int64(r.Value), r.Rest, true
}

// byteWord is "byte" outside the C locale, "char" in it, as GNU cmp says.
func (m *cmper) byteWord() string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v, ok := m.c.LookupEnv(k); ok && v != "" {
			if v == "C" || v == "POSIX" {
				return "char"
			}
			return "byte"
		}
	}
	return "char"
}

// skip discards the first n bytes of r.
func skip(r io.Reader, n int64) error {
	if n <= 0 {
		return nil
	}
	if s, ok := r.(io.Seeker); ok {
		if _, err := s.Seek(n, io.SeekCurrent); err == nil {
			return nil
		}
	}
	_, err := io.CopyN(io.Discard, r, n)
	if err == io.EOF {
		return nil
	}
	return err
}

const bufSize = 64 << 10

func (m *cmper) compare() int {
	c := m.c
	for f := 0; f < 2; f++ {
		if err := skip(m.readers[f], m.ignore[f]); err != nil {
			c.FileError(m.names[f], err, 2)
			return 2
		}
	}
	for f := 0; f < 2; f++ {
		if m.sizes[f] >= 0 {
			m.sizes[f] = max(0, m.sizes[f]-m.ignore[f])
		}
	}
	if m.mode == statusOnly && m.sizes[0] >= 0 && m.sizes[1] >= 0 && m.sizes[0] != m.sizes[1] &&
		(m.limit < 0 || min(m.sizes[0], m.sizes[1]) < m.limit) {
		return 1
	}
	offsetWidth := 1
	if m.mode == allDiffs {
		maxNum := int64(1<<63 - 1)
		if m.limit >= 0 {
			maxNum = m.limit
		}
		for f := 0; f < 2; f++ {
			if m.sizes[f] >= 0 && m.sizes[f] < maxNum {
				maxNum = m.sizes[f]
			}
		}
		for maxNum /= 10; maxNum != 0; maxNum /= 10 {
			offsetWidth++
		}
	}
	buf0 := make([]byte, bufSize)
	buf1 := make([]byte, bufSize)
	atLineStart := true
	line := int64(1)
	byteNum := int64(1)
	remaining := m.limit
	differing := 0
	for {
		if err := m.ctx.Err(); err != nil {
			return 2
		}
		toRead := int64(bufSize)
		if remaining >= 0 {
			toRead = min(toRead, remaining)
			remaining -= toRead
		}
		r0, err := io.ReadFull(m.readers[0], buf0[:toRead])
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			m.out.Flush()
			c.FileError(m.names[0], err, 2)
			return 2
		}
		r1, err := io.ReadFull(m.readers[1], buf1[:toRead])
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			m.out.Flush()
			c.FileError(m.names[1], err, 2)
			return 2
		}
		smaller := min(r0, r1)
		first := smaller
		for i := 0; i < smaller; i++ {
			if buf0[i] != buf1[i] {
				first = i
				break
			}
		}
		byteNum += int64(first)
		if m.mode == firstDiff && first != 0 {
			line += int64(bytes.Count(buf0[:first], []byte{'\n'}))
			atLineStart = buf0[first-1] == '\n'
		}
		if first < smaller {
			switch m.mode {
			case firstDiff:
				bn, ln := strconv.FormatInt(byteNum, 10), strconv.FormatInt(line, 10)
				if !m.printBytes {
					fmt.Fprintf(m.out, "%s %s differ: %s %s, line %s\n", m.names[0], m.names[1], m.byteWord(), bn, ln)
				} else {
					c0, c1 := buf0[first], buf1[first]
					fmt.Fprintf(m.out, "%s %s differ: byte %s, line %s is %3o %s %3o %s\n",
						m.names[0], m.names[1], bn, ln, c0, sprintc(c0), c1, sprintc(c1))
				}
				return 1
			case statusOnly:
				return 1
			case allDiffs:
				for ; first < smaller; first++ {
					c0, c1 := buf0[first], buf1[first]
					if c0 != c1 {
						bn := strconv.FormatInt(byteNum, 10)
						var err error
						if !m.printBytes {
							_, err = fmt.Fprintf(m.out, "%*s %3o %3o\n", offsetWidth, bn, c0, c1)
						} else {
							_, err = fmt.Fprintf(m.out, "%*s %3o %-4s %3o %s\n", offsetWidth, bn, c0, sprintc(c0), c1, sprintc(c1))
						}
						if err != nil {
							return m.writeFailed(err)
						}
					}
					byteNum++
				}
				differing = -1
			}
		}
		if r0 != r1 {
			if differing <= 0 && m.mode != statusOnly {
				shorter := m.names[0]
				if r1 < r0 {
					shorter = m.names[1]
				}
				switch {
				case byteNum == 1:
					fmt.Fprintf(c.Stderr, "cmp: EOF on %s which is empty\n", shorter)
				case m.mode == firstDiff:
					ln := line
					if atLineStart {
						ln--
						fmt.Fprintf(c.Stderr, "cmp: EOF on %s after byte %d, line %d\n", shorter, byteNum-1, ln)
					} else {
						fmt.Fprintf(c.Stderr, "cmp: EOF on %s after byte %d, in line %d\n", shorter, byteNum-1, ln)
					}
				default:
					fmt.Fprintf(c.Stderr, "cmp: EOF on %s after byte %d\n", shorter, byteNum-1)
				}
			}
			return 1
		}
		if differing > 0 || int64(r0) != int64(bufSize) {
			break
		}
		if toRead < bufSize {
			break
		}
	}
	if differing == 0 {
		return 0
	}
	return 1
}

// writeFailed ends cmp after a failed write: quietly on a broken pipe.
func (m *cmper) writeFailed(err error) int {
	if builtins.IsBrokenPipe(err) {
		return 141
	}
	m.c.Errorf("write failed")
	return 2
}

// sprintc shows a byte as cat -t does (^A, M-x, M-^?).
func sprintc(c byte) string {
	var b []byte
	if !(c >= 0x20 && c < 0x7f) {
		if c >= 128 {
			b = append(b, 'M', '-')
			c -= 128
		}
		if c < 32 {
			b = append(b, '^')
			c += 64
		} else if c == 127 {
			b = append(b, '^')
			c = '?'
		}
	}
	return string(append(b, c))
}
