// Package xxd implements vim's xxd (2022-01-14, as Debian 12 ships it):
// hex dumps in several styles, and their reversal.
package xxd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/internal/printf"
)

const usageText = `Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "xxd 2022-01-14 by Juergen Weigert et al.".
`

type hexType int

const (
	hexNormal hexType = iota
	hexPostscript
	hexCInclude
	hexBits
	hexLittleEndian
)

const maxCols = 256

type config struct {
	autoskip   bool
	typ        hexType
	capitalize bool
	cols       int
	colsSet    bool
	group      int
	length     int64
	varname    *string
	displayOff uint64
	seek       int64
	relSeek    bool
	negSeek    bool
	seekSet    bool
	revert     bool
	decimal    bool
	ebcdic     bool
	upper      bool
}

// cLong parses a number the way strtol(s, NULL, 0) does: leading blanks,
// a sign, 0x for hex, 0 for octal, and whatever follows ignored.
func cLong(s string) int64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	if len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && len(s) > 2 && isHex(s[2]) {
		base, s = 16, s[2:]
	} else if len(s) > 0 && s[0] == '0' {
		base = 8
	}
	var v int64
	for i := 0; i < len(s); i++ {
		d := printf.DigitVal(s[i])
		if d < 0 || d >= base {
			break
		}
		if v > (1<<63-1-int64(d))/int64(base) {
			v = 1<<63 - 1
			continue
		}
		v = v*int64(base) + int64(d)
	}
	if neg {
		return -v
	}
	return v
}

func isHex(c byte) bool { return printf.DigitVal(c) >= 0 && printf.DigitVal(c) < 16 }

type usageError struct{}

func (usageError) Error() string { return "usage" }

// parseArgs reads xxd's command line: options match by their first two
// characters ("-c8", "-c 8", "-cols 8", "--cols 8").
func parseArgs(args []string, cfg *config) ([]string, string, error) {
	i := 0
	// value returns the option's argument: the rest of the word unless it
	// spells the long name, else the next word.
	value := func(pp, long string) (string, error) {
		if len(pp) > 2 && !strings.HasPrefix(pp[2:], long) {
			return pp[2:], nil
		}
		if i+1 >= len(args) {
			return "", usageError{}
		}
		i++
		return args[i], nil
	}
	for ; i < len(args); i++ {
		a := args[i]
		pp := a
		if strings.HasPrefix(a, "--") && len(a) > 2 {
			pp = a[1:]
		}
		if a == "--help" {
			return nil, "help", nil
		}
		if a == "--version" {
			return nil, "version", nil
		}
		if len(pp) < 2 || pp[0] != '-' {
			if pp == "--" {
				i++
			}
			break
		}
		switch pp[:2] {
		case "-a":
			cfg.autoskip = !cfg.autoskip
		case "-b":
			cfg.typ = hexBits
		case "-e":
			cfg.typ = hexLittleEndian
		case "-u":
			cfg.upper = true
		case "-p":
			cfg.typ = hexPostscript
		case "-i":
			cfg.typ = hexCInclude
		case "-C":
			cfg.capitalize = true
		case "-d":
			cfg.decimal = true
		case "-r":
			cfg.revert = true
		case "-E":
			cfg.ebcdic = true
		case "-v":
			return nil, "version", nil
		case "-h":
			return nil, "", usageError{}
		case "-c":
			if len(pp) > 2 && strings.HasPrefix(pp[2:], "apitalize") {
				cfg.capitalize = true
				break
			}
			v, err := value(pp, "ols")
			if err != nil {
				return nil, "", err
			}
			cfg.cols, cfg.colsSet = int(clampInt(cLong(v))), true
		case "-g":
			v, err := value(pp, "roup")
			if err != nil {
				return nil, "", err
			}
			cfg.group = int(clampInt(cLong(v)))
		case "-o":
			v, err := value(pp, "ffset")
			if err != nil {
				return nil, "", err
			}
			cfg.displayOff = uint64(cLong(v))
		case "-s":
			var v string
			if len(pp) > 2 && !strings.HasPrefix(pp[2:], "kip") && !strings.HasPrefix(pp[2:], "eek") {
				v = pp[2:]
			} else {
				if i+1 >= len(args) {
					return nil, "", usageError{}
				}
				i++
				v = args[i]
			}
			cfg.relSeek, cfg.negSeek, cfg.seekSet = false, false, true
			if strings.HasPrefix(v, "+") {
				cfg.relSeek = true
				v = v[1:]
			}
			if strings.HasPrefix(v, "-") {
				cfg.negSeek = true
				v = v[1:]
			}
			cfg.seek = cLong(v)
		case "-l":
			v, err := value(pp, "en")
			if err != nil {
				return nil, "", err
			}
			cfg.length = cLong(v)
		case "-n":
			v, err := value(pp, "ame")
			if err != nil {
				return nil, "", err
			}
			cfg.varname = &v
		default:
			if pp == "--" {
				i++
				return args[i:], "", nil
			}
			return nil, "", usageError{}
		}
	}
	return args[i:], "", nil
}

func clampInt(v int64) int64 {
	if v > 1<<31-1 {
		return 1<<31 - 1
	}
	if v < -(1 << 31) {
		return -(1 << 31)
	}
	return v
}

// Run is the xxd command.
func Run(ctx context.Context, c *builtins.Call) int {
	cfg := &config{length: -1, group: -1}
	files, special, err := parseArgs(c.Args[1:], cfg)
	switch {
	case special == "help":
		fmt.Fprint(c.Stdout, usageText)
		return 0
	case special == "version":
		return c.Version()
	case err != nil:
		fmt.Fprint(c.Stderr, usageText)
		return 1
	}
	if !cfg.colsSet || (cfg.cols == 0 && cfg.typ != hexPostscript) {
		switch cfg.typ {
		case hexPostscript:
			cfg.cols = 30
		case hexCInclude:
			cfg.cols = 12
		case hexBits:
			cfg.cols = 6
		default:
			cfg.cols = 16
		}
	}
	if cfg.group < 0 {
		switch cfg.typ {
		case hexBits:
			cfg.group = 1
		case hexNormal:
			cfg.group = 2
		case hexLittleEndian:
			cfg.group = 4
		default:
			cfg.group = 0
		}
	}
	if (cfg.typ == hexPostscript && cfg.cols < 0) || (cfg.typ != hexPostscript && cfg.cols < 1) ||
		((cfg.typ == hexNormal || cfg.typ == hexBits || cfg.typ == hexLittleEndian) && cfg.cols > maxCols) {
		c.Errorf("invalid number of columns (max. %d).", maxCols)
		return 1
	}
	if cfg.group < 1 || cfg.group > cfg.cols {
		cfg.group = cfg.cols
	} else if cfg.typ == hexLittleEndian && cfg.group&(cfg.group-1) != 0 {
		c.Errorf("number of octets per group must be a power of 2 with -e.")
		return 1
	}
	if len(files) > 2 {
		fmt.Fprint(c.Stderr, usageText)
		return 1
	}

	// Input.
	var in io.Reader = c.Stdin
	var inFile interface {
		io.Reader
		io.Seeker
	}
	inName := ""
	if sk, ok := textfmt.SeekableStdin(c); ok {
		inFile = sk
	}
	if len(files) >= 1 && files[0] != "-" {
		f, err := c.Open(files[0])
		if err != nil {
			c.Errorf("%s: %s", files[0], builtins.ErrText(err))
			return 2
		}
		defer f.Close()
		in, inFile, inName = f, f, files[0]
	}

	// Output.
	var outW io.Writer = c.Stdout
	var outFile interface {
		io.Writer
		io.Seeker
	}
	if len(files) == 2 && files[1] != "-" {
		flag := os.O_WRONLY | os.O_CREATE
		if !cfg.revert {
			flag |= os.O_TRUNC
		}
		f, err := c.OpenFile(files[1], flag, 0o666)
		if err != nil {
			c.Errorf("%s: %s", files[1], builtins.ErrText(err))
			return 3
		}
		defer f.Close()
		outW, outFile = f, f
	}
	out := textfmt.NewOutput(outW)

	if cfg.revert {
		if cfg.typ != hexNormal && cfg.typ != hexPostscript {
			c.Errorf("Sorry, cannot revert this type of hexdump")
			return 255
		}
		base := cfg.seek
		if cfg.negSeek {
			base = -base
		}
		status := revert(ctx, c, textfmt.NewReader(in), out, outFile, cfg, base)
		if status != 0 {
			out.Flush()
			return status
		}
		return out.Finish(c, 0)
	}

	// Seeking.
	var seekOff int64
	if cfg.seekSet && (cfg.seek != 0 || cfg.negSeek || !cfg.relSeek) {
		off := cfg.seek
		if cfg.negSeek {
			off = -off
		}
		done := false
		if inFile != nil {
			whence := io.SeekStart
			if cfg.relSeek {
				whence = io.SeekCurrent
			} else if cfg.negSeek {
				whence = io.SeekEnd
			}
			if pos, err := inFile.Seek(off, whence); err == nil {
				seekOff, done = pos, true
			}
		}
		if !done {
			if cfg.negSeek {
				c.Errorf("Sorry, cannot seek.")
				return 4
			}
			n, _ := io.CopyN(io.Discard, in, cfg.seek)
			if n < cfg.seek {
				c.Errorf("Sorry, cannot seek.")
				return 4
			}
			seekOff = cfg.seek
		}
	}

	er := &errReader{r: in}
	br := textfmt.NewReader(er)
	var status int
	switch cfg.typ {
	case hexCInclude:
		varname := cfg.varname
		if varname == nil && inName != "" {
			varname = &inName
		}
		status = cInclude(ctx, br, out, cfg, varname)
	case hexPostscript:
		status = postscript(ctx, br, out, cfg)
	default:
		status = dump(ctx, br, out, cfg, uint64(seekOff))
	}
	if ctx.Err() != nil {
		out.Flush()
		return 1
	}
	if status != 0 {
		out.Flush()
		return status
	}
	if er.err != nil {
		out.Flush()
		c.Errorf("%s", builtins.ErrText(er.err))
		return 2
	}
	return out.Finish(c, 0)
}

// errReader remembers a read error and reports it as end of input.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF {
		e.err = err
		return n, io.EOF
	}
	return n, err
}

func (cfg *config) digits() string {
	if cfg.upper {
		return "0123456789ABCDEF"
	}
	return "0123456789abcdef"
}

func cInclude(ctx context.Context, br io.ByteReader, out *textfmt.Output, cfg *config, varname *string) int {
	name := func() {
		v := *varname
		if v != "" && v[0] >= '0' && v[0] <= '9' {
			out.WriteString("__")
		}
		for i := 0; i < len(v); i++ {
			ch := v[i]
			switch {
			case ch >= 'a' && ch <= 'z':
				if cfg.capitalize {
					ch -= 'a' - 'A'
				}
			case ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9':
			default:
				ch = '_'
			}
			out.WriteByte(ch)
		}
	}
	if varname != nil {
		out.WriteString("unsigned char ")
		name()
		out.WriteString("[] = {\n")
	}
	hex := cfg.digits()
	prefix := "0x"
	if cfg.upper {
		prefix = "0X"
	}
	var p int64
	var tick textfmt.Tick
	for cfg.length < 0 || p < cfg.length {
		if tick.Stop(ctx) || out.Failed() {
			return 0
		}
		b, err := br.ReadByte()
		if err != nil {
			break
		}
		switch {
		case p == 0:
			out.WriteString("  ")
		case p%int64(cfg.cols) != 0:
			out.WriteString(", ")
		default:
			out.WriteString(",\n  ")
		}
		out.WriteString(prefix)
		out.WriteByte(hex[b>>4])
		out.WriteByte(hex[b&15])
		p++
	}
	if p > 0 {
		out.WriteByte('\n')
	}
	if varname != nil {
		out.WriteString("};\nunsigned int ")
		name()
		if cfg.capitalize {
			out.WriteString("_LEN = ")
		} else {
			out.WriteString("_len = ")
		}
		out.WriteString(strconv.FormatInt(int64(int32(p)), 10))
		out.WriteString(";\n")
	}
	return 0
}

func postscript(ctx context.Context, br io.ByteReader, out *textfmt.Output, cfg *config) int {
	hex := cfg.digits()
	p := cfg.cols
	var n int64
	var tick textfmt.Tick
	for cfg.length < 0 || n < cfg.length {
		if tick.Stop(ctx) || out.Failed() {
			return 0
		}
		b, err := br.ReadByte()
		if err != nil {
			break
		}
		out.WriteByte(hex[b>>4])
		out.WriteByte(hex[b&15])
		n++
		if cfg.cols > 0 {
			p--
			if p == 0 {
				out.WriteByte('\n')
				p = cfg.cols
			}
		}
	}
	if cfg.cols == 0 || p < cfg.cols {
		out.WriteByte('\n')
	}
	return 0
}

// skipper implements -a: runs of all-zero lines collapse into "*".
type skipper struct {
	saved    []byte
	zeroSeen int
}

// line emits l; nz > 0 when it holds a nonzero byte (or autoskip is off),
// 0 for an all-zero line, -1 at the end to flush a held line.
func (s *skipper) line(out *textfmt.Output, l []byte, nz int) {
	if nz == 0 && s.zeroSeen == 1 {
		s.saved = append(s.saved[:0], l...)
	}
	if nz != 0 || s.zeroSeen == 0 {
		if nz == 0 {
			s.zeroSeen++
		}
		if nz != 0 {
			if nz < 0 {
				s.zeroSeen--
			}
			if s.zeroSeen == 2 {
				out.Write(s.saved)
			}
			if s.zeroSeen > 2 {
				out.WriteString("*\n")
			}
		}
		if nz >= 0 || s.zeroSeen > 0 {
			out.Write(l)
		}
		if nz != 0 {
			s.zeroSeen = 0
		}
		return
	}
	s.zeroSeen++
}

func dump(ctx context.Context, br io.ByteReader, out *textfmt.Output, cfg *config, seekOff uint64) int {
	hex := cfg.digits()
	grp := cfg.group
	grplen := 2*grp + 1
	if cfg.typ == hexBits {
		grplen = 8*grp + 1
	}
	var sk skipper
	var n int64
	p := 0
	nonzero := 0
	addrlen := 0
	l := make([]byte, 0, 64+cfg.cols*10)
	c := 0
	var tick textfmt.Tick
	for cfg.length < 0 || n < cfg.length {
		if tick.Stop(ctx) || out.Failed() {
			return 0
		}
		e, err := br.ReadByte()
		if err != nil {
			break
		}
		if p == 0 {
			l = l[:0]
			addr := uint64(n) + seekOff + cfg.displayOff
			if cfg.decimal {
				l = appendPadNum(l, strconv.FormatUint(addr, 10))
			} else {
				l = appendPadNum(l, strconv.FormatUint(addr, 16))
			}
			l = append(l, ':')
			addrlen = len(l)
			width := addrlen + 3 + (grplen*cfg.cols-1)/grp + cfg.cols + 2
			for len(l) < width {
				l = append(l, ' ')
			}
		}
		x := p
		if cfg.typ == hexLittleEndian {
			x = p ^ (grp - 1)
		}
		c = addrlen + 1 + (grplen*x)/grp
		if cfg.typ == hexBits {
			for i := 7; i >= 0; i-- {
				if e&(1<<uint(i)) != 0 {
					l[c] = '1'
				} else {
					l[c] = '0'
				}
				c++
			}
		} else {
			l[c] = hex[e>>4]
			l[c+1] = hex[e&15]
		}
		if e != 0 {
			nonzero++
		}
		if cfg.ebcdic {
			if e < 64 {
				e = '.'
			} else {
				e = etoa64[e-64]
			}
		}
		c = addrlen + 3 + (grplen*cfg.cols-1)/grp + p
		if e > 31 && e < 127 {
			l[c] = e
		} else {
			l[c] = '.'
		}
		c++
		n++
		p++
		if p == cfg.cols {
			l[c] = '\n'
			nz := 1
			if cfg.autoskip {
				nz = nonzero
			}
			sk.line(out, l[:c+1], nz)
			nonzero = 0
			p = 0
		}
	}
	if p > 0 {
		l[c] = '\n'
		sk.line(out, l[:c+1], 1)
	} else if cfg.autoskip && c > 0 {
		// The last line was all zeros: flush what is held back.
		sk.line(out, l[:c+1], -1)
	}
	return 0
}

func appendPadNum(dst []byte, s string) []byte {
	for i := len(s); i < 8; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

var errSeekBack = errors.New("Sorry, cannot seek backwards.")

// revert turns a hex dump back into binary, as xxd -r does: in the normal
// style each line is "ADDRESS: hex pairs... ascii", and only cols bytes
// are taken from a line; in the plain style every hex pair counts.
func revert(ctx context.Context, c *builtins.Call, br io.ByteReader, out *textfmt.Output, outFile io.Seeker, cfg *config, base int64) int {
	ps := cfg.typ == hexPostscript
	cols := cfg.cols
	ignGarb := true
	n1, n2, n3 := -1, 0, 0
	p := cols
	var haveOff, wantOff int64
	var tick textfmt.Tick
	for {
		if tick.Stop(ctx) || out.Failed() {
			return 0
		}
		ch, err := br.ReadByte()
		if err != nil {
			break
		}
		if ch == '\r' {
			continue
		}
		if ps && (ch == ' ' || ch == '\n' || ch == '\t') {
			continue
		}
		n3 = n2
		n2 = n1
		n1 = hexVal(ch)
		if n1 == -1 && ignGarb {
			continue
		}
		ignGarb = false
		if !ps && p >= cols {
			if n1 < 0 {
				p = 0
				continue
			}
			wantOff = wantOff<<4 | int64(n1)
			continue
		}
		if base+wantOff != haveOff {
			moved := false
			if outFile != nil {
				if out.Flush() == nil {
					if _, err := outFile.Seek(base+wantOff-haveOff, io.SeekCurrent); err == nil {
						haveOff = base + wantOff
						moved = true
					}
				}
			}
			if !moved {
				if base+wantOff < haveOff {
					out.Flush()
					c.Errorf("%s", errSeekBack.Error())
					return 5
				}
				for ; haveOff < base+wantOff; haveOff++ {
					out.WriteByte(0)
				}
			}
		}
		if n2 >= 0 && n1 >= 0 {
			out.WriteByte(byte(n2<<4 | n1))
			haveOff++
			wantOff++
			n1 = -1
			if !ps {
				p++
				if p >= cols {
					// The rest of the line is the text column.
					for ch != '\n' {
						ch, err = br.ReadByte()
						if err != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
			}
		} else if n1 < 0 && n2 < 0 && n3 < 0 {
			// Garbage: skip the line.
			if !ps {
				wantOff = 0
			}
			for ch != '\n' {
				ch, err = br.ReadByte()
				if err != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		if ch == '\n' {
			if !ps {
				wantOff = 0
			}
			p = cols
			ignGarb = true
		}
	}
	if outFile != nil {
		if out.Flush() == nil {
			outFile.Seek(0, io.SeekEnd)
		}
	}
	return 0
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// etoa64 maps EBCDIC codes 64..255 to ASCII, as xxd -E shows them.
var etoa64 = [192]byte{
	0040, 0240, 0241, 0242, 0243, 0244, 0245, 0246,
	0247, 0250, 0325, 0056, 0074, 0050, 0053, 0174,
	0046, 0251, 0252, 0253, 0254, 0255, 0256, 0257,
	0260, 0261, 0041, 0044, 0052, 0051, 0073, 0176,
	0055, 0057, 0262, 0263, 0264, 0265, 0266, 0267,
	0270, 0271, 0313, 0054, 0045, 0137, 0076, 0077,
	0272, 0273, 0274, 0275, 0276, 0277, 0300, 0301,
	0302, 0140, 0072, 0043, 0100, 0047, 0075, 0042,
	0303, 0141, 0142, 0143, 0144, 0145, 0146, 0147,
	0150, 0151, 0304, 0305, 0306, 0307, 0310, 0311,
	0312, 0152, 0153, 0154, 0155, 0156, 0157, 0160,
	0161, 0162, 0136, 0314, 0315, 0316, 0317, 0320,
	0321, 0345, 0163, 0164, 0165, 0166, 0167, 0170,
	0171, 0172, 0322, 0323, 0324, 0133, 0326, 0327,
	0330, 0331, 0332, 0333, 0334, 0335, 0336, 0337,
	0340, 0341, 0342, 0343, 0344, 0135, 0346, 0347,
	0173, 0101, 0102, 0103, 0104, 0105, 0106, 0107,
	0110, 0111, 0350, 0351, 0352, 0353, 0354, 0355,
	0175, 0112, 0113, 0114, 0115, 0116, 0117, 0120,
	0121, 0122, 0356, 0357, 0360, 0361, 0362, 0363,
	0134, 0237, 0123, 0124, 0125, 0126, 0127, 0130,
	0131, 0132, 0364, 0365, 0366, 0367, 0370, 0371,
	0060, 0061, 0062, 0063, 0064, 0065, 0066, 0067,
	0070, 0071, 0372, 0373, 0374, 0375, 0376, 0377,
}
