// Package mkfifo implements mkfifo. The sandbox filesystem has no named
// pipes, so each FIFO is refused with "Operation not supported" (or the
// error creating it would meet first: an existing name, a missing
// directory).
package mkfifo

import (
	"context"
	"errors"
	"path"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'm', Long: "mode", Arg: builtins.RequiredArg}, {Short: 'Z'},
	{Long: "context", Arg: builtins.OptionalArg}, {Long: "help"}, {Long: "version"},
}}

var errNotSupported = errors.New("operation not supported")
var errNotDir = errors.New("not a directory")

// Run tries to create each FIFO.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	for _, o := range opts {
		switch o.Key {
		case "mode":
			if _, err := modes.Parse(o.Value); err != nil {
				c.Errorf("invalid mode")
				return 1
			}
		case "help":
			return textfmt.Help(c, "Usage: "+c.Name()+" [OPTION]... NAME...\n"+
				"Create named pipes (FIFOs) with the given NAMEs.\n\n"+
				"Mandatory arguments to long options are mandatory for short options too.\n"+
				"  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask\n"+
				"  -Z                   accepted; the sandbox has no security contexts\n"+
				"      --context[=CTX]  accepted; the sandbox has no security contexts\n"+
				utilcmd.Trailer())
		case "version":
			return c.Version()
		}
	}
	if len(operands) == 0 {
		c.Errorf("missing operand")
		return c.TryHelp(1)
	}
	status := 0
	for _, name := range operands {
		err := errNotSupported
		if _, lerr := c.Lstat(name); lerr == nil {
			err = errors.New("file exists")
		} else if dir := path.Dir(c.Abs(name)); dir != "/" {
			if fi, serr := c.FS.Stat(dir); serr != nil {
				err = serr
			} else if !fi.IsDir() {
				err = errNotDir
			}
		}
		c.Errorf("cannot create fifo %s: %s", utilcmd.AF(c, name), builtins.ErrText(err))
		status = 1
	}
	return status
}
