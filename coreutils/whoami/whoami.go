// Package whoami implements whoami: print the sandbox user's name ($USER,
// else "user", as ls -l shows file owners).
package whoami

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{{Long: "help"}, {Long: "version"}}}

// Run prints the effective user name.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, "Usage: "+c.Name()+" [OPTION]...\n"+
				"Print the user name associated with the current effective user ID.\n"+
				"Same as id -un.\n\n"+utilcmd.Trailer())
		case "version":
			return c.Version()
		}
	}
	if len(operands) > 0 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[0]))
		return c.TryHelp(1)
	}
	out := textfmt.NewOutput(c.Stdout)
	out.WriteString(meta.UserName(c) + "\n")
	return out.Finish(c, 0)
}
