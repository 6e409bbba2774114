package getopt

import (
	"fmt"
	"io"
	"strings"
)

// argMode says whether a long option takes an argument.
type argMode int

const (
	noArg argMode = iota
	reqArg
	optArg
)

// longOpt is one long option; val is what next returns when it is found.
type longOpt struct {
	name string
	arg  argMode
	val  int
}

// What next returns besides option characters.
const (
	nonOpt    = 1  // an operand, in return-in-order mode ('-' optstring)
	longFound = -2 // a user long option: see parser.found
)

// parser is glibc's getopt_long over args (args[0] the program name),
// with its permutation of operands after the options, its '+' and '-'
// optstring prefixes, long_only mode and its diagnostics.
type parser struct {
	name     string
	short    string
	long     []longOpt
	longOnly bool
	posix    bool
	args     []string
	errw     io.Writer

	optind  int
	init    bool
	order   int // 0 permute, 1 require order, 2 return in order
	quiet   bool
	opts    string // short option characters without the prefixes
	pending string // rest of a group of short options
	ops     []string
	found   longOpt
}

func (p *parser) setup() {
	p.init = true
	p.optind = 1
	s := p.short
	switch {
	case strings.HasPrefix(s, "-"):
		p.order, s = 2, s[1:]
	case strings.HasPrefix(s, "+"):
		p.order, s = 1, s[1:]
	case p.posix:
		p.order = 1
	}
	if strings.HasPrefix(s, ":") {
		p.quiet = true
	}
	p.opts = s
}

func (p *parser) errorf(format string, a ...any) {
	if !p.quiet {
		fmt.Fprintf(p.errw, "%s: %s\n", p.name, fmt.Sprintf(format, a...))
	}
}

// finish leaves args[optind:] as the operands, in order.
func (p *parser) finish(rest []string) (int, string, bool) {
	p.args = append(append(p.args[:1:1], p.ops...), rest...)
	p.optind = 1
	return 0, "", true
}

// next returns the next option and its argument, or done at the end.
func (p *parser) next() (opt int, arg string, done bool) {
	if !p.init {
		p.setup()
	}
	if p.pending == "" {
		for {
			if p.optind >= len(p.args) {
				return p.finish(nil)
			}
			a := p.args[p.optind]
			if a == "--" {
				return p.finish(p.args[p.optind+1:])
			}
			if len(a) > 1 && a[0] == '-' {
				break
			}
			switch p.order {
			case 1:
				return p.finish(p.args[p.optind:])
			case 2:
				p.optind++
				return nonOpt, a, false
			}
			p.ops = append(p.ops, a)
			p.optind++
		}
		a := p.args[p.optind]
		if strings.HasPrefix(a, "--") || p.longOnly && (len(a) > 2 || !p.isShort(a[1])) {
			if r, v, ok := p.longOption(a); ok {
				return r, v, false
			}
		}
		p.pending = a[1:]
		p.optind++
	}
	ch := p.pending[0]
	p.pending = p.pending[1:]
	if !p.isShort(ch) {
		p.errorf("invalid option -- '%c'", ch)
		return '?', "", false
	}
	i := strings.IndexByte(p.opts, ch)
	switch {
	case strings.HasPrefix(p.opts[i+1:], "::"):
		v := p.pending
		p.pending = ""
		return int(ch), v, false
	case strings.HasPrefix(p.opts[i+1:], ":"):
		if p.pending != "" {
			v := p.pending
			p.pending = ""
			return int(ch), v, false
		}
		if p.optind >= len(p.args) {
			p.errorf("option requires an argument -- '%c'", ch)
			if p.quiet {
				return ':', "", false
			}
			return '?', "", false
		}
		p.optind++
		return int(ch), p.args[p.optind-1], false
	}
	return int(ch), "", false
}

func (p *parser) isShort(ch byte) bool {
	return ch != ':' && ch != ';' && strings.IndexByte(p.opts, ch) >= 0
}

// longOption handles args[optind] as a long option. ok is false when, in
// long_only mode, it should be read as short options instead.
func (p *parser) longOption(a string) (int, string, bool) {
	prefix, body := "-", a[1:]
	if strings.HasPrefix(a, "--") {
		prefix, body = "--", a[2:]
	}
	name, val, hasVal := strings.Cut(body, "=")
	var match []longOpt
	exact := false
	for _, lo := range p.long {
		if lo.name == name {
			match, exact = []longOpt{lo}, true
			break
		}
		if strings.HasPrefix(lo.name, name) {
			match = append(match, lo)
		}
	}
	if !exact && len(match) > 1 {
		var b strings.Builder
		fmt.Fprintf(&b, "option '%s%s' is ambiguous; possibilities:", prefix, name)
		for _, m := range match {
			fmt.Fprintf(&b, " '%s%s'", prefix, m.name)
		}
		p.errorf("%s", b.String())
		p.optind++
		return '?', "", true
	}
	if len(match) == 0 {
		if p.longOnly && prefix == "-" && p.isShort(a[1]) {
			return 0, "", false
		}
		p.errorf("unrecognized option '%s%s'", prefix, body)
		p.optind++
		return '?', "", true
	}
	lo := match[0]
	p.optind++
	switch lo.arg {
	case noArg:
		if hasVal {
			p.errorf("option '%s%s' doesn't allow an argument", prefix, lo.name)
			return '?', "", true
		}
	case reqArg:
		if !hasVal {
			if p.optind >= len(p.args) {
				p.errorf("option '%s%s' requires an argument", prefix, lo.name)
				if p.quiet {
					return ':', "", true
				}
				return '?', "", true
			}
			val = p.args[p.optind]
			p.optind++
		}
	}
	p.found = lo
	return lo.val, val, true
}
