// Package getopt implements util-linux getopt(1): it parses a script's
// parameters as glibc's getopt_long would and prints them normalised, one
// option per word, quoted for the shell, with the operands after "--".
package getopt

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/bashbox/bashbox/builtins"
)

const helpText = `
Usage:
 getopt <optstring> <parameters>
 getopt [options] [--] <optstring> <parameters>
 getopt [options] -o|--options <optstring> [options] [--] <parameters>

Parse command options.

Options:
 -a, --alternative             allow long options starting with single -
 -l, --longoptions <longopts>  the long options to be recognized
 -n, --name <progname>         the name under which errors are reported
 -o, --options <optstring>     the short options to be recognized
 -q, --quiet                   disable error reporting by getopt(3)
 -Q, --quiet-output            no normal output
 -s, --shell <shell>           set quoting conventions to those of <shell>
 -T, --test                    test for getopt(1) version
 -u, --unquoted                do not quote the output

 -h, --help                    display this help
 -V, --version                 display version

For more details see getopt(1).
`

// Exit statuses, as util-linux documents them.
const (
	exitParse  = 1 // getopt(3) reported errors in the parameters
	exitParams = 2 // getopt(1) itself was called wrongly
	exitTest   = 4 // -T: this is the enhanced getopt
)

// shell is the quoting convention of the output.
type shell int

const (
	shellSh shell = iota
	shellCsh
)

// config is getopt(1)'s own command line.
type config struct {
	alternative, quiet, quietOut, unquoted, test bool
	name                                         string
	short                                        *string
	long                                         []longOpt
	sh                                           shell
}

// self is getopt(1)'s own option table: '+' semantics (stop at the first
// operand), as util-linux parses it.
var self = []longOpt{
	{"alternative", noArg, 'a'}, {"help", noArg, 'h'}, {"longoptions", reqArg, 'l'},
	{"name", reqArg, 'n'}, {"options", reqArg, 'o'}, {"quiet", noArg, 'q'},
	{"quiet-output", noArg, 'Q'}, {"shell", reqArg, 's'}, {"test", noArg, 'T'},
	{"unquoted", noArg, 'u'}, {"version", noArg, 'V'},
}

// Run is the getopt command.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	_, compat := c.LookupEnv("GETOPT_COMPATIBLE")
	if len(args) == 0 {
		return paramError(c, "missing optstring argument")
	}
	cfg := config{name: "getopt"}
	if args[0] == "" || args[0][0] != '-' || compat {
		// Compatible mode: getopt OPTSTRING PARAMETERS, unquoted.
		cfg.unquoted = true
		s := args[0]
		cfg.short = &s
		return cfg.run(c, args[1:])
	}
	p := parser{name: "getopt", short: "+ao:l:n:qQs:TuhV", long: self, args: append([]string{"getopt"}, args...), errw: c.Stderr}
	for {
		opt, arg, done := p.next()
		if done {
			break
		}
		switch opt {
		case '?', ':':
			c.TryHelp(0)
			return exitParams
		case 'a':
			cfg.alternative = true
		case 'h':
			io.WriteString(c.Stdout, helpText)
			return 0
		case 'V':
			fmt.Fprintf(c.Stdout, "getopt from util-linux 2.38.1\n")
			return 0
		case 'o':
			s := arg
			cfg.short = &s
		case 'l':
			cfg.long = append(cfg.long, parseLong(arg)...)
		case 'n':
			cfg.name = arg
		case 'q':
			cfg.quiet = true
		case 'Q':
			cfg.quietOut = true
		case 's':
			switch arg {
			case "sh", "bash":
				cfg.sh = shellSh
			case "csh", "tcsh":
				cfg.sh = shellCsh
			default:
				return paramError(c, "unknown shell after -s or --shell argument")
			}
		case 'T':
			cfg.test = true
		case 'u':
			cfg.unquoted = true
		}
	}
	if cfg.test {
		return exitTest
	}
	rest := p.args[p.optind:]
	if cfg.short == nil {
		if len(rest) == 0 {
			return paramError(c, "missing optstring argument")
		}
		s := rest[0]
		cfg.short = &s
		rest = rest[1:]
	}
	return cfg.run(c, rest)
}

func paramError(c *builtins.Call, msg string) int {
	fmt.Fprintf(c.Stderr, "%s: %s\n", c.Name(), msg)
	c.TryHelp(0)
	return exitParams
}

// run parses params with the configured options and prints the result.
func (cfg *config) run(c *builtins.Call, params []string) int {
	var errw io.Writer = c.Stderr
	if cfg.quiet {
		errw = io.Discard
	}
	p := parser{name: cfg.name, short: *cfg.short, long: cfg.long, longOnly: cfg.alternative,
		args: append([]string{cfg.name}, params...), errw: errw}
	_, p.posix = c.LookupEnv("POSIXLY_CORRECT")
	var b strings.Builder
	status := 0
	for {
		opt, arg, done := p.next()
		if done {
			break
		}
		switch {
		case opt == '?' || opt == ':':
			status = exitParse
		case opt == nonOpt:
			b.WriteString(" " + cfg.normalize(arg))
		case opt == longFound:
			lo := p.found
			b.WriteString(" --" + lo.name)
			if lo.arg != noArg {
				b.WriteString(" " + cfg.normalize(arg))
			}
		default:
			fmt.Fprintf(&b, " -%c", opt)
			if i := strings.IndexByte(p.short, byte(opt)); i >= 0 && i+1 < len(p.short) && p.short[i+1] == ':' {
				b.WriteString(" " + cfg.normalize(arg))
			}
		}
	}
	if cfg.quietOut {
		return status
	}
	b.WriteString(" --")
	for _, a := range p.args[p.optind:] {
		b.WriteString(" " + cfg.normalize(a))
	}
	b.WriteString("\n")
	io.WriteString(c.Stdout, b.String())
	return status
}

// normalize quotes one word for the configured shell.
func (cfg *config) normalize(s string) string {
	if cfg.unquoted {
		return s
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '\'':
			b.WriteString(`'\''`)
		case cfg.sh == shellCsh && ch == '!':
			b.WriteString(`'\!'`)
		case cfg.sh == shellCsh && ch == '\n':
			b.WriteString("'\\\n'")
		case cfg.sh == shellCsh && (ch == ' ' || ch == '\t' || ch == '\r'):
			b.WriteString("'\\" + string(ch) + "'")
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// parseLong reads a -l list: names separated by commas or white space,
// each with ':' (required argument) or '::' (optional) after it.
func parseLong(s string) []longOpt {
	var out []longOpt
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		mode := noArg
		switch {
		case strings.HasSuffix(f, "::"):
			mode, f = optArg, strings.TrimSuffix(f, "::")
		case strings.HasSuffix(f, ":"):
			mode, f = reqArg, strings.TrimSuffix(f, ":")
		}
		if f != "" {
			out = append(out, longOpt{f, mode, longFound})
		}
	}
	return out
}
