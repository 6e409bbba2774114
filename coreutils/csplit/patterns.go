package csplit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/posixre"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/internal/cfmt"
)

// parsePatterns reads the PATTERN operands, with GNU's checks.
func (s *splitter) parsePatterns(args []string) ([]control, bool) {
	c := s.c
	var controls []control
	var lastLine uint64
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a[0:min(1, len(a))] == "/" || a[0:min(1, len(a))] == "%" {
			delim := a[0]
			end := strings.LastIndexByte(a, delim)
			if end == 0 {
				c.Errorf("%s: closing delimiter '%c' missing", a, delim)
				return nil, false
			}
			p := control{arg: a, ignore: delim == '%'}
			if rest := a[end+1:]; rest != "" {
				v, err := strconv.ParseInt(rest, 10, 64)
				if err != nil || rest[0] == ' ' {
					c.Errorf("%s: integer expected after delimiter", utilcmd.Q(c, a))
					return nil, false
				}
				p.offset = v
			}
			re, err := posixre.Compile(a[1:end], posixre.BRE, posixre.Flags{})
			if err != nil {
				c.Errorf("%s: invalid regular expression: %s", utilcmd.Q(c, a), err.Error())
				return nil, false
			}
			p.re = re
			controls = append(controls, p)
		} else {
			v, err := strconv.ParseUint(a, 10, 64)
			if err != nil || a[0] == '+' {
				c.Errorf("%s: invalid pattern", utilcmd.Q(c, a))
				return nil, false
			}
			if v == 0 {
				c.Errorf("%s: line number must be greater than zero", a)
				return nil, false
			}
			if v < lastLine {
				c.Errorf("line number %s is smaller than preceding line number, %d", utilcmd.Q(c, a), lastLine)
				return nil, false
			}
			if v == lastLine {
				c.Errorf("warning: line number %s is the same as preceding line number", utilcmd.Q(c, a))
			}
			lastLine = v
			controls = append(controls, control{arg: a, lines: v})
		}
		// A repeat count applies to the pattern before it.
		if i+1 < len(args) && strings.HasPrefix(args[i+1], "{") {
			i++
			r := args[i]
			p := &controls[len(controls)-1]
			body, ok := strings.CutSuffix(r[1:], "}")
			if !ok {
				c.Errorf("%s: missing '}'", utilcmd.Q(c, r))
				return nil, false
			}
			if body == "*" {
				p.repeatForever = true
				continue
			}
			v, err := strconv.ParseUint(body, 10, 64)
			if err != nil {
				c.Errorf("%s}: integer required between '{' and '}'", utilcmd.Q(c, r[:len(r)-1]))
				return nil, false
			}
			p.repeat = v
		}
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "{") {
		c.Errorf("%s: invalid pattern", utilcmd.Q(c, args[0]))
		return nil, false
	}
	return controls, true
}

// parseSuffix checks a -b format: exactly one integer conversion.
func parseSuffix(f string) (func(int) string, string) {
	var pre, post string
	var spec cfmt.Spec
	found := false
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			if found {
				post += string(f[i])
			} else {
				pre += string(f[i])
			}
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			if found {
				post += "%"
			} else {
				pre += "%"
			}
			i++
			continue
		}
		if found {
			return nil, "too many % conversion specifications in suffix"
		}
		spec = cfmt.Spec{Width: -1, Prec: -1}
		j := i + 1
		for ; j < len(f) && strings.IndexByte("-+ #0'", f[j]) >= 0; j++ {
			switch f[j] {
			case '-':
				spec.Minus = true
			case '+':
				spec.Plus = true
			case ' ':
				spec.Space = true
			case '#':
				spec.Hash = true
			case '0':
				spec.Zero = true
			}
		}
		k := j
		for ; k < len(f) && f[k] >= '0' && f[k] <= '9'; k++ {
		}
		if k > j {
			spec.Width, _ = strconv.Atoi(f[j:k])
		}
		if k < len(f) && f[k] == '.' {
			k++
			p := k
			for ; k < len(f) && f[k] >= '0' && f[k] <= '9'; k++ {
			}
			spec.Prec, _ = strconv.Atoi("0" + f[p:k])
		}
		if k >= len(f) {
			return nil, "missing conversion specifier in suffix"
		}
		switch f[k] {
		case 'd', 'i', 'u', 'o', 'x', 'X':
			spec.Verb = f[k]
		default:
			if f[k] < 0x20 || f[k] >= 0x7f {
				return nil, fmt.Sprintf("invalid conversion specifier in suffix: \\%.3o", f[k])
			}
			return nil, fmt.Sprintf("invalid conversion specifier in suffix: %c", f[k])
		}
		found = true
		i = k
	}
	if !found {
		return nil, "missing % conversion specification in suffix"
	}
	return func(n int) string {
		sp := spec
		if sp.Verb == 'd' || sp.Verb == 'i' {
			sp.Verb = 'u'
		}
		return pre + cfmt.Uint(sp, uint64(n)) + post
	}, ""
}
