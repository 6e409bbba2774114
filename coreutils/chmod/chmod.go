// Package chmod implements GNU chmod over the sandbox filesystem. The
// sandbox has no umask of its own; chmod uses 022, as a login shell
// would, for clauses that name no user class (chmod +x).
package chmod

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/internal/lazy"
)

var options = lazy.Value[*builtins.Options]{New: func() *builtins.Options {
	return &builtins.Options{List: fileops.ChangerOptions(builtins.Option{Long: "help"}, builtins.Option{Long: "version"})}
}}

type chmodder struct {
	fileops.Changer
	diagnose bool // the mode looked like an option ("-w"): warn about the umask
	change   *modes.Change
	refMode  uint32
	useRef   bool
}

// Run is the chmod command.
func Run(ctx context.Context, c *builtins.Call) int {
	// "chmod -w file": a mode that looks like an option is the mode.
	var modeArg string
	haveMode := false
	args := make([]string, 0, len(c.Args))
	for i, a := range c.Args[1:] {
		if a == "--" {
			args = append(args, c.Args[1+i:]...)
			break
		}
		if !haveMode && len(a) > 1 && a[0] == '-' && strings.IndexByte("rwxXstugoa,+-=01234567", a[1]) >= 0 {
			if _, err := modes.Parse(a); err == nil {
				modeArg, haveMode = a, true
				continue
			}
		}
		args = append(args, a)
	}
	opts, operands, err := options.Get().Parse(args)
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	ch := &chmodder{Changer: fileops.Changer{Ctx: ctx, C: c, Q: quote.New(c)}, diagnose: haveMode}
	for _, o := range opts {
		if st, done := utilcmd.HelpVersion(c, o, help); done {
			return st
		}
		switch o.Key {
		default:
			ch.Option(o)
		}
	}
	reference, hasRef := ch.Reference, ch.HasRef
	if hasRef {
		fi, err := c.Stat(reference)
		if err != nil {
			c.Errorf("failed to get attributes of %s: %s", ch.Q.AF(reference), builtins.ErrText(err))
			return 1
		}
		ch.refMode, ch.useRef = modes.Perm(fi.Mode()), true
		if haveMode {
			operands = append([]string{modeArg}, operands...)
		}
	} else {
		if !haveMode {
			if len(operands) == 0 {
				c.Errorf("missing operand")
				c.TryHelp(0)
				return 1
			}
			modeArg, operands = operands[0], operands[1:]
		}
		m, err := modes.Parse(modeArg)
		if err != nil {
			c.Errorf("invalid mode: %s", ch.Q.Q(modeArg))
			c.TryHelp(0)
			return 1
		}
		ch.change = m
	}
	if len(operands) == 0 {
		if hasRef || !haveMode && modeArg == "" {
			c.Errorf("missing operand")
		} else {
			c.Errorf("missing operand after %s", ch.Q.Q(modeArg))
		}
		c.TryHelp(0)
		return 1
	}
	return ch.Run(operands, c.Stat, ch.apply, func(p string, e fs.FileInfo) bool {
		if e.Mode()&fs.ModeSymlink != 0 {
			if ch.Verbose {
				fmt.Fprintf(c.Stdout, "neither symbolic link %s nor referent has been changed\n", ch.Q.AF(p))
			}
			return false
		}
		ch.apply(p, e)
		return e.IsDir()
	})
}

func (ch *chmodder) apply(name string, fi fs.FileInfo) {
	c := ch.C
	old := modes.Perm(fi.Mode())
	var nu uint32
	if ch.useRef {
		nu = ch.refMode
	} else {
		nu = ch.change.Apply(old, fi.IsDir(), uint32(c.Umask))
	}
	changed := nu != old
	if changed {
		if err := c.FS.Chmod(c.Abs(name), modes.FromPerm(nu)); err != nil {
			ch.Errorf("changing permissions of %s: %s", ch.Q.AF(name), builtins.ErrText(err))
			return
		}
	}
	if ch.Verbose || ch.Changes && changed {
		if changed {
			fmt.Fprintf(c.Stdout, "mode of %s changed from %04o (%s) to %04o (%s)\n", ch.Q.AF(name), old, modes.String(old), nu, modes.String(nu))
		} else {
			fmt.Fprintf(c.Stdout, "mode of %s retained as %04o (%s)\n", ch.Q.AF(name), old, modes.String(old))
		}
	}
	if !ch.useRef && ch.diagnose {
		if full := ch.change.Apply(old, fi.IsDir(), 0); nu&^full != 0 && !ch.Quiet {
			c.Errorf("%s: new permissions are %s, not %s", ch.Q.F(name), modes.String(nu), modes.String(full))
			ch.Failed = true
		}
	}
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, `Usage: %s [OPTION]... MODE[,MODE]... FILE...
  or:  %s [OPTION]... OCTAL-MODE FILE...
  or:  %s [OPTION]... --reference=RFILE FILE...
Change the mode of each FILE to MODE.
With --reference, change the mode of each FILE to that of RFILE.

  -c, --changes          like verbose but report only when a change is made
  -f, --silent, --quiet  suppress most error messages
  -v, --verbose          output a diagnostic for every file processed
      --no-preserve-root  do not treat '/' specially (the default)
      --preserve-root    fail to operate recursively on '/'
      --reference=RFILE  use RFILE's mode instead of MODE values
  -R, --recursive        change files and directories recursively
      --help        display this help and exit
      --version     output version information and exit

Each MODE is of the form '[ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=][0-7]+'.
`, c.Name(), c.Name(), c.Name())
}
