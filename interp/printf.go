package interp

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/timefmt"
	"github.com/bashbox/bashbox/internal/printf"
)

// printfEnv is what a printf run needs from the shell: the clock for
// %(fmt)T, the zone, and the variable setter for %n.
type printfEnv struct {
	now, start int64 // -1 and -2 in %(fmt)T
	loc        *time.Location
	setVar     func(name, val string) bool
	// brokenPipe answers a write whose reader is gone (see
	// frame.brokenPipe); nil: the write fails with status 1.
	brokenPipe func() int
}

// bashPrintf formats format with args into w, reporting errors to errw
// (which adds the shell's prefix). It returns the exit status. The engine
// is internal/printf, shared with printf(1); this gives it bash's rules
// and messages. The output is written at the end as one piece, as bash
// flushes its buffered output after the warnings.
func bashPrintf(w io.Writer, errw io.Writer, env printfEnv, format string, args []string) int {
	warn := func(format string, args ...any) { fmt.Fprintf(errw, "printf: "+format+"\n", args...) }
	var out strings.Builder
	res := printf.Run(&out, &printf.Dialect{
		Shell: true,
		UTF8:  true,
		Quote: shellQuote,
		Time: func(layout string, secs int64, _ bool) string {
			switch secs {
			case -1:
				secs = env.now
			case -2:
				secs = env.start
			}
			if layout == "" {
				layout = "%X"
			}
			return timefmt.Strftime(time.Unix(secs, 0).In(env.loc), layout)
		},
		SetVar: func(name, value string) {
			if env.setVar != nil {
				env.setVar(name, value)
			}
		},
		Say: func(m printf.Message, text string) {
			switch m {
			case printf.BadConversion:
				warn("`%s': invalid format character", text[len(text)-1:])
			case printf.MissingVerb:
				warn("`%s': missing format character", text)
			case printf.BadTime:
				warn("`(': invalid time format specification")
			}
		},
		Warn: func(msg string) { warn("%s", msg) },
		Number: func(a string, p printf.Problem, kind string) bool {
			if p&printf.OutOfRange != 0 {
				warn("warning: %s: Numerical result out of range", a)
			}
			if p&(printf.NotNumber|printf.Partial) != 0 {
				warn("%s: invalid %s", a, kind)
				return true
			}
			return false
		},
	}, format, args)
	if _, err := io.WriteString(w, out.String()); err != nil {
		if err == errBadFD {
			warn("write error: Bad file descriptor")
		} else if env.brokenPipe != nil && builtins.IsBrokenPipe(err) {
			return env.brokenPipe()
		}
		return 1
	}
	return res.Status
}

// unescape expands backslash escapes at the start of s (format mode) or
// in all of s (%b mode, where \c stops all output). It returns the text,
// the bytes consumed and whether \c was met.
func unescape(s string, all bool) (string, int, bool) {
	if all {
		return printf.Unescape(s, printf.InArg, nil)
	}
	return printf.Unescape(s, printf.InFormat, nil)
}

// unescapeMode is unescape; echo (echo -e) knows only the \0NNN octal
// form and leaves \NNN as it is.
func unescapeMode(s string, all, echo bool) (string, int, bool) {
	if echo {
		return printf.Unescape(s, printf.InEcho, nil)
	}
	return unescape(s, all)
}

// digits reads up to max digits of base at the start of s.
func digits(s string, base, max int) (int, int) { return printf.Digits(s, base, max) }

// shellQuote quotes s the way bash's printf %q does.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return ansiQuote(s)
		}
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r >= 0x80:
		case strings.ContainsRune("_-./:=+@%", r):
		case (r == '~' || r == '#') && i > 0:
		default:
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		case 0x1b:
			b.WriteString(`\E`)
		case '\'', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// singleQuote quotes s for re-parsing by the shell.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
