// Package logname implements logname. A sandbox call has no login
// session (no controlling terminal, no utmp record), so logname reports,
// as GNU's does in that case, that there is no login name.
package logname

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{{Long: "help"}, {Long: "version"}}}

// Run prints the login name, which a sandbox call never has.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		if o.Key == "help" {
			return textfmt.Help(c, "Usage: "+c.Name()+" [OPTION]\nPrint the user's login name.\n\n"+utilcmd.Trailer())
		}
		return c.Version()
	}
	if len(operands) > 0 {
		return utilcmd.Fail(c, 1, "extra operand %s", utilcmd.Q(c, operands[0]))
	}
	c.Errorf("no login name")
	return 1
}
