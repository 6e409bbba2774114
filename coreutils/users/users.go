// Package users implements users. Nobody is logged in to the sandbox (it
// has no login records), so the list is empty.
package users

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{{Long: "help"}, {Long: "version"}}}

// Run prints the (empty) list of logged-in users.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, "Usage: "+c.Name()+" [OPTION]... [FILE]\n"+
				"Output who is currently logged in according to FILE.\n"+
				"If FILE is not specified, use /var/run/utmp.  /var/log/wtmp as FILE is common.\n\n"+
				utilcmd.Trailer())
		case "version":
			return c.Version()
		}
	}
	if len(operands) > 1 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[1]))
		return c.TryHelp(1)
	}
	return 0
}
