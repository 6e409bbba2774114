// Package strings implements GNU binutils strings (2.40): print the
// runs of printable characters in files. Files are always scanned whole,
// which is the default of this version.
package strings

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const usageText = `Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file, not just the data section [default]
  -d --data                 Only scan the data sections in the file
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -o                        An alias for --radix=o
  -T --target=<BFDNAME>     Specify the binary file format
  -e --encoding={s,S,b,l,B,L} Select character size and endianness:
                            s = 7-bit, S = 8-bit, {b,l} = 16-bit, {B,L} = 32-bit
  --unicode={default|show|invalid|hex|escape|highlight}
  -U {d|s|i|x|e|h}          Specify how to treat UTF-8 encoded unicode characters
  -s --output-separator=<string> String used to separate strings in output.
  @<file>                   Read options from <file>
  -h --help                 Display this information
  -v -V --version           Print the program's version number
`

const targetsText = "supported targets: elf64-x86-64 elf32-i386 elf32-iamcu elf32-x86-64 pei-i386 pe-x86-64 pei-x86-64 elf64-little elf64-big elf32-little elf32-big pe-bigobj-x86-64 pe-i386 pdb srec symbolsrec verilog tekhex binary ihex plugin"

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "all"},
	{Short: 'd', Long: "data"},
	{Short: 'f', Long: "print-file-name"},
	{Short: 'n', Long: "bytes", Arg: builtins.RequiredArg},
	{Short: 't', Long: "radix", Arg: builtins.RequiredArg},
	{Short: 'w', Long: "include-all-whitespace"},
	{Short: 'o'},
	{Short: 'T', Long: "target", Arg: builtins.RequiredArg},
	{Short: 'e', Long: "encoding", Arg: builtins.RequiredArg},
	{Short: 's', Long: "output-separator", Arg: builtins.RequiredArg},
	{Short: 'h', Long: "help"},
	{Short: 'v', Long: "version"},
	{Short: 'V'},
	{Short: '0'}, {Short: '1'}, {Short: '2'}, {Short: '3'}, {Short: '4'},
	{Short: '5'}, {Short: '6'}, {Short: '7'}, {Short: '8'}, {Short: '9'},
}}

type scanner struct {
	min       int
	radix     int // 0: no addresses
	fileNames bool
	allSpace  bool
	encoding  byte
	sep       *string
	out       *textfmt.Output
	buf       []byte
}

func usage(c *builtins.Call, w io.Writer, status int) int {
	fmt.Fprint(w, usageText)
	fmt.Fprintf(w, "%s: %s\n", c.Name(), targetsText)
	if status == 0 {
		fmt.Fprint(w, "Report bugs to <https://sourceware.org/bugzilla/>\n")
	}
	return status
}

// Run is the strings command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		return usage(c, c.Stderr, 1)
	}
	s := &scanner{min: 4, encoding: 's'}
	numArg := -1
	prevDigit := false
	for _, o := range opts {
		isDigit := len(o.Key) == 1 && o.Key[0] >= '0' && o.Key[0] <= '9'
		if isDigit {
			if !prevDigit || numArg < 0 {
				numArg = 0
			}
			numArg = numArg*10 + int(o.Key[0]-'0')
			s.min = numArg
			prevDigit = true
			continue
		}
		prevDigit = false
		switch o.Key {
		case "help":
			return usage(c, c.Stdout, 0)
		case "version", "V":
			return c.Version()
		case "all", "data", "target":
		case "print-file-name":
			s.fileNames = true
		case "bytes":
			v, ok := cStrtoul(o.Value)
			if !ok {
				c.Errorf("invalid integer argument %s", o.Value)
				return 1
			}
			s.min = int(int32(v))
		case "radix":
			if len(o.Value) != 1 {
				return usage(c, c.Stderr, 1)
			}
			switch o.Value[0] {
			case 'o':
				s.radix = 8
			case 'd':
				s.radix = 10
			case 'x':
				s.radix = 16
			default:
				return usage(c, c.Stderr, 1)
			}
		case "o":
			s.radix = 8
		case "include-all-whitespace":
			s.allSpace = true
		case "encoding":
			if len(o.Value) != 1 || !strings.ContainsRune("sSbBlL", rune(o.Value[0])) {
				return usage(c, c.Stderr, 1)
			}
			s.encoding = o.Value[0]
		case "output-separator":
			v := o.Value
			s.sep = &v
		}
	}
	if s.min < 1 {
		c.Errorf("invalid minimum string length %d", s.min)
		return 1
	}
	s.out = textfmt.NewOutput(c.Stdout)
	status := 0
	if len(files) == 0 {
		s.scan(ctx, c.Stdin, "{standard input}")
	}
	for _, name := range files {
		if s.out.Failed() || ctx.Err() != nil {
			break
		}
		fi, err := c.Stat(name)
		if err != nil {
			c.Errorf("'%s': No such file", name)
			status = 1
			continue
		}
		if fi.IsDir() {
			c.Errorf("Warning: '%s' is a directory", name)
			status = 1
			continue
		}
		f, err := c.Open(name)
		if err != nil {
			c.Errorf("%s: %s", name, builtins.ErrText(err))
			status = 1
			continue
		}
		s.scan(ctx, f, name)
		f.Close()
	}
	return s.out.End(ctx, c, status)
}

// cStrtoul parses like strtoul(s, &end, 0) requiring the whole string:
// a minus negates, as in C.
func cStrtoul(s string) (uint64, bool) {
	neg, r := textio.ScanSigned(s, 0, "")
	if r.Invalid || r.BadSuffix || r.Overflow {
		return 0, false
	}
	if neg {
		return -r.Value, true
	}
	return r.Value, true
}

// byteSource reads bytes with a small pushback stack.
type byteSource struct {
	r    io.ByteReader
	back []byte
	addr int64
}

func (b *byteSource) next() (byte, bool) {
	if n := len(b.back); n > 0 {
		c := b.back[n-1]
		b.back = b.back[:n-1]
		b.addr++
		return c, true
	}
	c, err := b.r.ReadByte()
	if err != nil {
		return 0, false
	}
	b.addr++
	return c, true
}

// charSize is the size in bytes of a character of the encoding (-e).
func (s *scanner) charSize() int {
	switch s.encoding {
	case 'b', 'l':
		return 2
	case 'B', 'L':
		return 4
	}
	return 1
}

// char reads one character of the encoding; ok is false at the end.
func (s *scanner) char(src *byteSource, raw *[4]byte) (int64, bool) {
	n := s.charSize()
	for i := 0; i < n; i++ {
		c, ok := src.next()
		if !ok {
			return 0, false
		}
		raw[i] = c
	}
	switch s.encoding {
	case 'b':
		return int64(raw[0])<<8 | int64(raw[1]), true
	case 'l':
		return int64(raw[1])<<8 | int64(raw[0]), true
	case 'B':
		return int64(raw[0])<<24 | int64(raw[1])<<16 | int64(raw[2])<<8 | int64(raw[3]), true
	case 'L':
		return int64(raw[3])<<24 | int64(raw[2])<<16 | int64(raw[1])<<8 | int64(raw[0]), true
	}
	return int64(raw[0]), true
}

// unget pushes back all but the first byte of a multi-byte character.
func (s *scanner) unget(src *byteSource, raw *[4]byte) {
	n := s.charSize()
	for i := n - 1; i >= 1; i-- {
		src.back = append(src.back, raw[i])
		src.addr--
	}
}

func (s *scanner) graphic(c int64) bool {
	if c < 0 || c > 255 {
		return false
	}
	switch {
	case c == '\t' || c >= 0x20 && c < 0x7f:
		return true
	case s.encoding == 'S' && c > 127:
		return true
	case s.allSpace && (c == '\n' || c == '\v' || c == '\f' || c == '\r'):
		return true
	}
	return false
}

func (s *scanner) scan(ctx context.Context, r io.Reader, name string) {
	src := &byteSource{r: textfmt.NewReader(r)}
	var raw [4]byte
	var tick textfmt.Tick
	for {
	tryline:
		if tick.Stop(ctx) || s.out.Failed() {
			return
		}
		start := src.addr
		s.buf = s.buf[:0]
		for i := 0; i < s.min; i++ {
			c, ok := s.char(src, &raw)
			if !ok {
				return
			}
			if !s.graphic(c) {
				s.unget(src, &raw)
				goto tryline
			}
			s.buf = append(s.buf, byte(c))
		}
		if s.fileNames {
			s.out.WriteString(name)
			s.out.WriteString(": ")
		}
		if s.radix != 0 {
			a := strconv.FormatInt(start, s.radix)
			for i := len(a); i < 7; i++ {
				s.out.WriteByte(' ')
			}
			s.out.WriteString(a)
			s.out.WriteByte(' ')
		}
		s.out.Write(s.buf)
		for {
			c, ok := s.char(src, &raw)
			if !ok {
				break
			}
			if !s.graphic(c) {
				s.unget(src, &raw)
				break
			}
			s.out.WriteByte(byte(c))
		}
		if s.sep != nil {
			s.out.WriteString(*s.sep)
		} else {
			s.out.WriteByte('\n')
		}
	}
}
