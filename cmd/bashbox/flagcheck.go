//go:build !bashbox_front

package main

import (
	"errors"
	"io"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox/config"
)

// parseFlags parses args into fs, the one place every subcommand's flags go
// through, so a flag added anywhere gets the same error handling: on a bad
// flag or value it prints "bashbox: MESSAGE" and a hint and returns
// (exitUsage, false); on --help it returns (0, false) after fs.Usage ran.
// Budget flags (--timeout and every --max-*) must be positive.
func parseFlags(fs *pflag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return 0, false
	}
	if err == nil {
		err = checkBudgets(fs, config.ParseSize)
	}
	if err != nil {
		return usageError(stderr, fs, "%s", flagErrorText(err)), false
	}
	return 0, true
}
