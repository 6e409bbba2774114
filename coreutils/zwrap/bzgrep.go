package zwrap

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

// bzgrep is bzip2's older wrapper script: its own option scan, the
// first operand is the pattern, NAME.bz2 stands in for a missing NAME,
// and the status is the greatest grep status.
func (f *Family) bzgrep(ctx context.Context, c *builtins.Call, self, dialect string) int {
	prog := c.Name()
	var opts []string
	pat, havePat, afterDashDash := "", false, false
	withName, noName, list, unlist := false, false, false, false
	args := c.Args[1:]
	for len(args) > 0 {
		a := args[0]
		if !afterDashDash && strings.HasPrefix(a, "--") {
			switch {
			case strings.HasPrefix(a, "--d") || strings.HasPrefix(a, "--rec"):
				fmt.Fprintf(c.Stderr, "%s: %s: option not supported\n", self, a)
				return 2
			case strings.HasPrefix(a, "--files-witho"):
				unlist = true
			case strings.HasPrefix(a, "--files-with-"):
				list = true
			case strings.HasPrefix(a, "--no-f"):
				noName = true
			case strings.HasPrefix(a, "--wi"):
				withName = true
			}
		} else if !afterDashDash && strings.HasPrefix(a, "-") {
			flags := a[1:]
			if strings.ContainsAny(flags, "dr") {
				fmt.Fprintf(c.Stderr, "%s: %s: option not supported\n", self, a)
				return 2
			}
			withName = withName || strings.Contains(flags, "H")
			noName = noName || strings.Contains(flags, "h")
			unlist = unlist || strings.Contains(flags, "L")
			list = list || strings.Contains(flags, "l")
		}
		switch {
		case !afterDashDash && (a == "-e" || a == "-f"):
			opts = append(opts, a)
			args = args[1:]
			if len(args) > 0 {
				pat, havePat = args[0], true
			}
			if dialect == "" {
				dialect = "-E" // the script switches to egrep
			}
		case !afterDashDash && len(a) == 2 && strings.IndexByte("ABCdm", a[1]) >= 0 && a[0] == '-':
			opts = append(opts, a)
			if len(args) > 1 {
				opts = append(opts, args[1])
				args = args[1:]
			}
		case !afterDashDash && a == "--":
			opts = append(opts, a)
			afterDashDash = true
		case !afterDashDash && strings.HasPrefix(a, "-"):
			opts = append(opts, a)
		default:
			if havePat && pat != "" {
				goto files
			}
			pat, havePat = a, true
		}
		if len(args) > 0 {
			args = args[1:]
		}
	}
files:
	if pat == "" {
		fmt.Fprintf(c.Stdout, "grep through bzip2 files\nusage: %s [grep_options] pattern [files]\n", prog)
		return 2
	}
	grep := func(r io.Reader, out io.Writer, extra ...string) int {
		argv := []string{"grep"}
		if dialect != "" {
			argv = append(argv, dialect)
		}
		argv = append(append(append(argv, extra...), opts...), pat)
		sub := c.Sub(argv)
		sub.Stdin, sub.Stdout = r, out
		return c.Exec(ctx, sub)
	}
	if len(args) == 0 {
		st, _ := f.piped(ctx, c, "-", func(r io.Reader) int { return grep(r, c.Stdout) })
		return st
	}
	res := 0
	for _, name := range args {
		if fi, err := c.Stat(name); err != nil || !fi.Mode().IsRegular() {
			if fi, err := c.Stat(name + ".bz2"); err == nil && fi.Mode().IsRegular() {
				name += ".bz2"
			}
		}
		r, _ := f.piped(ctx, c, name, func(r io.Reader) int {
			switch {
			case list:
				st := grep(r, io.Discard)
				if st == 0 {
					fmt.Fprintf(c.Stdout, "%s\n", name)
				}
				return st
			case unlist:
				st := grep(r, io.Discard)
				if st != 0 {
					fmt.Fprintf(c.Stdout, "%s\n", name)
					return 0
				}
				return st
			case !withName && (len(args) == 1 || noName):
				return grep(r, c.Stdout)
			}
			return grep(r, c.Stdout, "-H", "--label", name)
		})
		res = max(res, r)
		if ctx.Err() != nil {
			break
		}
	}
	return res
}
