// Package hostid implements GNU hostid. The sandbox has no host identity
// of its own to reveal: its name resolves to the loopback address, and
// glibc's gethostid derives 007f0100 from 127.0.0.1.
package hostid

import (
	"context"
	"fmt"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

const helpText = `Usage: hostid [OPTION]
Print the numeric identifier (in hexadecimal) for the current host.

`

var options = builtins.Options{List: []builtins.Option{{Long: "help"}, {Long: "version"}}}

// Run is the hostid command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		if o.Key == "help" {
			fmt.Fprint(c.Stdout, helpText+utilcmd.Trailer())
			return 0
		}
		return c.Version()
	}
	if len(operands) > 0 {
		return utilcmd.Fail(c, 1, "extra operand %s", utilcmd.Q(c, operands[0]))
	}
	fmt.Fprintf(c.Stdout, "%08x\n", loopbackID)
	return 0
}

// loopbackID is gethostid() for 127.0.0.1: the address's halves swapped.
const loopbackID = 0x007f0100
