package interp

import (
	"context"
	"io"
)

// quietCancel wraps a script's stderr to drop the one line mvdan.cc/sh's
// runner prints when the call's context ends inside a command substitution
// ("context canceled"): the budget or cancellation that ended the call has
// its own message, and Go's error text must not reach the user.
func quietCancel(ctx context.Context, w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	return &cancelFilter{ctx: ctx, w: w}
}

type cancelFilter struct {
	ctx context.Context
	w   io.Writer
}

func (c *cancelFilter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil && len(p) == len(err.Error())+1 && string(p[:len(p)-1]) == err.Error() {
		return len(p), nil
	}
	return c.w.Write(p)
}
