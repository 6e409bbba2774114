package xxd

import (
	"context"
	"io"
	"strconv"

	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

// The dump styles: normal, plain (-p), C include (-i) and bits (-b).

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
