// Package sync implements sync. Writes to the sandbox filesystem are
// already complete when they return, so there is nothing to flush; with
// file operands each file must still be openable, as GNU checks.
package sync

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'd', Long: "data"}, {Short: 'f', Long: "file-system"},
}}

// Run syncs nothing, checking the named files.
func Run(ctx context.Context, c *builtins.Call) int {
	help := "Usage: " + c.Name() + " [OPTION] [FILE]...\n" +
		"Synchronize cached writes to persistent storage\n\n" +
		"If one or more files are specified, sync only them,\n" +
		"or their containing file systems.\n\n" +
		"  -d, --data             sync only file data, no unneeded metadata\n" +
		"  -f, --file-system      sync the file systems that contain the files\n" +
		utilcmd.Trailer()
	opts, operands, code, done := utilcmd.Parse(c, options, help, 1)
	if done {
		return code
	}
	data, fsys := false, false
	for _, o := range opts {
		switch o.Key {
		case "data":
			data = true
		case "file-system":
			fsys = true
		}
	}
	if data && len(operands) == 0 {
		c.Errorf("--data needs at least one argument")
		return 1
	}
	if data && fsys {
		c.Errorf("cannot specify both --data and --file-system")
		return 1
	}
	status := 0
	for _, name := range operands {
		f, err := c.Open(name)
		if err != nil {
			c.Errorf("error opening %s: %s", utilcmd.AF(c, name), builtins.ErrText(err))
			status = 1
			continue
		}
		f.Close()
	}
	return status
}
