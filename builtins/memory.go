package builtins

import (
	"context"
	"errors"
	"io"
)

// Memory is the call's memory budget as a command sees it: a command
// charges what it holds (input it buffers, tables it builds) when it
// allocates it. What a command charged is given back when it returns.
type Memory interface {
	// Grow charges n more bytes. It fails with ErrMemory when that
	// exceeds the budget; the budget has then tripped and the call is
	// being stopped.
	Grow(n int64) error
	// Shrink gives back n bytes charged earlier, for memory a command
	// let go of before returning.
	Shrink(n int64)
}

// ErrMemory is what a charge past the memory budget fails with. Its text
// is GNU's xalloc_die message.
var ErrMemory = errors.New("memory exhausted")

// Grow charges n bytes to the call's memory budget (see Memory); without
// a budget it always succeeds.
func (c *Call) Grow(n int64) error {
	if c.Memory == nil || n <= 0 {
		return nil
	}
	return c.Memory.Grow(n)
}

// Shrink gives back n bytes charged with Grow.
func (c *Call) Shrink(n int64) {
	if c.Memory != nil && n > 0 {
		c.Memory.Shrink(n)
	}
}

// ReadAll is io.ReadAll that charges the buffer to the memory budget as it
// grows and stops when ctx is done, so that reading an endless input
// (/dev/zero, yes) ends on the budget rather than on the machine's memory.
func (c *Call) ReadAll(ctx context.Context, r io.Reader) ([]byte, error) {
	var b []byte
	for {
		if len(b) == cap(b) {
			if err := ctx.Err(); err != nil {
				return b, err
			}
			// Charge before allocating, the whole new buffer while the
			// old one is still held: the budget trips before the memory
			// is taken, and bounds the peak of the copy, not only what
			// is kept after it.
			size := max(512, 2*cap(b))
			if err := c.Grow(int64(size)); err != nil {
				return b, err
			}
			old := cap(b)
			b = append(make([]byte, 0, size), b...)
			c.Shrink(int64(old))
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
	}
}
