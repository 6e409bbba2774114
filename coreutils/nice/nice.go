// Package nice implements nice. The sandbox runs every command at the
// same priority: nice with no command prints niceness 0, and with one it
// checks the adjustment and runs the command unchanged.
package nice

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{StopAtOperand: true, List: []builtins.Option{
	{Short: 'n', Long: "adjustment", Arg: builtins.RequiredArg}, {Long: "help"}, {Long: "version"},
}}

// Run prints the niceness or runs the command.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	adjustment := ""
	// The old form -N (and --N) is an adjustment.
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if _, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(args[0], "-"), "-")); err == nil && args[0] != "--" {
			adjustment = strings.TrimPrefix(args[0], "-")
			args = args[1:]
		}
	}
	opts, operands, err := options.Parse(args)
	if err != nil {
		return c.UsageFail(err, "", 125)
	}
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, "Usage: "+c.Name()+" [OPTION] [COMMAND [ARG]...]\n"+
				"Run COMMAND with an adjusted niceness, which affects process scheduling.\n"+
				"With no COMMAND, print the current niceness.  Niceness values range from\n"+
				"-20 (most favorable to the process) to 19 (least favorable to the process).\n\n"+
				"  -n, --adjustment=N   add integer N to the niceness (default 10)\n"+utilcmd.Trailer())
		case "version":
			return c.Version()
		case "adjustment":
			adjustment = o.Value
		}
	}
	if adjustment != "" {
		if _, err := strconv.Atoi(strings.TrimPrefix(adjustment, "+")); err != nil {
			c.Errorf("invalid adjustment %s", utilcmd.Q(c, adjustment))
			return 125
		}
	}
	if len(operands) == 0 {
		if adjustment != "" {
			return utilcmd.Fail(c, 125, "a command must be given with an adjustment")
		}
		fmt.Fprintln(c.Stdout, 0)
		return 0
	}
	status, failed := procutil.Exec(ctx, c, c.Sub(operands))
	if failed != procutil.Ran {
		c.Errorf("%s: %s", utilcmd.Q(c, operands[0]), failed.Text())
	}
	return status
}
