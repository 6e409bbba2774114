package basenc

import (
	"context"
	"fmt"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/internal/lazy"
)

// simple is an encoding with fixed groups and no padding: base16,
// base2 and z85. Each group of in bytes becomes chars characters.
type simple struct {
	in, chars int
	alphabet  string
	encGroup  func(dst, src []byte)
	decGroup  func(dst, src []byte) bool // src holds alphabet characters
	// strict: encoding needs whole groups (z85).
	strict bool
}

const z85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

var (
	base16 = &simple{in: 1, chars: 2, alphabet: "0123456789ABCDEF",
		encGroup: func(dst, src []byte) {
			const hex = "0123456789ABCDEF"
			dst[0], dst[1] = hex[src[0]>>4], hex[src[0]&15]
		},
		decGroup: func(dst, src []byte) bool {
			dst[0] = hexVal(src[0])<<4 | hexVal(src[1])
			return true
		}}
	base2msbf = &simple{in: 1, chars: 8, alphabet: "01",
		encGroup: func(dst, src []byte) {
			for i := 0; i < 8; i++ {
				dst[i] = '0' + src[0]>>(7-i)&1
			}
		},
		decGroup: func(dst, src []byte) bool {
			var b byte
			for i := 0; i < 8; i++ {
				b = b<<1 | (src[i] - '0')
			}
			dst[0] = b
			return true
		}}
	base2lsbf = &simple{in: 1, chars: 8, alphabet: "01",
		encGroup: func(dst, src []byte) {
			for i := 0; i < 8; i++ {
				dst[i] = '0' + src[0]>>i&1
			}
		},
		decGroup: func(dst, src []byte) bool {
			var b byte
			for i := 7; i >= 0; i-- {
				b = b<<1 | (src[i] - '0')
			}
			dst[0] = b
			return true
		}}
	z85 = &simple{in: 4, chars: 5, alphabet: z85Alphabet, strict: true,
		encGroup: func(dst, src []byte) {
			v := uint32(src[0])<<24 | uint32(src[1])<<16 | uint32(src[2])<<8 | uint32(src[3])
			for i := 4; i >= 0; i-- {
				dst[i] = z85Alphabet[v%85]
				v /= 85
			}
		},
		decGroup: func(dst, src []byte) bool {
			var v uint64
			for _, ch := range src {
				v = v*85 + uint64(indexByte(z85Alphabet, ch))
			}
			if v > 0xffffffff {
				return false
			}
			dst[0], dst[1], dst[2], dst[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
			return true
		}}
)

func hexVal(b byte) byte {
	if b <= '9' {
		return b - '0'
	}
	return b - 'A' + 10
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

func (k *simple) encode(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, wrap int) int {
	buf := make([]byte, k.in*(16<<10))
	enc := make([]byte, len(buf)/k.in*k.chars)
	return encodeStream(ctx, c, in, out, buf, wrap, func(chunk []byte) ([]byte, error) {
		n := len(chunk)
		whole := n - n%k.in
		for i := 0; i < whole/k.in; i++ {
			k.encGroup(enc[i*k.chars:], chunk[i*k.in:])
		}
		if whole < n {
			return enc[:whole/k.in*k.chars], fmt.Errorf("invalid input (length must be multiple of %d characters)", k.in)
		}
		return enc[:whole/k.in*k.chars], nil
	})
}

func (k *simple) decode(ctx context.Context, c *builtins.Call, in io.Reader, out *textfmt.Output, garbage bool) int {
	grp := make([]byte, 0, k.chars)
	dec := make([]byte, k.in)
	return decodeStream(ctx, c, in, out, make([]byte, 64<<10), func(chunk []byte, last bool) bool {
		if last {
			return len(grp) == 0
		}
		for _, b := range chunk {
			if b == '\n' {
				continue
			}
			if indexByte(k.alphabet, b) < 0 {
				if garbage {
					continue
				}
				return false
			}
			grp = append(grp, b)
			if len(grp) == k.chars {
				if !k.decGroup(dec, grp) {
					return false
				}
				out.Write(dec)
				grp = grp[:0]
			}
		}
		return true
	})
}

// selectors are basenc's encoding options.
var selectors = lazy.Value[map[string]coder]{New: func() map[string]coder {
	return map[string]coder{
		"base64": Base64, "base64url": Base64URL, "base32": Base32, "base32hex": Base32Hex,
		"base16": base16, "base2msbf": base2msbf, "base2lsbf": base2lsbf, "z85": z85,
	}
}}

var basencOptions = builtins.Options{List: append([]builtins.Option{
	{Long: "base64"}, {Long: "base64url"}, {Long: "base32"}, {Long: "base32hex"},
	{Long: "base16"}, {Long: "base2msbf"}, {Long: "base2lsbf"}, {Long: "z85"},
}, options.List...)}

// RunBasenc is the basenc command: the encoding is chosen by option.
func RunBasenc(ctx context.Context, c *builtins.Call) int {
	return run(ctx, c, nil, basencOptions, basencHelp)
}

func basencHelp(c *builtins.Call) int {
	return textfmt.Help(c, `Usage: basenc [OPTION]... [FILE]
basenc encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
      --base64          same as 'base64' program (RFC4648 section 4)
      --base64url       file- and url-safe base64 (RFC4648 section 5)
      --base32          same as 'base32' program (RFC4648 section 6)
      --base32hex       extended hex alphabet base32 (RFC4648 section 7)
      --base16          hex encoding (RFC4648 section 8)
      --base2msbf       bit string with most significant bit (msb) first
      --base2lsbf       bit string with least significant bit (lsb) first
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --z85             ascii85-like encoding (ZeroMQ spec:32/Z85);
                        when encoding, input length must be a multiple of 4;
                        when decoding, input length must be a multiple of 5
`+utilcmd.Trailer()+`
When decoding, the input may contain newlines in addition to the bytes of
the formal alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
`)
}
