// Package link implements link: make a hard link with nothing but the
// link call (no options, no directory targets).
package link

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{{Long: "help"}, {Long: "version"}}}

// Run links FILE2 to FILE1.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		if o.Key == "help" {
			return textfmt.Help(c, "Usage: "+c.Name()+" FILE1 FILE2\n  or:  "+c.Name()+" OPTION\nCall the link function to create a link named FILE2 to an existing FILE1.\n\n"+utilcmd.Trailer())
		}
		return c.Version()
	}
	switch {
	case len(operands) == 0:
		return utilcmd.Fail(c, 1, "missing operand")
	case len(operands) == 1:
		return utilcmd.Fail(c, 1, "missing operand after %s", utilcmd.Q(c, operands[0]))
	case len(operands) > 2:
		return utilcmd.Fail(c, 1, "extra operand %s", utilcmd.Q(c, operands[2]))
	}
	if err := c.Link(operands[0], operands[1]); err != nil {
		c.Errorf("cannot create link %s to %s: %s", utilcmd.AF(c, operands[1]), utilcmd.AF(c, operands[0]), builtins.ErrText(err))
		return 1
	}
	return 0
}
