package patch

import (
	"fmt"
	"strings"
)

func (p *patcher) say(format string, args ...any) {
	fmt.Fprintf(p.out, format, args...)
}

// ask prints a question; with no terminal, the answer is the default.
func (p *patcher) ask(format string, args ...any) {
	fmt.Fprintf(p.out, format, args...)
	p.out.WriteString("\n")
}

func (p *patcher) okToReverse(format string, args ...any) bool {
	if p.noreverse || !(p.force && p.verbosity == silent) {
		p.say(format, args...)
	}
	switch {
	case p.noreverse:
		p.say("  Skipping patch.\n")
		p.skipRest = true
		return false
	case p.force:
		if p.verbosity != silent {
			p.say("  Applying it anyway.\n")
		}
		return false
	case p.batch:
		if p.reverse {
			p.say("  Ignoring -R.\n")
		} else {
			p.say("  Assuming -R.\n")
		}
		return true
	}
	if p.reverse {
		p.ask("  Ignore -R? [n] ")
	} else {
		p.ask("  Assume -R? [n] ")
	}
	p.ask("Apply anyway? [n] ")
	if p.verbosity != silent {
		p.say("Skipping patch.\n")
	}
	p.skipRest = true
	return false
}

func (p *patcher) usageFail(msg string) int {
	if msg != "" {
		p.c.Errorf("%s", msg)
	}
	p.c.TryHelpNamed(0)
	return 2
}

// numericString parses a number as GNU's numeric_string does.
func (p *patcher) numericString(s string, negativeOK bool, what string) int {
	i := 0
	sign := 1
	if strings.HasPrefix(s, "-") {
		sign = -1
		i = 1
	} else if strings.HasPrefix(s, "+") {
		i = 1
	}
	v := 0
	for {
		if i >= len(s) || s[i] < '0' || s[i] > '9' {
			p.fatal("%s %s is not a number", what, p.quote(s))
		}
		nv := v*10 + sign*int(s[i]-'0')
		if nv > 1<<31-1 || nv < -(1<<31) {
			p.fatal("%s %s is too large", what, p.quote(s))
		}
		v = nv
		i++
		if i >= len(s) {
			break
		}
	}
	if v < 0 && !negativeOK {
		p.fatal("%s %s is negative", what, p.quote(s))
	}
	return v
}
