// Package touch implements GNU touch over the sandbox filesystem.
//
// The in-memory filesystem keeps only modification times: there an
// access-time change (-a) has nothing to record, and a symlink's own
// times (-h) cannot be set. New files get mode 0644 (umask 022).
package touch

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/files/datetime"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a'},
	{Short: 'c', Long: "no-create"},
	{Short: 'd', Long: "date", Arg: builtins.RequiredArg},
	{Short: 'f'},
	{Short: 'h', Long: "no-dereference"},
	{Short: 'm'},
	{Short: 'r', Long: "reference", Arg: builtins.RequiredArg},
	{Short: 't', Arg: builtins.RequiredArg},
	{Long: "time", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
}}

var timeChoices = []argmatch.Choice{
	{Names: []string{"atime", "access", "use"}, Value: 1},
	{Names: []string{"mtime", "modify"}, Value: 2},
}

// Run is the touch command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	q := quote.New(c)
	var access, modify, noCreate, noDeref bool
	var dateStr, stamp, ref string
	var haveDate, haveStamp, haveRef bool
	for _, o := range opts {
		if st, done := utilcmd.HelpVersion(c, o, help); done {
			return st
		}
		switch o.Key {
		case "a":
			access = true
		case "m":
			modify = true
		case "no-create":
			noCreate = true
		case "no-dereference":
			noDeref = true
		case "date":
			dateStr, haveDate = o.Value, true
		case "reference":
			ref, haveRef = o.Value, true
		case "t":
			stamp, haveStamp = o.Value, true
		case "time":
			v, ok := argmatch.Get(c, o.Value, "--time", timeChoices, 1)
			if !ok {
				return 1
			}
			if v == 1 {
				access = true
			} else {
				modify = true
			}
		}
	}
	if haveStamp && (haveDate || haveRef) {
		c.Errorf("cannot specify times from more than one source")
		c.TryHelp(0)
		return 1
	}
	if !access && !modify {
		access, modify = true, true
	}
	loc := timefmt.Location(c.LookupEnv)
	now := time.Now()
	atime, mtime := now, now
	if haveRef {
		fi, err := meta.Stat(c, ref, !noDeref)
		if err != nil {
			c.Errorf("failed to get attributes of %s: %s", q.AF(ref), builtins.ErrText(err))
			return 1
		}
		atime, mtime = meta.Atime(fi), fi.ModTime()
	}
	if haveDate {
		// With -r, a relative date is taken from the reference's time.
		base := now
		if haveRef {
			base = mtime
		}
		t, err := datetime.Parse(dateStr, base, loc)
		if err != nil {
			c.Errorf("invalid date format %s", q.Q(dateStr))
			return 1
		}
		if haveRef {
			at, err := datetime.Parse(dateStr, atime, loc)
			if err == nil {
				atime = at
			}
			mtime = t
		} else {
			atime, mtime = t, t
		}
	}
	if haveStamp {
		t, ok := parseStamp(stamp, now, loc)
		if !ok {
			c.Errorf("invalid date format %s", q.Q(stamp))
			return 1
		}
		atime, mtime = t, t
	}
	if len(operands) == 0 {
		c.Errorf("missing file operand")
		c.TryHelp(0)
		return 1
	}
	status := 0
	for _, name := range operands {
		if ctx.Err() != nil {
			return 130
		}
		if name == "-" {
			// The standard output is a stream here, not a file.
			continue
		}
		if !touchOne(c, name, atime, mtime, access, modify, noCreate, noDeref) {
			status = 1
		}
	}
	return status
}

func touchOne(c *builtins.Call, name string, atime, mtime time.Time, access, modify, noCreate, noDeref bool) bool {
	fi, err := meta.Stat(c, name, !noDeref)
	if err != nil {
		if !builtins.IsNotExist(err) {
			c.Errorf("cannot touch %s: %s", quote.New(c).AF(name), builtins.ErrText(err))
			return false
		}
		if noCreate || noDeref {
			return true
		}
		f, err := c.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o666)
		if err != nil {
			c.Errorf("cannot touch %s: %s", quote.New(c).AF(name), builtins.ErrText(err))
			return false
		}
		f.Close()
		fi, err = c.Stat(name)
		if err != nil {
			c.Errorf("cannot touch %s: %s", quote.New(c).AF(name), builtins.ErrText(err))
			return false
		}
	}
	if noDeref && fi.Mode()&fs.ModeSymlink != 0 {
		// The sandbox cannot set a symlink's own times.
		return true
	}
	if !access {
		atime = meta.Atime(fi)
	}
	if !modify {
		mtime = fi.ModTime()
	}
	if err := c.FS.Chtimes(c.Abs(name), atime, mtime); err != nil {
		if fi.Mode()&fs.ModeDevice != 0 {
			// The sandbox's devices keep fixed times.
			return true
		}
		c.Errorf("setting times of %s: %s", quote.New(c).AF(name), builtins.ErrText(err))
		return false
	}
	return true
}

// parseStamp reads -t's [[CC]YY]MMDDhhmm[.ss].
func parseStamp(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	main, secs, hasSecs := cut(s, '.')
	for _, ch := range main + secs {
		if ch < '0' || ch > '9' {
			return time.Time{}, false
		}
	}
	if hasSecs && len(secs) != 2 {
		return time.Time{}, false
	}
	num := func(t string) int { v, _ := strconv.Atoi(t); return v }
	var year int
	switch len(main) {
	case 8:
		year = now.In(loc).Year()
	case 10:
		yy := num(main[:2])
		if yy < 69 {
			year = 2000 + yy
		} else {
			year = 1900 + yy
		}
		main = main[2:]
	case 12:
		year = num(main[:4])
		main = main[4:]
	default:
		return time.Time{}, false
	}
	mon, day, hour, min := num(main[0:2]), num(main[2:4]), num(main[4:6]), num(main[6:8])
	sec := 0
	if hasSecs {
		sec = num(secs)
	}
	if mon < 1 || mon > 12 || day < 1 || day > time.Date(year, time.Month(mon)+1, 0, 0, 0, 0, 0, time.UTC).Day() ||
		hour > 23 || min > 59 || sec > 60 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(mon), day, hour, min, sec, 0, loc), true
}

func cut(s string, sep byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func help(c *builtins.Call) {
	fmt.Fprintf(c.Stdout, `Usage: %s [OPTION]... FILE...
Update the access and modification times of each FILE to the current time.

A FILE argument that does not exist is created empty, unless -c or -h
is supplied.

Mandatory arguments to long options are mandatory for short options too.
  -a                     change only the access time
  -c, --no-create        do not create any files
  -d, --date=STRING      parse STRING and use it instead of current time
  -f                     (ignored)
  -h, --no-dereference   affect each symbolic link instead of any referenced
                         file (useful only on systems that can change the
                         timestamps of a symlink)
  -m                     change only the modification time
  -r, --reference=FILE   use this file's times instead of current time
  -t STAMP               use [[CC]YY]MMDDhhmm[.ss] instead of current time
      --time=WORD        change the specified time:
                           WORD is access, atime, or use: equivalent to -a
                           WORD is modify or mtime: equivalent to -m
      --help        display this help and exit
      --version     output version information and exit

Note that the -d and -t options accept different time-date formats.
`, c.Name())
}
