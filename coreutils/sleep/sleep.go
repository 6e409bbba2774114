// Package sleep implements sleep: pause for a time interval.
package sleep

import (
	"context"
	"math"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// Run sleeps for the sum of its operands (NUMBER[smhd] each). When ctx is
// cancelled it returns at once with the status of a killed process.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, "Usage: "+c.Name()+" NUMBER[SUFFIX]...\n  or:  "+c.Name()+" OPTION\n"+
		"Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),\n"+
		"'m' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an\n"+
		"integer.  Given two or more arguments, pause for the amount of time\n"+
		"specified by the sum of their values.\n\n"+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 1, -1, 1); !ok {
		return st
	}
	total := 0.0
	bad := false
	for _, op := range operands {
		v, ok := procutil.ParseInterval(op)
		if !ok {
			c.Errorf("invalid time interval %s", quote.New(c).Q(op))
			bad = true
			continue
		}
		total += v
	}
	if bad {
		c.TryHelp(0)
		return 1
	}
	return Wait(ctx, total)
}

// Wait pauses for secs seconds (forever when infinite) or until ctx ends.
func Wait(ctx context.Context, secs float64) int {
	if secs <= 0 {
		if ctx.Err() != nil {
			return procutil.CancelStatus(ctx)
		}
		return 0
	}
	if math.IsInf(secs, 1) || secs > float64(math.MaxInt64/int64(time.Second)) {
		<-ctx.Done()
		return procutil.CancelStatus(ctx)
	}
	t := time.NewTimer(time.Duration(secs * float64(time.Second)))
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-ctx.Done():
		return procutil.CancelStatus(ctx)
	}
}
