package textio

import (
	"bufio"
	"context"

	"github.com/bashbox/bashbox/builtins"
)

// AppendRecord appends to dst the next record of r, up to and including
// delim (the last record may lack it; err is then io.EOF or the read
// error). Growth of dst past its capacity is charged to the call's memory
// budget, and a record longer than the reader's buffer checks ctx at each
// refill, so a line without end (/dev/zero) stops on the budget.
func AppendRecord(ctx context.Context, c *builtins.Call, r *bufio.Reader, dst []byte, delim byte) ([]byte, error) {
	for {
		chunk, err := r.ReadSlice(delim)
		if need := len(dst) + len(chunk); need > cap(dst) {
			grown := append(dst, chunk...)
			if gerr := c.Grow(int64(cap(grown) - cap(dst))); gerr != nil {
				return dst, gerr
			}
			dst = grown
		} else {
			dst = append(dst, chunk...)
		}
		if err != bufio.ErrBufferFull {
			return dst, err
		}
		if cerr := ctx.Err(); cerr != nil {
			return dst, cerr
		}
	}
}
