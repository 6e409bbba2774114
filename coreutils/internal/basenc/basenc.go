// Package basenc implements base64 and base32 as GNU coreutils 9.1 does:
// wrapped encoding, and decoding that skips newlines (or, with -i, every
// byte outside the alphabet), writes what it decoded before reporting
// "invalid input".
package basenc

import (
	"context"
	"encoding/base32"
	"encoding/base64"
	"io"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Codec is one of the encodings.
type Codec struct {
	name     string // "base64"
	alphabet string
	quantum  int // encoded characters per group: 4 or 8
	enc      stdEncoding
	rev      [256]int8 // alphabet index, -1 outside
}

// stdEncoding is what base64.Encoding and base32.Encoding share.
type stdEncoding interface {
	Encode(dst, src []byte)
	EncodedLen(n int) int
	Decode(dst, src []byte) (int, error)
}

func newCodec(name, alphabet string, quantum int, enc stdEncoding) *Codec {
	c := &Codec{name: name, alphabet: alphabet, quantum: quantum, enc: enc}
	for i := range c.rev {
		c.rev[i] = -1
	}
	for i := 0; i < len(alphabet); i++ {
		c.rev[alphabet[i]] = int8(i)
	}
	return c
}

// Base64 and Base32 are the RFC 4648 encodings.
var (
	Base64 = newCodec("base64", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 4, base64.StdEncoding)
	Base32 = newCodec("base32", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 8, base32.StdEncoding)
	// Base64URL and Base32Hex are the other alphabets basenc offers.
	Base64URL = newCodec("base64url", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 4, base64.URLEncoding)
	Base32Hex = newCodec("base32hex", "0123456789ABCDEFGHIJKLMNOPQRSTUV", 8, base32.HexEncoding)
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'd', Long: "decode"}, {Short: 'i', Long: "ignore-garbage"},
	{Short: 'w', Long: "wrap", Arg: builtins.RequiredArg},
	{Long: "help"}, {Long: "version"},
}}

// coder is an encoding as the command drives it.
type coder interface {
	encode(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, wrap int) int
	decode(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, garbage bool) int
}

// Run is the command for codec k.
func Run(ctx context.Context, c *builtins.Call, k *Codec) int {
	return run(ctx, c, k, options, func(c *builtins.Call) int { return help(c, k) })
}

func run(ctx context.Context, c *builtins.Call, k coder, options builtins.Options, help func(*builtins.Call) int) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	decode, garbage, wrap := false, false, 76
	for _, o := range opts {
		if sel, ok := selectors.Get()[o.Key]; ok {
			k = sel
			continue
		}
		switch o.Key {
		case "decode":
			decode = true
		case "ignore-garbage":
			garbage = true
		case "wrap":
			n, ok := parseWrap(o.Value)
			if !ok {
				c.Errorf("invalid wrap size: %s", utilcmd.Q(c, o.Value))
				return 1
			}
			wrap = n
		case "help":
			return help(c)
		case "version":
			return c.Version()
		}
	}
	if k == nil {
		c.Errorf("missing encoding type")
		return c.TryHelp(1)
	}
	if len(operands) > 1 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[1]))
		return c.TryHelp(1)
	}
	name := "-"
	if len(operands) == 1 {
		name = operands[0]
	}
	var in io.Reader = c.Stdin
	if name != "-" {
		f, err := c.Open(name)
		if err != nil {
			c.Errorf("%s: %s", utilcmd.F(c, name), builtins.ErrText(err))
			return 1
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			c.Errorf("read error: Is a directory")
			return 1
		}
		in = f
	}
	out := textfmt.NewOutput(c.Stdout)
	var st int
	if decode {
		st = k.decode(ctx, c, in, out, garbage)
	} else {
		st = k.encode(ctx, c, in, out, wrap)
	}
	return out.Finish(c, st)
}

// parseWrap reads a wrap width as xdectoimax does: a non-negative decimal.
func parseWrap(s string) (int, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	t = strings.TrimPrefix(t, "+")
	if t == "" || t[0] < '0' || t[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, false
	}
	if n > 1<<40 {
		n = 1 << 40
	}
	return int(n), true
}

func help(c *builtins.Call, k *Codec) int {
	name := c.Name()
	bits := "64"
	if k.quantum == 8 {
		bits = "32"
	}
	return textfmt.Help(c, "Usage: "+name+" [OPTION]... [FILE]\n"+
		"Base"+bits+" encode or decode FILE, or standard input, to standard output.\n\n"+
		"With no FILE, or when FILE is -, read standard input.\n\n"+
		"Mandatory arguments to long options are mandatory for short options too.\n"+
		"  -d, --decode          decode data\n"+
		"  -i, --ignore-garbage  when decoding, ignore non-alphabet characters\n"+
		"  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).\n"+
		"                          Use 0 to disable line wrapping\n"+
		utilcmd.Trailer()+"\n"+
		"The data are encoded as described for the base"+bits+" alphabet in RFC 4648.\n"+
		"When decoding, the input may contain newlines in addition to the bytes of\n"+
		"the formal base"+bits+" alphabet.  Use --ignore-garbage to attempt to recover\n"+
		"from any other non-alphabet bytes in the encoded stream.\n")
}

func readErr(c *builtins.Call, err error) int {
	c.Errorf("read error: %s", builtins.ErrText(err))
	return 1
}

// encode writes the encoding of in, wrapped every wrap columns.
func (k *Codec) encode(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, wrap int) int {
	group := k.quantum * 3 / 4 // input bytes per group: 3 or 5
	if k.quantum == 8 {
		group = 5
	}
	buf := make([]byte, group*(12<<10))
	enc := make([]byte, k.enc.EncodedLen(len(buf)))
	return encodeStream(ctx, c, in, out, buf, wrap, func(chunk []byte) ([]byte, error) {
		m := k.enc.EncodedLen(len(chunk))
		k.enc.Encode(enc, chunk)
		return enc[:m], nil
	})
}

// encodeStream reads in by buf's size and writes what encode makes of each
// chunk, wrapped every wrap columns (0: never), ending a wrapped last line.
// An error from encode is printed after its output, and ends the stream.
func encodeStream(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, buf []byte, wrap int, encode func(chunk []byte) ([]byte, error)) int {
	col := 0
	for {
		n, err := io.ReadFull(in, buf)
		if n > 0 {
			enc, bad := encode(buf[:n])
			col = writeWrapped(out, enc, wrap, col)
			if bad != nil {
				out.Flush()
				c.Errorf("%s", bad)
				return 1
			}
			if out.Failed() {
				return 1
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			out.Flush()
			return readErr(c, err)
		}
		if ctx.Err() != nil {
			return procutil.CancelStatus(ctx)
		}
	}
	if wrap > 0 && col > 0 {
		out.WriteByte('\n')
	}
	return 0
}

func writeWrapped(out *textfmt.Output, p []byte, wrap, col int) int {
	if wrap == 0 {
		out.Write(p)
		return col + len(p)
	}
	line := make([]byte, 0, len(p)+len(p)/wrap+2)
	for len(p) > 0 {
		k := min(wrap-col, len(p))
		line = append(line, p[:k]...)
		p = p[k:]
		col += k
		if col == wrap {
			line = append(line, '\n')
			col = 0
		}
	}
	out.Write(line)
	return col
}

// decode decodes in group by group; newlines are skipped, and with
// garbage every byte that is neither in the alphabet nor '='.
func (k *Codec) decode(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, garbage bool) int {
	buf := make([]byte, 64<<10)
	var grp [8]byte
	n := 0 // bytes in grp
	q := k.quantum
	invalid := func() int {
		out.Flush()
		c.Errorf("invalid input")
		return 1
	}
	clean := make([]byte, 0, len(buf)+8)
	dec := make([]byte, len(buf))
	for {
		m, err := in.Read(buf)
		// Keep the bytes that take part, after any partial group.
		clean = append(clean[:0], grp[:n]...)
		for _, b := range buf[:m] {
			if b == '\n' || garbage && k.rev[b] < 0 && b != '=' {
				continue
			}
			clean = append(clean, b)
		}
		// Fast path: whole groups of alphabet characters only.
		fast := 0
		for fast < len(clean) && k.rev[clean[fast]] >= 0 {
			fast++
		}
		fast -= fast % q
		if fast > 0 {
			w, derr := k.decodeFast(dec, clean[:fast])
			if derr != nil {
				fast = 0
			} else {
				out.Write(dec[:w])
			}
		}
		n = 0
		for _, b := range clean[fast:] {
			grp[n] = b
			n++
			if n == q {
				n = 0
				if !k.decodeGroup(out, grp[:q], true) {
					return invalid()
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Flush()
			return readErr(c, err)
		}
		if ctx.Err() != nil {
			return procutil.CancelStatus(ctx)
		}
	}
	if n > 0 {
		k.decodeGroup(out, grp[:n], false)
		return invalid()
	}
	return 0
}

// decodeFast decodes complete groups of alphabet characters with the
// standard library.
func (k *Codec) decodeFast(dst, src []byte) (int, error) { return k.enc.Decode(dst, src) }

// decodeGroup decodes one group as gnulib's decode_4 and decode_8 do,
// writing the bytes decoded before a failure.
func (k *Codec) decodeGroup(out *textfmt.Output, g []byte, full bool) bool {
	v := func(i int) int { return int(k.rev[g[i]]) }
	ok := func(i int) bool { return i < len(g) && k.rev[g[i]] >= 0 }
	if k.quantum == 4 {
		if !ok(0) || !ok(1) {
			return false
		}
		out.WriteByte(byte(v(0)<<2 | v(1)>>4))
		if len(g) == 2 {
			return false
		}
		if g[2] == '=' {
			return full && g[3] == '='
		}
		if !ok(2) {
			return false
		}
		out.WriteByte(byte(v(1)<<4 | v(2)>>2))
		if len(g) == 3 {
			return false
		}
		if g[3] == '=' {
			return true
		}
		if !ok(3) {
			return false
		}
		out.WriteByte(byte(v(2)<<6 | v(3)))
		return true
	}
	if !full {
		return false
	}
	pads := func(from int) bool {
		for i := from; i < 8; i++ {
			if g[i] != '=' {
				return false
			}
		}
		return true
	}
	if !ok(0) || !ok(1) {
		return false
	}
	out.WriteByte(byte(v(0)<<3 | v(1)>>2))
	if g[2] == '=' {
		return pads(3)
	}
	if !ok(2) || !ok(3) {
		return false
	}
	out.WriteByte(byte(v(1)<<6 | v(2)<<1 | v(3)>>4))
	if g[4] == '=' {
		return pads(5)
	}
	if !ok(4) {
		return false
	}
	out.WriteByte(byte(v(3)<<4 | v(4)>>1))
	if g[5] == '=' {
		return pads(6)
	}
	if !ok(5) || !ok(6) {
		return false
	}
	out.WriteByte(byte(v(4)<<7 | v(5)<<2 | v(6)>>3))
	if g[7] == '=' {
		return true
	}
	if !ok(7) {
		return false
	}
	out.WriteByte(byte(v(6)<<5 | v(7)))
	return true
}
