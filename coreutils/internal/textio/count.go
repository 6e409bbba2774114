package textio

import (
	"context"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// ParseCount parses the NUM of head's and tail's -n and -c (sign already
// removed), allowing the multiplier suffixes listed in suffixes, and
// reports a bad one as GNU does: "invalid number of lines: 'x'" (bytes
// when !lines).
func ParseCount(c *builtins.Call, s, suffixes string, lines bool) (uint64, bool) {
	n, e := ParseUint(s, suffixes)
	if e == NumOK {
		return n, true
	}
	what := "bytes"
	if lines {
		what = "lines"
	}
	if e == NumOverflow {
		c.Errorf("invalid number of %s: %s: Value too large for defined data type", what, utilcmd.Q(c, s))
	} else {
		c.Errorf("invalid number of %s: %s", what, utilcmd.Q(c, s))
	}
	return 0, false
}

// EachChunk hands fn what each read of r returns, until the end of r, a
// read error, fn's error or the end of ctx.
func EachChunk(ctx context.Context, r io.Reader, fn func(chunk []byte) error) error {
	buf := ReadBuffer(nil, r)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		k, err := r.Read(buf)
		if k > 0 {
			if ferr := fn(buf[:k]); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
