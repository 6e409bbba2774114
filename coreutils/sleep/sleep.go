// Package sleep implements sleep: pause for a time interval.
package sleep

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

var options = builtins.Options{List: []builtins.Option{
	{Long: "help"}, {Long: "version"},
}}

// Run sleeps for the sum of its operands (NUMBER[smhd] each). When ctx is
// cancelled it returns at once with the status of a killed process.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		switch o.Key {
		case "help":
			fmt.Fprintf(c.Stdout, "Usage: %s NUMBER[SUFFIX]...\n  or:  %s OPTION\n", c.Name(), c.Name())
			fmt.Fprint(c.Stdout, "Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),\n"+
				"'m' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an\n"+
				"integer.  Given two or more arguments, pause for the amount of time\n"+
				"specified by the sum of their values.\n\n"+
				"      --help        display this help and exit\n"+
				"      --version     output version information and exit\n")
			return 0
		case "version":
			return c.Version()
		}
	}
	if len(operands) == 0 {
		return c.UsageFail(fmt.Errorf("missing operand"), "", 1)
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
