// Package mkfifo implements mkfifo: named pipes of the sandbox filesystem
// (see overlayfs/fifo.go for how they behave).
package mkfifo

import (
	"context"
	"errors"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/overlayfs"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'm', Long: "mode", Arg: builtins.RequiredArg}, {Short: 'Z'},
	{Long: "context", Arg: builtins.OptionalArg}, {Long: "help"}, {Long: "version"},
}}

var errNotSupported = errors.New("operation not supported")

// Run creates each FIFO: mode a=rw less the umask, or exactly the -m mode
// (applied to a=rw), as GNU's does.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	spec, specified := "", false
	for _, o := range opts {
		switch o.Key {
		case "mode":
			spec, specified = o.Value, true
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
	mode := uint32(0o666)
	if specified {
		change, err := modes.Parse(spec)
		if err != nil {
			c.Errorf("invalid mode")
			return 1
		}
		mode = change.Apply(mode, false, uint32(c.Umask))
		if mode&^0o777 != 0 {
			c.Errorf("mode must specify only file permission bits")
			return 1
		}
	}
	mk, ok := c.FS.(overlayfs.Mkfifoer)
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 1
		}
		var err error
		if !ok {
			err = errNotSupported
		} else if specified {
			if err = mk.Mkfifo(c.Abs(name), modes.FromPerm(mode)); err == nil {
				if err := c.FS.Chmod(c.Abs(name), modes.FromPerm(mode)); err != nil {
					c.Errorf("cannot set permissions of %s: %s", utilcmd.AF(c, name), builtins.ErrText(err))
					status = 1
				}
				continue
			}
		} else {
			err = mk.Mkfifo(c.Abs(name), modes.FromPerm(mode&^uint32(c.Umask)))
		}
		if err != nil {
			c.Errorf("cannot create fifo %s: %s", utilcmd.AF(c, name), builtins.ErrText(err))
			status = 1
		}
	}
	return status
}
