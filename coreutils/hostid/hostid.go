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

// Run is the hostid command.
func Run(ctx context.Context, c *builtins.Call) int {
	operands, st, done := utilcmd.NoOptions(c, helpText+utilcmd.Trailer(), 1, false)
	if done {
		return st
	}
	if st, ok := utilcmd.Operands(c, operands, 0, 0, 1); !ok {
		return st
	}
	fmt.Fprintf(c.Stdout, "%08x\n", loopbackID)
	return 0
}

// loopbackID is gethostid() for 127.0.0.1: the address's halves swapped.
const loopbackID = 0x007f0100
