// Package od implements GNU od: dump files in octal and other formats.
package od

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/internal/lazy"
)

const helpText = `Usage: od [OPTION]... [FILE]...
  or:  od [-abcdfilosx]... [FILE] [[+]OFFSET[.][b]]
  or:  od --traditional [OPTION]... [FILE] [[+]OFFSET[.][b] [+][LABEL][.][b]]

Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
      --endian={big|little}   swap input bytes according the specified order
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -S BYTES, --strings[=BYTES]  output strings of at least BYTES graphic chars;
                                3 is implied when BYTES is not specified
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified
      --traditional           accept arguments in third form above
      --help        display this help and exit
      --version     output version information and exit


Traditional format specifications may be intermixed; they accumulate:
  -a   same as -t a,  select named characters, ignoring high-order bit
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -f   same as -t fF, select floats
  -i   same as -t dI, select decimal ints
  -l   same as -t dL, select decimal longs
  -o   same as -t o2, select octal 2-byte units
  -s   same as -t d2, select decimal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units


TYPE is made up of one or more of these specifications:
  a          named character, ignoring high-order bit
  c          printable character or backslash escape
  d[SIZE]    signed decimal, SIZE bytes per integer
  f[SIZE]    floating point, SIZE bytes per float
  o[SIZE]    octal, SIZE bytes per integer
  u[SIZE]    unsigned decimal, SIZE bytes per integer
  x[SIZE]    hexadecimal, SIZE bytes per integer

SIZE is a number.  For TYPE in [doux], SIZE may also be C for
sizeof(char), S for sizeof(short), I for sizeof(int) or L for
sizeof(long).  If TYPE is f, SIZE may also be F for sizeof(float), D
for sizeof(double) or L for sizeof(long double).

Adding a z suffix to any type displays printable characters at the end
of each output line.


BYTES is hex with 0x or 0X prefix, and may have a multiplier suffix:
  b    512
  KB   1000
  K    1024
  MB   1000*1000
  M    1024*1024
and so on for G, T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'A', Long: "address-radix", Arg: builtins.RequiredArg},
	{Short: 'j', Long: "skip-bytes", Arg: builtins.RequiredArg},
	{Short: 'N', Long: "read-bytes", Arg: builtins.RequiredArg},
	{Short: 'S', Long: "strings", Arg: builtins.RequiredArg},
	{Short: 't', Long: "format", Arg: builtins.RequiredArg},
	{Short: 'v', Long: "output-duplicates"},
	{Short: 'w', Long: "width", Arg: builtins.OptionalArg},
	{Long: "endian", Arg: builtins.RequiredArg},
	{Long: "traditional"},
	{Long: "help"},
	{Long: "version"},
	{Short: 'a'}, {Short: 'b'}, {Short: 'c'}, {Short: 'd'}, {Short: 'f'},
	{Short: 'i'}, {Short: 'l'}, {Short: 'o'}, {Short: 's'}, {Short: 'x'},
}}

var traditional = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"a": "a", "b": "o1", "c": "c", "d": "u2", "f": "fF",
		"i": "dI", "l": "dL", "o": "o2", "s": "d2", "x": "x2",
	}
}}

type dumper struct {
	specs     []spec
	radix     byte // d o x n
	addrWidth int
	perLine   int
	lineWidth int
	order     binary.ByteOrder
	dupes     bool // -v
	out       *textfmt.Output
	line, tmp []byte
	first     bool
	in        *textfmt.Inputs
	prevEqual bool
}

var endianChoices = []argmatch.Choice{{Names: []string{"little"}, Value: 0}, {Names: []string{"big"}, Value: 1}}

// Run is the od command.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	// "--strings" has an optional argument, "-S" a required one.
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "--strings" || (strings.HasPrefix(a, "--st") && strings.HasPrefix("--strings", a) && !strings.Contains(a, "=")) {
			args = append(append(append([]string{}, args[:i]...), "--strings=3"), args[i+1:]...)
			break
		}
	}
	opts, files, err := options.Parse(args)
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	quote := func(s string) string { return textfmt.Quote(c, s) }
	d := &dumper{radix: 'o', order: binary.LittleEndian, first: true}
	var skip, limit uint64
	hasLimit := false
	width := 0
	hasWidth := false
	strMin := -1
	trad := false
	for _, o := range opts {
		if st, done := textfmt.HelpVersion(c, o, helpText); done {
			return st
		}
		switch o.Key {
		case "address-radix":
			if len(o.Value) != 1 || !strings.ContainsRune("doxn", rune(o.Value[0])) {
				c.Errorf("invalid output address radix '%s'; it must be one character from [doxn]", o.Value)
				return 1
			}
			d.radix = o.Value[0]
		case "skip-bytes", "read-bytes":
			opt := "-j"
			if o.Key == "read-bytes" {
				opt = "-N"
			}
			v, msg := parseSize(o.Value)
			if msg != "" {
				c.Errorf(msg, opt, o.Value)
				return 1
			}
			if o.Key == "skip-bytes" {
				skip = v
			} else {
				limit, hasLimit = v, true
			}
		case "strings":
			v, msg := parseSize(o.Value)
			if msg != "" {
				c.Errorf(msg, "-S", o.Value)
				return 1
			}
			if v > 1<<30 {
				c.Errorf("%s is too large", o.Value)
				return 1
			}
			strMin = int(v)
		case "format":
			sp, err := parseTypes(o.Value, quote)
			if err != nil {
				c.Errorf("%s", err.Error())
				return 1
			}
			d.specs = append(d.specs, sp...)
		case "output-duplicates":
			d.dupes = true
		case "width":
			hasWidth = true
			if !o.Has || o.Value == "" {
				width = 32
				break
			}
			v, msg := parseSize(o.Value)
			if msg != "" {
				c.Errorf(msg, "-w", o.Value)
				return 1
			}
			if v > 1<<20 {
				v = 1 << 20
			}
			width = int(v)
		case "endian":
			v, ok := argmatch.Get(c, o.Value, "--endian", endianChoices, 1)
			if !ok {
				return 1
			}
			d.order = binary.LittleEndian
			if v == 1 {
				d.order = binary.BigEndian
			}
		case "traditional":
			trad = true
		default:
			sp, _ := parseTypes(traditional.Get()[o.Key], quote)
			d.specs = append(d.specs, sp...)
		}
	}

	// Offset operands: "od [FILE] [[+]OFFSET[.][b]]".
	if n := len(files); n >= 1 && n <= 3 {
		if trad {
			switch n {
			case 1:
				if v, ok := parseOffset(files[0]); ok && strings.HasPrefix(files[0], "+") {
					skip, files = v, nil
				}
			case 2:
				if v, ok := parseOffset(files[1]); ok {
					skip, files = v, files[:1]
				}
			case 3:
				v1, ok1 := parseOffset(files[1])
				_, ok2 := parseOffset(files[2])
				if ok1 && ok2 {
					skip, files = v1, files[:1]
				}
			}
		} else {
			last := files[n-1]
			if n <= 2 && (strings.HasPrefix(last, "+") || (n == 2 && last != "" && last[0] >= '0' && last[0] <= '9')) {
				if v, ok := parseOffset(last); ok {
					skip, files = v, files[:n-1]
				}
			}
		}
	}
	switch d.radix {
	case 'd', 'o':
		d.addrWidth = 7
	case 'x':
		d.addrWidth = 6
	}

	in := textfmt.NewInputs(c, files)
	d.out = textfmt.NewOutput(c.Stdout)

	if strMin >= 0 {
		err := d.dumpStrings(ctx, c, in, skip, limit, hasLimit, strMin)
		in.Close()
		if err != nil {
			d.out.Flush()
			c.Errorf("%s", err.Error())
			return 1
		}
		return d.out.Finish(c, in.Status)
	}

	if len(d.specs) == 0 {
		d.specs, _ = parseTypes("o2", quote)
	}
	lcm := 1
	for _, sp := range d.specs {
		lcm = lcmInt(lcm, sp.size)
	}
	if hasWidth {
		if width == 0 || width%lcm != 0 {
			c.Errorf("warning: invalid width %d; using %d instead", width, lcm)
			width = lcm
		}
		d.perLine = width
	} else {
		if lcm < 16 {
			d.perLine = lcm * (16 / lcm)
		} else {
			d.perLine = lcm
		}
	}
	for i := range d.specs {
		fields := d.perLine / d.specs[i].size
		if w := (d.specs[i].width + 1) * fields; w > d.lineWidth {
			d.lineWidth = w
		}
	}
	for i := range d.specs {
		fields := d.perLine / d.specs[i].size
		d.specs[i].pad = d.lineWidth - d.specs[i].width*fields
	}

	d.in = in
	return in.Finish(ctx, d.out, d.dump(ctx, in, skip, limit, hasLimit))
}

var errSkip = errors.New("cannot skip past end of combined input")

func lcmInt(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// parseSize parses a byte count as xstrtoumax with base 0 and od's
// suffixes does. On failure it returns a format with two %s (option,
// value).
func parseSize(s string) (uint64, string) {
	r := textio.ScanUint(s, 0, "bEGKkMmPTYZ0")
	switch {
	case r.Invalid:
		return 0, "invalid %s argument '%s'"
	case r.BadSuffix:
		return 0, "invalid suffix in %s argument '%s'"
	case r.Overflow:
		return 0, "%s argument '%s' too large"
	}
	return r.Value, ""
}

// parseOffset parses an od offset operand as parse_old_offset does:
// [+]OFFSET[b|B], octal unless it has a 0x prefix; a '.' would select
// decimal but is then rejected as a bad suffix, as in GNU od.
func parseOffset(s string) (uint64, bool) {
	s = strings.TrimPrefix(s, "+")
	if s == "" || strings.Contains(s, ".") {
		return 0, false
	}
	base := 8
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		base, s = 16, s[2:]
	}
	mult := uint64(1)
	switch {
	case strings.HasSuffix(s, "b") && base != 16:
		mult, s = 512, s[:len(s)-1]
	case strings.HasSuffix(s, "B"):
		mult, s = 1024, s[:len(s)-1]
	}
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, base, 64)
	if err != nil || v > ^uint64(0)/mult {
		return 0, false
	}
	return v * mult, true
}

func (d *dumper) appendAddress(dst []byte, addr uint64) []byte {
	base := 8
	switch d.radix {
	case 'n':
		return dst
	case 'd':
		base = 10
	case 'x':
		base = 16
	}
	return appendZeroPadded(dst, addr, base, d.addrWidth)
}

// skipInput discards n bytes of the combined input.
func skipInput(r io.Reader, n uint64) error {
	if n == 0 {
		return nil
	}
	got, err := io.CopyN(io.Discard, r, int64(n))
	if uint64(got) < n {
		if err == nil || err == io.EOF {
			return errSkip
		}
		return err
	}
	return nil
}

// source skips skip bytes of in (the operands as one stream) and limits
// what follows to limit bytes with hasLimit (-j and -N). It is nil when
// the skip failed: with err, or without when no operand could be opened
// (that was reported already).
func source(in io.Reader, skip, limit uint64, hasLimit bool) (io.Reader, error) {
	r := textfmt.NewReader(in)
	if err := skipInput(r, skip); err != nil {
		if in.(*textfmt.Inputs).Opened == 0 {
			return nil, nil
		}
		return nil, err
	}
	if hasLimit {
		return io.LimitReader(r, int64(min(limit, 1<<62))), nil
	}
	return r, nil
}

func (d *dumper) dump(ctx context.Context, in io.Reader, skip, limit uint64, hasLimit bool) error {
	src, err := source(in, skip, limit, hasLimit)
	if src == nil {
		return err
	}
	cur := make([]byte, d.perLine)
	prev := make([]byte, d.perLine)
	addr := skip
	var tick textfmt.Tick
	for {
		if tick.Stop(ctx) || d.out.Failed() {
			return nil
		}
		n, err := io.ReadFull(src, cur)
		if n > 0 {
			for i := n; i < len(cur); i++ {
				cur[i] = 0
			}
			d.writeBlock(addr, n, prev, cur)
			addr += uint64(n)
			prev, cur = cur, prev
		}
		if err != nil {
			break
		}
	}
	if d.radix != 'n' && d.in.Opened > 0 {
		d.line = d.appendAddress(d.line[:0], addr)
		d.line = append(d.line, '\n')
		d.out.Write(d.line)
	}
	return nil
}

func (d *dumper) writeBlock(addr uint64, n int, prev, cur []byte) {
	if !d.dupes && !d.first && n == d.perLine && bytes.Equal(prev, cur) {
		if !d.prevEqual {
			d.out.WriteString("*\n")
			d.prevEqual = true
		}
		return
	}
	d.first = false
	d.prevEqual = false
	line := d.line[:0]
	for i := range d.specs {
		sp := &d.specs[i]
		if i == 0 {
			line = d.appendAddress(line, addr)
		} else {
			for k := 0; k < d.addrWidth && d.radix != 'n'; k++ {
				line = append(line, ' ')
			}
		}
		fields := d.perLine / sp.size
		blank := (d.perLine - n) / sp.size
		padRemaining := sp.pad
		p := 0
		for f := fields; f > blank; f-- {
			nextPad := sp.pad * (f - 1) / fields
			w := padRemaining - nextPad + sp.width
			line, d.tmp = sp.appendField(line, d.tmp, cur[p:p+sp.size], d.order, w)
			p += sp.size
			padRemaining = nextPad
		}
		if sp.trailer {
			padW := sp.pad * blank / fields
			for k := blank*sp.width + padW; k > 0; k-- {
				line = append(line, ' ')
			}
			line = append(line, "  >"...)
			for _, b := range cur[:n] {
				if isPrint(b) {
					line = append(line, b)
				} else {
					line = append(line, '.')
				}
			}
			line = append(line, '<')
		}
		line = append(line, '\n')
	}
	d.line = line
	d.out.Write(line)
}

// dumpStrings is od -S: NUL-terminated runs of at least min printable
// bytes, each with its address.
func (d *dumper) dumpStrings(ctx context.Context, c *builtins.Call, in io.Reader, skip, limit uint64, hasLimit bool, minLen int) error {
	src, err := source(in, skip, limit, hasLimit)
	if src == nil {
		return err
	}
	br := textfmt.NewReader(src)
	addr := skip
	var run []byte
	var tick textfmt.Tick
	for {
		if tick.Stop(ctx) || d.out.Failed() {
			return nil
		}
		b, err := br.ReadByte()
		if err != nil {
			return nil
		}
		addr++
		switch {
		case b == 0 && len(run) >= minLen:
			line := d.appendAddress(d.line[:0], addr-uint64(len(run))-1)
			if d.radix != 'n' {
				line = append(line, ' ')
			}
			line = append(line, run...)
			line = append(line, '\n')
			d.line = line
			d.out.Write(line)
			run = run[:0]
		case isPrint(b):
			run = append(run, b)
		default:
			run = run[:0]
		}
	}
}
