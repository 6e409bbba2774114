// Package unlink implements unlink: remove one file (never a directory)
// with nothing but the unlink call.
package unlink

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{{Long: "help"}, {Long: "version"}}}

// Run removes the named file.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		if o.Key == "help" {
			return textfmt.Help(c, "Usage: "+c.Name()+" FILE\n  or:  "+c.Name()+" OPTION\nCall the unlink function to remove the specified FILE.\n\n"+utilcmd.Trailer())
		}
		return c.Version()
	}
	switch {
	case len(operands) == 0:
		return utilcmd.Fail(c, 1, "missing operand")
	case len(operands) > 1:
		return utilcmd.Fail(c, 1, "extra operand %s", utilcmd.Q(c, operands[1]))
	}
	name := operands[0]
	fi, err := c.Lstat(name)
	if err == nil && fi.IsDir() {
		c.Errorf("cannot unlink %s: Is a directory", utilcmd.AF(c, name))
		return 1
	}
	if err == nil {
		err = c.FS.Remove(c.Abs(name))
	}
	if err != nil {
		c.Errorf("cannot unlink %s: %s", utilcmd.AF(c, name), builtins.ErrText(err))
		return 1
	}
	return 0
}
