package interp

import (
	"context"
	"strings"
)

// Strings an expansion builds are held against the memory budget while
// they are built, and building stops with the call: ${x//p/r}, joins of
// many parts ($x$x, "${a[*]}") and captures would otherwise hold the
// result and its sources, and the copies a growing buffer leaves behind,
// beyond the budget, and run past the deadline.

// bigString is the size from which building a string is charged and
// checked: below it, the cost of checking would show in loops.
const bigString = 1 << 16

// strBuilder builds a string of unknown final size. Each growth is
// charged before it happens, the old storage still counted, so the
// builder never holds more than the budget; it fails once the call is
// stopping.
type strBuilder struct {
	b       strings.Builder
	bud     *Budget
	ctx     context.Context
	charged int64
	failed  bool
	unseen  int // bytes written since the call was last checked
}

// checkEvery is how much a builder writes between checks of the call.
const checkEvery = 1 << 20

// WriteString appends s; false means the budget or the call ended.
func (w *strBuilder) WriteString(s string) bool {
	if w.failed {
		return false
	}
	if w.unseen += len(s); w.unseen > checkEvery {
		w.unseen = 0
		if w.ctx.Err() != nil {
			w.failed = true
			return false
		}
	}
	if need := w.b.Len() + len(s); need > w.b.Cap() && need > bigString {
		// strings.Builder grows to twice its capacity plus what is asked.
		newCap := int64(2*w.b.Cap() + len(s))
		if w.ctx.Err() != nil || !w.bud.fits(newCap) {
			w.failed = true
			return false
		}
		w.bud.charge(newCap)
		w.b.Grow(len(s))
		w.bud.charge(-w.charged)
		w.charged = int64(w.b.Cap())
	}
	w.b.WriteString(s)
	return true
}

func (w *strBuilder) Len() int { return w.b.Len() }

// String returns the result and gives back the charge: whoever keeps the
// string (an assignment) charges it again.
func (w *strBuilder) String() string {
	w.release()
	return w.b.String()
}

// release gives back the charge of a string not kept.
func (w *strBuilder) release() {
	w.bud.charge(-w.charged)
	w.charged = 0
}

// fitsBig checks, before a big string of n bytes is built, that it fits
// the budget and that the call goes on; false after stopping the call.
func (f *frame) fitsBig(n int) bool {
	if f.ctx.Err() != nil || !f.call.sh.Budget.fits(int64(n)) {
		f.stopped()
		return false
	}
	return true
}
