// Package date implements GNU date: print the current time, a time given
// with -d (GNU's date string syntax), the times of the lines of a file
// (-f) or a file's modification time (-r), in any strftime format with
// GNU's flags and widths, or the ISO 8601, RFC 5322 and RFC 3339 forms.
// The zone comes from TZ in the call's environment (UTC when unset).
// Setting the clock is refused: "cannot set date: Operation not
// permitted", after printing the date that would have been set, as GNU
// does when it lacks the privilege.
package date

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/files/datetime"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'd', Long: "date", Arg: builtins.RequiredArg}, {Long: "debug"},
	{Short: 'f', Long: "file", Arg: builtins.RequiredArg},
	{Short: 'I', Long: "iso-8601", Arg: builtins.OptionalArg},
	{Short: 'R', Long: "rfc-email"}, {Long: "rfc-822"}, {Long: "rfc-2822"},
	{Long: "rfc-3339", Arg: builtins.RequiredArg},
	{Short: 'r', Long: "reference", Arg: builtins.RequiredArg},
	{Short: 's', Long: "set", Arg: builtins.RequiredArg},
	{Short: 'u', Long: "utc"}, {Long: "universal"}, {Long: "uct"},
	{Long: "help"}, {Long: "version"},
}}

var isoFormats = []string{
	"%Y-%m-%d",
	"%Y-%m-%dT%H%:z",
	"%Y-%m-%dT%H:%M%:z",
	"%Y-%m-%dT%H:%M:%S%:z",
	"%Y-%m-%dT%H:%M:%S,%N%:z",
}

var isoChoices = []argmatch.Choice{
	{Names: []string{"hours"}, Value: 1}, {Names: []string{"minutes"}, Value: 2},
	{Names: []string{"date"}, Value: 0}, {Names: []string{"seconds"}, Value: 3},
	{Names: []string{"ns"}, Value: 4},
}

var rfc3339Formats = []string{"%Y-%m-%d", "%Y-%m-%d %H:%M:%S%:z", "%Y-%m-%d %H:%M:%S.%N%:z"}

var rfc3339Choices = []argmatch.Choice{
	{Names: []string{"date"}, Value: 0}, {Names: []string{"seconds"}, Value: 1}, {Names: []string{"ns"}, Value: 2},
}

const (
	defaultFormat = "%a %b %e %H:%M:%S %Z %Y"
	rfcEmail      = "%a, %d %b %Y %H:%M:%S %z"
)

// Run prints a date.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	var dateStr, file, ref, setStr, format string
	var hasDate, hasFile, hasRef, hasSet, utc bool
	formats := 0
	for _, o := range opts {
		switch o.Key {
		case "date":
			dateStr, hasDate = o.Value, true
		case "file":
			file, hasFile = o.Value, true
		case "reference":
			ref, hasRef = o.Value, true
		case "set":
			setStr, hasSet = o.Value, true
		case "utc", "universal", "uct":
			utc = true
		case "debug":
		case "iso-8601":
			v := 0
			if o.Has {
				var ok bool
				if v, ok = argmatch.Get(c, o.Value, "--iso-8601", isoChoices, 1); !ok {
					return 1
				}
			}
			format = isoFormats[v]
			formats++
		case "rfc-3339":
			v, ok := argmatch.Get(c, o.Value, "--rfc-3339", rfc3339Choices, 1)
			if !ok {
				return 1
			}
			format = rfc3339Formats[v]
			formats++
		case "rfc-email", "rfc-822", "rfc-2822":
			format = rfcEmail
			formats++
		case "help":
			return textfmt.Help(c, helpText(c.Name()))
		case "version":
			return c.Version()
		}
	}
	if formats > 1 {
		c.Errorf("multiple output formats specified")
		return 1
	}
	n := 0
	for _, b := range []bool{hasDate, hasFile, hasRef} {
		if b {
			n++
		}
	}
	if n > 1 {
		c.Errorf("the options to specify dates for printing are mutually exclusive")
		return c.TryHelp(1)
	}
	if hasSet && n > 0 {
		c.Errorf("the options to print and set the time may not be used together")
		return c.TryHelp(1)
	}
	if len(operands) > 1 {
		c.Errorf("extra operand %s", utilcmd.Q(c, operands[1]))
		return c.TryHelp(1)
	}
	if len(operands) == 1 && strings.HasPrefix(operands[0], "+") {
		if formats > 0 {
			c.Errorf("multiple output formats specified")
			return 1
		}
		format = operands[0][1:]
		formats++
		operands = operands[1:]
	}
	if len(operands) == 1 && (hasDate || hasFile || hasRef || hasSet) {
		c.Errorf("the argument %s lacks a leading '+';", utilcmd.Q(c, operands[0]))
		fmt.Fprint(c.Stderr, "when using an option to specify date(s), any non-option\n"+
			"argument must be a format string beginning with '+'\n")
		return c.TryHelp(1)
	}
	if formats == 0 {
		format = defaultFormat
	}

	loc := timefmt.Location(c.LookupEnv)
	if utc {
		loc = time.UTC
	}
	now := time.Now().In(loc)
	out := textfmt.NewOutput(c.Stdout)
	show := func(t time.Time) {
		out.WriteString(timefmt.Strftime(t.In(loc), format))
		out.WriteByte('\n')
	}
	parse := func(s string) (time.Time, bool) {
		// GNU's date syntax is ASCII; the shared parser also loops on
		// bytes that are Latin-1 letters, so refuse non-ASCII up front.
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				c.Errorf("invalid date %s", utilcmd.Q(c, s))
				return time.Time{}, false
			}
		}
		t, err := datetime.Parse(s, now, loc)
		if err != nil {
			c.Errorf("invalid date %s", utilcmd.Q(c, s))
			return time.Time{}, false
		}
		return t, true
	}
	switch {
	case hasFile:
		in, err := textio.Open(c, file)
		if err != nil {
			c.Errorf("%s: %s", utilcmd.F(c, file), builtins.ErrText(err))
			return 1
		}
		defer in.Close()
		ok := true
		br := bufio.NewReaderSize(in, textfmt.BufSize)
		var tick textfmt.Tick
		for {
			if tick.Stop(ctx) {
				out.Flush()
				return 130
			}
			line, err := br.ReadString('\n')
			if line == "" && err != nil {
				if err != io.EOF {
					c.Errorf("%s: %s", utilcmd.F(c, file), builtins.ErrText(err))
					ok = false
				}
				break
			}
			line = strings.TrimSuffix(line, "\n")
			if t, good := parse(line); good {
				show(t)
			} else {
				ok = false
			}
		}
		st := 0
		if !ok {
			st = 1
		}
		return out.Finish(c, st)
	case hasRef:
		fi, err := c.Stat(ref)
		if err != nil {
			c.Errorf("%s: %s", utilcmd.F(c, ref), builtins.ErrText(err))
			return 1
		}
		show(fi.ModTime())
		return out.Finish(c, 0)
	case hasDate:
		t, ok := parse(dateStr)
		if !ok {
			return 1
		}
		show(t)
		return out.Finish(c, 0)
	case hasSet || len(operands) == 1:
		var t time.Time
		var ok bool
		if hasSet {
			t, ok = parse(setStr)
		} else {
			t, ok = posixTime(operands[0], now, loc)
			if !ok {
				c.Errorf("invalid date %s", utilcmd.Q(c, operands[0]))
			}
		}
		if !ok {
			return 1
		}
		c.Errorf("cannot set date: Operation not permitted")
		show(t)
		return out.Finish(c, 1)
	}
	show(now)
	return out.Finish(c, 0)
}

// posixTime reads the operand MMDDhhmm[[CC]YY][.ss] of the clock-setting
// form.
func posixTime(s string, now time.Time, loc *time.Location) (time.Time, bool) {
	main, secs, hasSecs := strings.Cut(s, ".")
	digits := func(t string) bool {
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return false
			}
		}
		return true
	}
	if !digits(main) || hasSecs && (len(secs) != 2 || !digits(secs)) {
		return time.Time{}, false
	}
	num := func(t string) int {
		v := 0
		for i := 0; i < len(t); i++ {
			v = v*10 + int(t[i]-'0')
		}
		return v
	}
	year := now.Year()
	switch len(main) {
	case 8:
	case 10:
		y := num(main[8:])
		if y < 69 {
			year = 2000 + y
		} else {
			year = 1900 + y
		}
	case 12:
		year = num(main[8:])
	default:
		return time.Time{}, false
	}
	mon, day, hh, mm := num(main[0:2]), num(main[2:4]), num(main[4:6]), num(main[6:8])
	ss := 0
	if hasSecs {
		ss = num(secs)
	}
	if mon < 1 || mon > 12 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 60 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(mon), day, hh, mm, ss, 0, loc)
	if t.Day() != day {
		return time.Time{}, false
	}
	return t, true
}

func helpText(name string) string {
	return "Usage: " + name + " [OPTION]... [+FORMAT]\n" +
		"  or:  " + name + " [-u|--utc|--universal] [MMDDhhmm[[CC]YY][.ss]]\n" +
		"Display the current time in the given FORMAT, or set the system date.\n\n" +
		"Mandatory arguments to long options are mandatory for short options too.\n" +
		"  -d, --date=STRING          display time described by STRING, not 'now'\n" +
		"      --debug                annotate the parsed date (accepted; no annotations)\n" +
		"  -f, --file=DATEFILE        like --date; once for each line of DATEFILE\n" +
		"  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.\n" +
		"                               FMT='date' for date only (the default),\n" +
		"                               'hours', 'minutes', 'seconds', or 'ns'\n" +
		"                               for date and time to the indicated precision.\n" +
		"                               Example: 2006-08-14T02:34:56-06:00\n" +
		"  -R, --rfc-email            output date and time in RFC 5322 format.\n" +
		"                               Example: Mon, 14 Aug 2006 02:34:56 -0600\n" +
		"      --rfc-3339=FMT         output date/time in RFC 3339 format.\n" +
		"                               FMT='date', 'seconds', or 'ns'\n" +
		"  -r, --reference=FILE       display the last modification time of FILE\n" +
		"  -s, --set=STRING           set time described by STRING (refused in the sandbox)\n" +
		"  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)\n" +
		utilcmd.Trailer() + `
FORMAT controls the output.  Interpreted sequences are:

  %%   a literal %
  %a   locale's abbreviated weekday name (e.g., Sun)
  %A   locale's full weekday name (e.g., Sunday)
  %b   locale's abbreviated month name (e.g., Jan)
  %B   locale's full month name (e.g., January)
  %c   locale's date and time (e.g., Thu Mar  3 23:05:25 2005)
  %C   century; like %Y, except omit last two digits (e.g., 20)
  %d   day of month (e.g., 01)
  %D   date; same as %m/%d/%y
  %e   day of month, space padded; same as %_d
  %F   full date; like %+4Y-%m-%d
  %g   last two digits of year of ISO week number (see %G)
  %G   year of ISO week number (see %V); normally useful only with %V
  %h   same as %b
  %H   hour (00..23)
  %I   hour (01..12)
  %j   day of year (001..366)
  %k   hour, space padded ( 0..23); same as %_H
  %l   hour, space padded ( 1..12); same as %_I
  %m   month (01..12)
  %M   minute (00..59)
  %n   a newline
  %N   nanoseconds (000000000..999999999)
  %p   locale's equivalent of either AM or PM; blank if not known
  %P   like %p, but lower case
  %q   quarter of year (1..4)
  %r   locale's 12-hour clock time (e.g., 11:11:04 PM)
  %R   24-hour hour and minute; same as %H:%M
  %s   seconds since the Epoch (1970-01-01 00:00 UTC)
  %S   second (00..60)
  %t   a tab
  %T   time; same as %H:%M:%S
  %u   day of week (1..7); 1 is Monday
  %U   week number of year, with Sunday as first day of week (00..53)
  %V   ISO week number, with Monday as first day of week (01..53)
  %w   day of week (0..6); 0 is Sunday
  %W   week number of year, with Monday as first day of week (00..53)
  %x   locale's date representation (e.g., 12/31/99)
  %X   locale's time representation (e.g., 23:13:48)
  %y   last two digits of year (00..99)
  %Y   year
  %z   +hhmm numeric time zone (e.g., -0400)
  %:z  +hh:mm numeric time zone (e.g., -04:00)
  %::z  +hh:mm:ss numeric time zone (e.g., -04:00:00)
  %:::z  numeric time zone with : to necessary precision (e.g., -04, +05:30)
  %Z   alphabetic time zone abbreviation (e.g., EDT)

By default, date pads numeric fields with zeroes.
The following optional flags may follow '%':

  -  (hyphen) do not pad the field
  _  (underscore) pad with spaces
  0  (zero) pad with zeros
  +  pad with zeros, and put '+' before future years with >4 digits
  ^  use upper case if possible
  #  use opposite case if possible

After any flags comes an optional field width, as a decimal number;
then an optional modifier, which is either
E to use the locale's alternate representations if available, or
O to use the locale's alternate numeric symbols if available.
`
}
