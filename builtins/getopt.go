package builtins

import (
	"fmt"
	"strings"
)

// ArgMode says whether an option takes an argument.
type ArgMode int

const (
	NoArg ArgMode = iota
	RequiredArg
	OptionalArg // only as --long=value, or attached to a short option
)

// Option describes one option, with a short form, a long form or both.
type Option struct {
	Short byte
	Long  string
	Arg   ArgMode
}

// Opt is one option found on the command line. Key is the long name when
// the option has one, else the short letter.
type Opt struct {
	Key   string
	Value string
	Has   bool // a value was given
}

// Options is a command's option table.
type Options struct {
	List []Option
	// StopAtOperand ends option parsing at the first operand, as commands
	// that run other commands need (env, xargs, timeout).
	StopAtOperand bool
}

// UsageError is a bad command line, with GNU getopt's message.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func (s *Options) key(o *Option) string {
	if o.Long != "" {
		return o.Long
	}
	return string(o.Short)
}

// Parse reads args (without the command name) the way GNU getopt_long
// does: grouped short options, attached or separate arguments, unambiguous
// long prefixes, "--" ending options, and operands permuted after options.
func (s *Options) Parse(args []string) ([]Opt, []string, error) {
	var opts []Opt
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...), nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			o, err := s.findLong(name)
			if err != nil {
				if ue, ok := err.(*UsageError); ok && strings.HasPrefix(ue.Msg, "unrecognized option") {
					// GNU names the whole argument, value included.
					err = &UsageError{fmt.Sprintf("unrecognized option '%s'", a)}
				}
				return nil, nil, err
			}
			op := Opt{Key: s.key(o)}
			switch o.Arg {
			case NoArg:
				if hasVal {
					return nil, nil, &UsageError{fmt.Sprintf("option '--%s' doesn't allow an argument", o.Long)}
				}
			case RequiredArg:
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, &UsageError{fmt.Sprintf("option '--%s' requires an argument", o.Long)}
					}
					i++
					val = args[i]
				}
				op.Value, op.Has = val, true
			case OptionalArg:
				op.Value, op.Has = val, hasVal
			}
			opts = append(opts, op)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				o := s.findShort(a[j])
				if o == nil {
					return nil, nil, &UsageError{fmt.Sprintf("invalid option -- '%c'", a[j])}
				}
				op := Opt{Key: s.key(o)}
				if o.Arg != NoArg {
					if j+1 < len(a) {
						op.Value, op.Has = a[j+1:], true
					} else if o.Arg == RequiredArg {
						if i+1 >= len(args) {
							return nil, nil, &UsageError{fmt.Sprintf("option requires an argument -- '%c'", a[j])}
						}
						i++
						op.Value, op.Has = args[i], true
					}
					opts = append(opts, op)
					break
				}
				opts = append(opts, op)
			}
		default:
			if s.StopAtOperand {
				return opts, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

func (s *Options) findShort(c byte) *Option {
	for i := range s.List {
		if s.List[i].Short == c {
			return &s.List[i]
		}
	}
	return nil
}

func (s *Options) findLong(name string) (*Option, error) {
	var matches []*Option
	for i := range s.List {
		o := &s.List[i]
		if o.Long == "" {
			continue
		}
		if o.Long == name {
			return o, nil
		}
		if strings.HasPrefix(o.Long, name) && name != "" {
			matches = append(matches, o)
		}
	}
	switch len(matches) {
	case 0:
		return nil, &UsageError{fmt.Sprintf("unrecognized option '--%s'", name)}
	case 1:
		return matches[0], nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "option '--%s' is ambiguous; possibilities:", name)
	for _, m := range matches {
		fmt.Fprintf(&b, " '--%s'", m.Long)
	}
	return nil, &UsageError{b.String()}
}

// UsageFail prints a usage error the way GNU tools do and returns status:
//
//	grep: invalid option -- 'k'
//	Usage: grep [OPTION]... PATTERNS [FILE]...      (when usage is not "")
//	Try 'grep --help' for more information.
func (c *Call) UsageFail(err error, usage string, status int) int {
	c.Errorf("%s", err.Error())
	if usage != "" {
		fmt.Fprintf(c.Stderr, "Usage: %s %s\n", c.Name(), usage)
	}
	return c.TryHelp(status)
}

// Version prints the --version text of a sandbox command.
func (c *Call) Version() int {
	fmt.Fprintf(c.Stdout, "%s (bashbox) %s\n", c.Name(), ReleaseVersion)
	return 0
}

// ReleaseVersion is bashbox's version, shown by --version.
const ReleaseVersion = "0.1.0"
