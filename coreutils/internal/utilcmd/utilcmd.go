// Package utilcmd holds the helpers shared by the utility commands
// (checksums, base64/base32, expr, bc, date, printf, numfmt, shuf, tsort,
// factor and the system information commands): GNU-style usage exits and
// quoting for diagnostics. Their buffered output and help printing are
// textfmt's.
package utilcmd

import (
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// Trailer is the --help/--version part of a GNU coreutils help text.
func Trailer() string {
	return "      --help        display this help and exit\n" +
		"      --version     output version information and exit\n"
}

// Fail prints "NAME: message" and the --help hint, and returns status.
func Fail(c *builtins.Call, status int, format string, a ...any) int {
	c.Errorf(format, a...)
	return c.TryHelp(status)
}

// UTF8 reports whether the call's locale uses UTF-8.
func UTF8(c *builtins.Call) bool { return quote.UTF8Locale(c.Getenv) }

// Q quotes an argument as GNU's quote() does: ‘x’ in a UTF-8 locale.
func Q(c *builtins.Call, s string) string { return quote.New(c).Q(s) }

// F quotes a file name as quotef does: only when needed, shell style.
func F(c *builtins.Call, s string) string { return quote.New(c).F(s) }

// AF quotes a file name as quoteaf does: always, shell style.
func AF(c *builtins.Call, s string) string { return quote.New(c).AF(s) }

// Parse parses a GNU command line with spec plus --help and --version,
// answering those two: help is printed as it is. When done is set the command returns status at once
// (bad after a usage error).
func Parse(c *builtins.Call, spec builtins.Options, help string, bad int) (opts []builtins.Opt, operands []string, status int, done bool) {
	spec.List = append(spec.List[:len(spec.List):len(spec.List)],
		builtins.Option{Long: "help"}, builtins.Option{Long: "version"})
	opts, operands, err := spec.Parse(c.Args[1:])
	if err != nil {
		return nil, nil, c.UsageFail(err, "", bad), true
	}
	for _, o := range opts {
		switch o.Key {
		case "help":
			io.WriteString(c.Stdout, help)
			return nil, nil, 0, true
		case "version":
			return nil, nil, c.Version(), true
		}
	}
	return opts, operands, 0, false
}

// NoOptions is Parse for a command whose only options are --help and
// --version. stopAtOperand keeps options after the first operand as
// operands (nohup's COMMAND and its arguments).
func NoOptions(c *builtins.Call, help string, bad int, stopAtOperand bool) (operands []string, status int, done bool) {
	_, operands, status, done = Parse(c, builtins.Options{StopAtOperand: stopAtOperand}, help, bad)
	return operands, status, done
}

// Operands checks the number of operands as GNU words it ("missing
// operand", "missing operand after 'X'", "extra operand 'X'"); max < 0
// means no limit. On failure it returns status with the --help hint.
func Operands(c *builtins.Call, operands []string, min, max, status int) (int, bool) {
	switch {
	case len(operands) < min && len(operands) == 0:
		return Fail(c, status, "missing operand"), false
	case len(operands) < min:
		return Fail(c, status, "missing operand after %s", Q(c, operands[len(operands)-1])), false
	case max >= 0 && len(operands) > max:
		return Fail(c, status, "extra operand %s", Q(c, operands[max])), false
	}
	return 0, true
}

// Operators parses the arguments of a command that reads everything as
// operands (printf, expr): --help and --version count only as the sole
// argument, a leading "--" is dropped, and no operand at all is "missing
// operand" with status bad. done says the call was answered.
func Operators(c *builtins.Call, help string, bad int) (args []string, status int, done bool) {
	args = c.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			io.WriteString(c.Stdout, help)
			return nil, 0, true
		case "--version":
			return nil, c.Version(), true
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return nil, Fail(c, bad, "missing operand"), true
	}
	return args, 0, false
}

// HelpVersion answers --help (through help) and --version when o is one
// of them. Commands call it for each option in turn, in their own loop,
// so that an option rejected before it still wins as in GNU's getopt
// loop (du --block-size=x --help fails). done says o was answered.
func HelpVersion(c *builtins.Call, o builtins.Opt, help func(*builtins.Call)) (status int, done bool) {
	switch o.Key {
	case "help":
		help(c)
		return 0, true
	case "version":
		return c.Version(), true
	}
	return 0, false
}
