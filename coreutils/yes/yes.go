// Package yes implements yes: print a line repeatedly until killed.
package yes

import (
	"context"
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
)

var options = builtins.Options{List: []builtins.Option{
	{Long: "help"}, {Long: "version"},
}}

const bufSize = 64 << 10

// Run writes its operands joined by spaces (or "y") and a newline, again
// and again, in large buffers, until the reader goes away or ctx ends.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		switch o.Key {
		case "help":
			fmt.Fprintf(c.Stdout, "Usage: %s [STRING]...\n  or:  %s OPTION\n", c.Name(), c.Name())
			fmt.Fprint(c.Stdout, "Repeatedly output a line with all specified STRING(s), or 'y'.\n\n"+
				"      --help        display this help and exit\n"+
				"      --version     output version information and exit\n")
			return 0
		case "version":
			return c.Version()
		}
	}
	line := "y\n"
	if len(operands) > 0 {
		line = strings.Join(operands, " ") + "\n"
	}
	n := bufSize / len(line)
	if n < 1 {
		n = 1
	}
	buf := []byte(strings.Repeat(line, n))
	for {
		if ctx.Err() != nil {
			return procutil.CancelStatus(ctx)
		}
		if _, err := c.Stdout.Write(buf); err != nil {
			if builtins.IsBrokenPipe(err) {
				return 141
			}
			c.Errorf("standard output: %s", builtins.ErrText(err))
			return 1
		}
	}
}
