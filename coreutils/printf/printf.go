// Package printf implements GNU coreutils' printf (/usr/bin/printf, env
// printf): the format is reused while arguments remain, %b expands
// backslash escapes in its argument, %q quotes it for the shell, numeric
// arguments may be C constants (0x10, 010, 'c) and are checked with
// GNU's warnings, and floating-point conversions use long double
// precision. The engine is internal/printf, shared with the shell's
// printf builtin; this package gives it GNU's rules and messages.
package printf

import (
	"context"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/internal/printf"
)

// Run formats and prints its arguments.
func Run(ctx context.Context, c *builtins.Call) int {
	args, st, done := utilcmd.Operators(c, helpText(c.Name()), 1)
	if done {
		return st
	}
	out := textfmt.NewOutput(c.Stdout)
	var tick textfmt.Tick
	q := func(s string) string { return utilcmd.Q(c, s) }
	res := printf.Run(out, &printf.Dialect{
		UTF8:  utilcmd.UTF8(c),
		Quote: func(s string) string { return quote.New(c).Quote(s, quote.ShellEscape) },
		Say: func(m printf.Message, text string) {
			switch m {
			case printf.BadConversion, printf.MissingVerb:
				c.Errorf("%s: invalid conversion specification", text)
			case printf.BadWidth:
				c.Errorf("invalid field width: %s", q(text))
			case printf.BadPrecision:
				c.Errorf("invalid precision: %s", q(text))
			case printf.BadHexEscape:
				c.Errorf("missing hexadecimal number in escape")
			case printf.BadUnicode:
				c.Errorf("invalid universal character name %s", text)
			case printf.ExcessArgs:
				c.Errorf("warning: ignoring excess arguments, starting with %s", q(text))
			}
		},
		Number: func(a string, p printf.Problem, _ string) bool {
			switch {
			case p&printf.AfterChar != 0:
				c.Errorf("warning: %s: character(s) following character constant have been ignored", a)
				return false
			case p&printf.OutOfRange != 0:
				c.Errorf("%s: Numerical result out of range", q(a))
			case p&printf.NotNumber != 0:
				c.Errorf("%s: expected a numeric value", q(a))
			default:
				c.Errorf("%s: value not completely converted", q(a))
			}
			return true
		},
		Cancelled: func() bool { return out.Failed() || tick.Stop(ctx) },
	}, args[0], args[1:])
	switch res.End {
	case printf.Stopped:
		// \c ends printf with status 0 whatever came before.
		return out.Finish(c, 0)
	case printf.Cancelled:
		if !out.Failed() {
			out.Flush()
			return 130
		}
	}
	return out.Finish(c, res.Status)
}

func helpText(name string) string {
	return "Usage: " + name + " FORMAT [ARGUMENT]...\n  or:  " + name + " OPTION\n" +
		"Print ARGUMENT(s) according to FORMAT, or execute according to OPTION:\n\n" +
		utilcmd.Trailer() + `
FORMAT controls the output as in C printf.  Interpreted sequences are:

  \"      double quote
  \\      backslash
  \a      alert (BEL)
  \b      backspace
  \c      produce no further output
  \e      escape
  \f      form feed
  \n      new line
  \r      carriage return
  \t      horizontal tab
  \v      vertical tab
  \NNN    byte with octal value NNN (1 to 3 digits)
  \xHH    byte with hexadecimal value HH (1 to 2 digits)
  \uHHHH  Unicode (ISO/IEC 10646) character with hex value HHHH (4 digits)
  \UHHHHHHHH  Unicode character with hex value HHHHHHHH (8 digits)
  %%      a single %
  %b      ARGUMENT as a string with '\' escapes interpreted,
          except that octal escapes are of the form \0 or \0NNN
  %q      ARGUMENT is printed in a format that can be reused as shell input,
          escaping non-printable characters with the proposed POSIX $'' syntax.

and all C format specifications ending with one of diouxXfeEgGcs, with
ARGUMENTs converted to proper type first.  Variable widths are handled.
`
}
