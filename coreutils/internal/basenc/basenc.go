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
	"math"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
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

// parseWrap reads a wrap width as xdectoimax does: a non-negative
// decimal within intmax_t; widths past 2^40 wrap like no wrapping at all.
func parseWrap(s string) (int, bool) {
	n, e := textio.ParseUint(s, "")
	if e != textio.NumOK || n > math.MaxInt64 {
		return 0, false
	}
	return int(min(n, 1<<40)), true
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
	clean := make([]byte, 0, len(buf)+8)
	dec := make([]byte, len(buf))
	return decodeStream(ctx, c, in, out, buf, func(chunk []byte, last bool) bool {
		if last {
			if n > 0 {
				k.decodeGroup(out, grp[:n], false)
				return false
			}
			return true
		}
		// Keep the bytes that take part, after any partial group.
		clean = append(clean[:0], grp[:n]...)
		for _, b := range chunk {
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
					return false
				}
			}
		}
		return true
	})
}

// decodeStream hands decode what each read of in returns, then, with last
// set, the end of the input. decode returns false on invalid input, which
// is reported after the bytes decoded so far. A read error or the end of
// ctx stops the stream as in encodeStream.
func decodeStream(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, buf []byte, decode func(chunk []byte, last bool) bool) int {
	for {
		m, err := in.Read(buf)
		if !decode(buf[:m], false) {
			return invalidInput(c, out)
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
	if !decode(nil, true) {
		return invalidInput(c, out)
	}
	return 0
}

func invalidInput(c *builtins.Call, out *textfmt.Output) int {
	out.Flush()
	c.Errorf("invalid input")
	return 1
}

// decodeFast decodes complete groups of alphabet characters with the
// standard library.
func (k *Codec) decodeFast(dst, src []byte) (int, error) { return k.enc.Decode(dst, src) }

// decodeGroup decodes one group as gnulib's decode_4 and decode_8 do,
// writing the bytes decoded before a failure. One loop serves both: a
// character adds its bits, a byte is written once eight are there, and
// padding may start only where the characters so far end a byte (after
// 2 or 3 base64 characters, after 2, 4, 5 or 7 base32 ones); it must then
// run to the end of a complete group.
func (k *Codec) decodeGroup(out *textfmt.Output, g []byte, full bool) bool {
	bits := uint(6)
	if k.quantum == 8 {
		if !full {
			return false
		}
		bits = 5
	}
	var acc, have uint
	for i, ch := range g {
		if ch == '=' && i >= 2 && uint(i)*bits%8 < bits {
			return full && allPad(g[i+1:])
		}
		v := k.rev[ch]
		if v < 0 {
			return false
		}
		acc = acc<<bits | uint(v)
		have += bits
		if have >= 8 {
			have -= 8
			out.WriteByte(byte(acc >> have))
		}
	}
	return len(g) == k.quantum
}

// allPad reports whether p is all '='.
func allPad(p []byte) bool {
	for _, b := range p {
		if b != '=' {
			return false
		}
	}
	return true
}
