package xxd

import (
	"context"
	"errors"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/internal/printf"
)

// xxd -r: a hex dump back into binary.

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
					if ch, err = skipLine(br, ch); err != nil {
						break
					}
				}
			}
		} else if n1 < 0 && n2 < 0 && n3 < 0 {
			// Garbage: skip the line.
			if !ps {
				wantOff = 0
			}
			if ch, err = skipLine(br, ch); err != nil {
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

// skipLine reads up to the end of the line that ch is in; it returns the
// newline, or the read error.
func skipLine(br io.ByteReader, ch byte) (byte, error) {
	for ch != '\n' {
		var err error
		if ch, err = br.ReadByte(); err != nil {
			return ch, err
		}
	}
	return ch, nil
}

// hexVal is the value of the hex digit c, -1 for any other byte.
func hexVal(c byte) int {
	if isHex(c) {
		return printf.DigitVal(c)
	}
	return -1
}
