package xargs

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// parseNum reads a numeric option value as GNU xargs does: a decimal
// integer with optional leading white space, at least min (and at most
// max when max >= 0). Out-of-range values are fatal, or clamped with a
// warning.
func (x *xargs) parseNum(s string, opt byte, min, max int64, fatal bool) (int64, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if !errors.As(err, &ne) || ne.Err != strconv.ErrRange {
			x.usageFail(fmt.Sprintf("invalid number \"%s\" for -%c option", s, opt))
			return 0, false
		}
	}
	if v < min {
		msg := fmt.Sprintf("value %s for -%c option should be >= %d", s, opt, min)
		if fatal {
			x.usageFail(msg)
			return 0, false
		}
		x.c.Errorf("%s", msg)
		v = min
	} else if max >= 0 && v > max {
		msg := fmt.Sprintf("value %s for -%c option should be <= %d", s, opt, max)
		if fatal {
			x.usageFail(msg)
			return 0, false
		}
		x.c.Errorf("%s", msg)
		v = max
	}
	return v, true
}

func (x *xargs) envSize() int {
	n := 0
	for _, kv := range x.c.Env {
		n += len(kv) + 1
	}
	return n
}

func (x *xargs) parseOptions() (int, bool) {
	c := x.c
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1), true
	}
	limit := argMax - 2048 - x.envSize()
	x.maxChars = min(defaultMaxChars, limit)
	var eofSet bool
	for _, o := range opts {
		switch o.Key {
		case "null":
			x.delimited, x.delim = true, 0
		case "arg-file":
			x.argFile, x.hasArgFile = o.Value, true
		case "delimiter":
			d, msg := parseDelim(o.Value)
			if msg != "" {
				c.Errorf("%s", msg)
				return 1, true
			}
			x.delimited, x.delim = true, d
		case "E":
			x.eof, eofSet = o.Value, true
		case "eof":
			x.eof, eofSet = o.Value, o.Has
		case "I", "replace":
			x.replace, x.hasReplace = o.Value, true
			if o.Key == "replace" && !o.Has {
				x.replace = "{}"
			}
			if x.maxLines != 0 {
				x.warnf("options --max-lines and --replace/-I/-i are mutually exclusive, ignoring previous --max-lines value")
				x.maxLines = 0
			}
			if x.maxArgs != 0 {
				x.warnf("options --max-args and --replace/-I/-i are mutually exclusive, ignoring previous --max-args value")
				x.maxArgs = 0
			}
		case "L", "max-lines":
			n := int64(1)
			if o.Has {
				var ok bool
				if n, ok = x.parseNum(o.Value, 'L', 1, -1, true); !ok {
					return 1, true
				}
			}
			x.maxLines = int(n)
			if x.maxArgs != 0 {
				x.warnf("options --max-args and -L are mutually exclusive, ignoring previous --max-args value")
				x.maxArgs = 0
			}
			if x.hasReplace {
				x.warnf("options --replace and -L are mutually exclusive, ignoring previous --replace value")
				x.hasReplace = false
			}
		case "max-args":
			n, ok := x.parseNum(o.Value, 'n', 1, -1, true)
			if !ok {
				return 1, true
			}
			x.maxArgs = int(n)
			if !(n == 1 && x.hasReplace) {
				if x.maxLines != 0 {
					x.warnf("options --max-lines and --max-args/-n are mutually exclusive, ignoring previous --max-lines value")
					x.maxLines = 0
				}
				if x.hasReplace {
					x.warnf("options --replace and --max-args/-n are mutually exclusive, ignoring previous --replace value")
					x.hasReplace = false
				}
			}
		case "open-tty":
			x.openTTY = true
		case "max-procs":
			n, ok := x.parseNum(o.Value, 'P', 0, maxProcsLimit, true)
			if !ok {
				return 1, true
			}
			x.procs = int(n)
		case "interactive":
			x.prompt, x.verbose = true, true
		case "no-run-if-empty":
			x.noRunEmpty = true
		case "max-chars":
			n, ok := x.parseNum(o.Value, 's', 1, int64(limit), false)
			if !ok {
				return 1, true
			}
			x.maxChars = int(n)
		case "show-limits":
			x.showLimits = true
		case "verbose":
			x.verbose = true
		case "exit":
			x.exitTooBig = true
		case "process-slot-var":
			if strings.Contains(o.Value, "=") || o.Value == "" {
				c.Errorf("environment variable name %s contains '='", quote.New(c).Q(o.Value))
				return 1, true
			}
			x.slotVar = o.Value
		case "help":
			help(c)
			return 0, true
		case "version":
			return c.Version(), true
		}
	}
	if x.delimited && eofSet && x.eof != "" {
		fmt.Fprintf(c.Stderr, "%s: warning: the -E option has no effect if -0 or -d is used.\n\n", c.Name())
	}
	if x.delimited {
		x.eof = ""
	}
	if x.hasReplace {
		x.maxLines = 1
		x.exitTooBig = true
	}
	if x.procs == 0 {
		x.procs = maxProcsLimit
	}
	x.cmd = operands
	if len(x.cmd) == 0 {
		x.cmd = []string{"echo"}
	}
	if x.showLimits {
		env := x.envSize()
		fmt.Fprintf(c.Stderr, "Your environment variables take up %d bytes\n", env)
		fmt.Fprintf(c.Stderr, "POSIX upper limit on argument length (this system): %d\n", limit)
		fmt.Fprintf(c.Stderr, "POSIX smallest allowable upper limit on argument length (all systems): 4096\n")
		fmt.Fprintf(c.Stderr, "Maximum length of command we could actually use: %d\n", limit-env)
		fmt.Fprintf(c.Stderr, "Size of command buffer we are actually using: %d\n", x.maxChars)
		fmt.Fprintf(c.Stderr, "Maximum parallelism (--max-procs must be no greater): %d\n\n", maxProcsLimit)
	}
	return 0, false
}

// parseDelim reads the argument of -d: one character or a backslash
// escape (\n, \t, \\, \0, octal \NNN, hex \xHH).
func parseDelim(s string) (byte, string) {
	bad := fmt.Sprintf("Invalid input delimiter specification %s: the delimiter must be either a single character or an escape sequence starting with \\.", s)
	if len(s) == 1 {
		return s[0], ""
	}
	if len(s) < 2 || s[0] != '\\' {
		return 0, bad
	}
	switch s[1] {
	case 'a':
		return chkLen(s, 2, '\a', bad)
	case 'b':
		return chkLen(s, 2, '\b', bad)
	case 'f':
		return chkLen(s, 2, '\f', bad)
	case 'n':
		return chkLen(s, 2, '\n', bad)
	case 'r':
		return chkLen(s, 2, '\r', bad)
	case 't':
		return chkLen(s, 2, '\t', bad)
	case 'v':
		return chkLen(s, 2, '\v', bad)
	case '\\':
		return chkLen(s, 2, '\\', bad)
	case 'x':
		v, err := strconv.ParseUint(s[2:], 16, 8)
		if err != nil || len(s) == 2 {
			return 0, fmt.Sprintf("Invalid escape sequence %s in input delimiter specification; character values must not exceed 0xff.", s)
		}
		return byte(v), ""
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v, err := strconv.ParseUint(s[1:], 8, 16)
		if err != nil || v > 0o377 {
			return 0, fmt.Sprintf("Invalid escape sequence %s in input delimiter specification; character values must not exceed 0377.", s)
		}
		return byte(v), ""
	}
	return 0, fmt.Sprintf("Invalid escape sequence %s in input delimiter specification.", s)
}

func chkLen(s string, n int, b byte, bad string) (byte, string) {
	if len(s) != n {
		return 0, bad
	}
	return b, ""
}
