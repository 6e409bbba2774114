package git

import (
	"fmt"
	"strconv"
	"strings"
)

const (
	argNone = iota
	argRequired
	argOptional    // only attached: --opt=value, -oVALUE
	argLastDefault // takes the next argument, unless it is the last option
)

// optSpec is one option of a subcommand, parsed as git's parse-options does.
type optSpec struct {
	short byte
	long  string
	arg   int
	noNeg bool // "--no-LONG" is refused
}

func (o *optSpec) key() string {
	if o.long != "" {
		return o.long
	}
	return string(o.short)
}

// optVal is one option found on the command line.
type optVal struct {
	key string
	val string
	has bool
	neg bool // given as --no-LONG
}

// parsedArgs is a parsed command line.
type parsedArgs struct {
	opts     []optVal
	args     []string // operands, in order
	dashdash int      // index in args where "--" was, or -1
}

func (p *parsedArgs) flag(key string) bool {
	v := false
	for _, o := range p.opts {
		if o.key == key {
			v = !o.neg
		}
	}
	return v
}

// given reports whether the option appeared at all (negated or not).
func (p *parsedArgs) given(key string) bool {
	for _, o := range p.opts {
		if o.key == key {
			return true
		}
	}
	return false
}

func (p *parsedArgs) str(key string) (string, bool) {
	v, ok := "", false
	for _, o := range p.opts {
		if o.key == key {
			if o.neg {
				v, ok = "", false
			} else {
				v, ok = o.val, true
			}
		}
	}
	return v, ok
}

func (p *parsedArgs) all(key string) []string {
	var vs []string
	for _, o := range p.opts {
		if o.key == key {
			if o.neg {
				vs = nil
			} else {
				vs = append(vs, o.val)
			}
		}
	}
	return vs
}

func (p *parsedArgs) count(key string) int {
	n := 0
	for _, o := range p.opts {
		if o.key == key {
			if o.neg {
				n = 0
			} else {
				n++
			}
		}
	}
	return n
}

// beforeDashDash returns the operands before "--" and after it.
func (p *parsedArgs) split() (before, after []string, hasDD bool) {
	if p.dashdash < 0 {
		return p.args, nil, false
	}
	return p.args[:p.dashdash], p.args[p.dashdash:], true
}

type optError struct{ msg string }

func (e *optError) Error() string { return e.msg }

// parseOpts parses args against specs. stopAtOperand ends option parsing at
// the first operand.
func parseOpts(args []string, specs []optSpec, stopAtOperand bool) (*parsedArgs, error) {
	p := &parsedArgs{dashdash: -1}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			p.dashdash = len(p.args)
			p.args = append(p.args, args[i+1:]...)
			return p, nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			spec, neg, err := findLongOpt(specs, name)
			if err != nil {
				if _, ok := err.(*optError); ok && strings.HasPrefix(err.Error(), "unknown") {
					return nil, &optError{fmt.Sprintf("unknown option `%s'", a[2:])}
				}
				return nil, err
			}
			ov := optVal{key: spec.key(), neg: neg}
			if neg {
				if hasVal {
					return nil, &optError{fmt.Sprintf("option `no-%s' takes no value", spec.long)}
				}
				p.opts = append(p.opts, ov)
				continue
			}
			switch spec.arg {
			case argNone:
				if hasVal {
					return nil, &optError{fmt.Sprintf("option `%s' takes no value", spec.long)}
				}
			case argRequired:
				if !hasVal {
					if i+1 >= len(args) {
						return nil, &optError{fmt.Sprintf("option `%s' requires a value", spec.long)}
					}
					i++
					val = args[i]
				}
				ov.val, ov.has = val, true
			case argOptional:
				ov.val, ov.has = val, hasVal
			case argLastDefault:
				if !hasVal && i+1 < len(args) {
					i++
					val, hasVal = args[i], true
				}
				ov.val, ov.has = val, hasVal
			}
			p.opts = append(p.opts, ov)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				spec := findShortOpt(specs, a[j])
				if spec == nil {
					return nil, &optError{fmt.Sprintf("unknown switch `%c'", a[j])}
				}
				ov := optVal{key: spec.key()}
				if spec.arg != argNone {
					if j+1 < len(a) {
						ov.val, ov.has = a[j+1:], true
					} else if spec.arg == argRequired {
						if i+1 >= len(args) {
							return nil, &optError{fmt.Sprintf("switch `%c' requires a value", a[j])}
						}
						i++
						ov.val, ov.has = args[i], true
					}
					p.opts = append(p.opts, ov)
					break
				}
				p.opts = append(p.opts, ov)
			}
		default:
			if stopAtOperand {
				p.args = append(p.args, args[i:]...)
				return p, nil
			}
			p.args = append(p.args, a)
		}
	}
	return p, nil
}

func findShortOpt(specs []optSpec, c byte) *optSpec {
	for i := range specs {
		if specs[i].short == c {
			return &specs[i]
		}
	}
	return nil
}

func findLongOpt(specs []optSpec, name string) (*optSpec, bool, error) {
	// Exact matches first, then negations.
	for i := range specs {
		if specs[i].long != "" && specs[i].long == name {
			return &specs[i], false, nil
		}
	}
	for i := range specs {
		s := &specs[i]
		if s.long == "" {
			continue
		}
		if !s.noNeg && "no-"+s.long == name {
			return s, true, nil
		}
		if strings.HasPrefix(s.long, "no-") && s.long[3:] == name {
			return s, true, nil
		}
	}
	if name == "" {
		return nil, false, &optError{"unknown option"}
	}
	var match *optSpec
	var matchNeg bool
	var names []string
	for i := range specs {
		s := &specs[i]
		if s.long == "" {
			continue
		}
		if strings.HasPrefix(s.long, name) {
			if match != nil && match != s {
				names = append(names, s.long)
				continue
			}
			match, matchNeg = s, false
			names = append(names, s.long)
		} else if !s.noNeg && strings.HasPrefix("no-"+s.long, name) && len(name) > 3 {
			if match != nil && match != s {
				names = append(names, "no-"+s.long)
				continue
			}
			match, matchNeg = s, true
			names = append(names, "no-"+s.long)
		}
	}
	if len(names) > 1 {
		return nil, false, &optError{fmt.Sprintf("ambiguous option: %s (could be --%s or --%s)", name, names[0], names[1])}
	}
	if match == nil {
		return nil, false, &optError{"unknown option"}
	}
	return match, matchNeg, nil
}

// parse parses a subcommand's options, printing git's usage error (exit
// 129) on a bad command line, and the usage on -h.
func (g *cmd) parse(args []string, specs []optSpec) *parsedArgs {
	return g.parseMode(args, specs, false)
}

func (g *cmd) parseMode(args []string, specs []optSpec, stop bool) *parsedArgs {
	hasH := findShortOpt(specs, 'h') != nil
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" && (!hasH || len(args) == 1) {
			g.shortHelp()
		}
	}
	p, err := parseOpts(args, specs, stop)
	if err != nil {
		g.usageError(err.Error())
	}
	return p
}

// helpOnStderr are the subcommands whose -h text goes to standard error.
var helpOnStderr = map[string]bool{"status": true, "commit": true, "diff": true, "branch": true,
	"rev-parse": true, "ls-files": true, "rev-list": true}

// shortHelp answers -h: the usage and options, exit 129.
func (g *cmd) shortHelp() {
	if helpOnStderr[g.name] {
		g.subHelp(129, g.stderr)
	} else {
		g.subHelp(129, g.c.Stdout)
	}
	panic(exitCode(129))
}

// usageError prints "error: MSG" (and the usage, for unknown and
// ambiguous options, as git does), and exits 129.
func (g *cmd) usageError(msg string) {
	g.out.Flush()
	fmt.Fprintf(g.stderr, "error: %s\n", msg)
	if strings.HasPrefix(msg, "unknown") || strings.HasPrefix(msg, "ambiguous") {
		g.subHelp(129, g.stderr)
	}
	panic(exitCode(129))
}

// atoi parses a decimal number as git does for integer options.
func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

// unknownOption is the option, with its dashes, that a parseOpts error
// names as unknown; ok is false for other errors.
func unknownOption(err error) (opt string, ok bool) {
	msg := err.Error()
	arg := ""
	if i := strings.IndexByte(msg, '`'); i >= 0 {
		arg = strings.TrimSuffix(msg[i+1:], "'")
	}
	switch {
	case strings.HasPrefix(msg, "unknown option"):
		return "--" + arg, true
	case strings.HasPrefix(msg, "unknown switch"):
		return "-" + arg, true
	}
	return "", false
}
