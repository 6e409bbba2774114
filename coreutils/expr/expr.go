// Package expr implements GNU expr: evaluate an expression given as
// separate arguments, with arbitrary-precision integers, string
// comparisons, BRE matching anchored at the start (STRING : REGEXP), and
// the match, substr, index and length functions, counting characters in
// a UTF-8 locale. Exit status: 0 when the result is neither null nor 0, 1
// when it is, 2 for an invalid expression, 3 for other errors.
package expr

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/posixre"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
)

// value is an integer or a string.
type value struct {
	isInt bool
	i     *big.Int
	s     string
}

func intValue(n int64) *value    { return &value{isInt: true, i: big.NewInt(n)} }
func strValue(s string) *value   { return &value{s: s} }
func bigValue(i *big.Int) *value { return &value{isInt: true, i: i} }
func (v *value) str() string {
	if v.isInt {
		return v.i.String()
	}
	return v.s
}

// looksLikeInteger is GNU's test: an optional '-' and one or more digits.
func looksLikeInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// toArith converts v to an integer in place.
func (v *value) toArith() bool {
	if v.isInt {
		return true
	}
	if !looksLikeInteger(v.s) {
		return false
	}
	v.i, _ = new(big.Int).SetString(v.s, 10)
	v.isInt = true
	return true
}

// null is GNU's notion of a false value: 0, or "", or a string of zeros
// with an optional '-'.
func (v *value) null() bool {
	if v.isInt {
		return v.i.Sign() == 0
	}
	s := strings.TrimPrefix(v.s, "-")
	if v.s == "" {
		return true
	}
	if s == "" {
		return false
	}
	return strings.Trim(s, "0") == ""
}

// exprError ends the evaluation with a message and exit status.
type exprError struct {
	msg    string
	status int
}

type parser struct {
	c    *builtins.Call
	args []string
	pos  int
	utf  bool
}

func (p *parser) fail(format string, a ...any) {
	panic(&exprError{fmt.Sprintf(format, a...), 2})
}

func (p *parser) q(s string) string { return utilcmd.Q(p.c, s) }

func (p *parser) next(s string) bool {
	if p.pos < len(p.args) && p.args[p.pos] == s {
		p.pos++
		return true
	}
	return false
}

// nextOf takes the next argument when it is one of ops, returning it; ""
// when it is none.
func (p *parser) nextOf(ops ...string) string {
	for _, o := range ops {
		if p.next(o) {
			return o
		}
	}
	return ""
}

func (p *parser) missingAfter() {
	p.fail("syntax error: missing argument after %s", p.q(p.args[p.pos-1]))
}

// eval: ARG | ARG
func (p *parser) eval(ev bool) *value {
	l := p.eval1(ev)
	for p.next("|") {
		r := p.eval1(ev && l.null())
		if l.null() {
			l = r
			if l.null() {
				l = intValue(0)
			}
		}
	}
	return l
}

// eval1: ARG & ARG
func (p *parser) eval1(ev bool) *value {
	l := p.eval2(ev)
	for p.next("&") {
		r := p.eval2(ev && !l.null())
		if l.null() || r.null() {
			l = intValue(0)
		}
	}
	return l
}

// eval2: comparisons.
func (p *parser) eval2(ev bool) *value {
	l := p.eval3(ev)
	for {
		op := p.nextOf("<", "<=", "=", "==", "!=", ">=", ">")
		if op == "" {
			return l
		}
		r := p.eval3(ev)
		val := false
		if ev {
			ls, rs := l.str(), r.str()
			var cmp int
			if looksLikeInteger(ls) && looksLikeInteger(rs) {
				a, _ := new(big.Int).SetString(ls, 10)
				b, _ := new(big.Int).SetString(rs, 10)
				cmp = a.Cmp(b)
			} else {
				cmp = strings.Compare(ls, rs)
			}
			switch op {
			case "<":
				val = cmp < 0
			case "<=":
				val = cmp <= 0
			case "=", "==":
				val = cmp == 0
			case "!=":
				val = cmp != 0
			case ">=":
				val = cmp >= 0
			case ">":
				val = cmp > 0
			}
		}
		if val {
			l = intValue(1)
		} else {
			l = intValue(0)
		}
	}
}

// eval3: + and -.
func (p *parser) eval3(ev bool) *value {
	l := p.eval4(ev)
	for {
		op := p.nextOf("+", "-")
		if op == "" {
			return l
		}
		r := p.eval4(ev)
		if ev {
			if !l.toArith() || !r.toArith() {
				p.fail("non-integer argument")
			}
			if op == "+" {
				l = bigValue(new(big.Int).Add(l.i, r.i))
			} else {
				l = bigValue(new(big.Int).Sub(l.i, r.i))
			}
		}
	}
}

// eval4: *, / and %.
func (p *parser) eval4(ev bool) *value {
	l := p.eval5(ev)
	for {
		op := p.nextOf("*", "/", "%")
		if op == "" {
			return l
		}
		r := p.eval5(ev)
		if ev {
			if !l.toArith() || !r.toArith() {
				p.fail("non-integer argument")
			}
			if op != "*" && r.i.Sign() == 0 {
				p.fail("division by zero")
			}
			switch op {
			case "*":
				l = bigValue(new(big.Int).Mul(l.i, r.i))
			case "/":
				l = bigValue(new(big.Int).Quo(l.i, r.i))
			case "%":
				l = bigValue(new(big.Int).Rem(l.i, r.i))
			}
		}
	}
}

// eval5: STRING : REGEXP.
func (p *parser) eval5(ev bool) *value {
	l := p.eval6(ev)
	for p.next(":") {
		r := p.eval6(ev)
		if ev {
			l = p.colon(l, r)
		}
	}
	return l
}

// eval6: the functions and the quoting +.
func (p *parser) eval6(ev bool) *value {
	if p.pos >= len(p.args) {
		p.missingAfter()
	}
	switch {
	case p.next("+"):
		if p.pos >= len(p.args) {
			p.missingAfter()
		}
		p.pos++
		return strValue(p.args[p.pos-1])
	case p.next("length"):
		r := p.eval6(ev)
		return intValue(int64(p.length(r.str())))
	case p.next("match"):
		l := p.eval6(ev)
		r := p.eval6(ev)
		if ev {
			return p.colon(l, r)
		}
		return l
	case p.next("index"):
		l := p.eval6(ev)
		r := p.eval6(ev)
		return intValue(int64(p.index(l.str(), r.str())))
	case p.next("substr"):
		l := p.eval6(ev)
		i1 := p.eval6(ev)
		i2 := p.eval6(ev)
		if !i1.toArith() || !i2.toArith() {
			return strValue("")
		}
		return strValue(p.substr(l.str(), i1.i, i2.i))
	}
	return p.eval7(ev)
}

// eval7: parentheses and plain arguments.
func (p *parser) eval7(ev bool) *value {
	if p.pos >= len(p.args) {
		p.missingAfter()
	}
	if p.next("(") {
		v := p.eval(ev)
		if p.next(")") {
			return v
		}
		if p.pos >= len(p.args) {
			p.fail("syntax error: expecting ')' after %s", p.q(p.args[p.pos-1]))
		}
		p.fail("syntax error: expecting ')' instead of %s", p.q(p.args[p.pos]))
	}
	if p.next(")") {
		p.fail("syntax error: unexpected ')'")
	}
	p.pos++
	return strValue(p.args[p.pos-1])
}

func (p *parser) length(s string) int {
	if p.utf {
		return utf8.RuneCountInString(s)
	}
	return len(s)
}

// chars splits s into characters (bytes outside a UTF-8 locale).
func (p *parser) chars(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		n := 1
		if p.utf {
			_, n = utf8.DecodeRuneInString(s[i:])
		}
		out = append(out, s[i:i+n])
		i += n
	}
	return out
}

func (p *parser) index(s, set string) int {
	setChars := p.chars(set)
	for i, ch := range p.chars(s) {
		for _, sc := range setChars {
			if ch == sc {
				return i + 1
			}
		}
	}
	return 0
}

// getsize maps an integer to a size, negative and huge values to "too
// large".
func getsize(i *big.Int) uint64 {
	if i.Sign() < 0 || !i.IsUint64() || i.Uint64() == 1<<64-1 {
		return 1<<64 - 1
	}
	return i.Uint64()
}

func (p *parser) substr(s string, i1, i2 *big.Int) string {
	chars := p.chars(s)
	llen := uint64(len(chars))
	pos, n := getsize(i1), getsize(i2)
	if llen < pos || pos == 0 || n == 0 || n == 1<<64-1 {
		return ""
	}
	vlen := min(n, llen-pos+1)
	return strings.Join(chars[pos-1:pos-1+vlen], "")
}

// colon matches s against the BRE pattern anchored at its start.
func (p *parser) colon(sv, pv *value) *value {
	s, pat := sv.str(), pv.str()
	re, err := posixre.Compile(pat, posixre.BRE, posixre.Flags{})
	if err != nil {
		p.fail("%s", err.Error())
	}
	m := re.FindSubmatchIndex([]byte(s))
	if m == nil || m[0] != 0 {
		if re.NumSubexp() > 0 {
			return strValue("")
		}
		return intValue(0)
	}
	if re.NumSubexp() > 0 {
		if m[2] < 0 {
			return strValue("")
		}
		return strValue(s[m[2]:m[3]])
	}
	return intValue(int64(p.length(s[:m[1]])))
}

// Run evaluates the expression and prints its value.
func Run(ctx context.Context, c *builtins.Call) (status int) {
	args, st, done := utilcmd.Operators(c, helpText(c.Name()), 2)
	if done {
		return st
	}
	p := &parser{c: c, args: args, utf: utilcmd.UTF8(c)}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*exprError)
			if !ok {
				panic(r)
			}
			c.Errorf("%s", e.msg)
			status = e.status
		}
	}()
	v := p.eval(true)
	if p.pos < len(args) {
		p.fail("syntax error: unexpected argument %s", p.q(args[p.pos]))
	}
	out := textfmt.NewOutput(c.Stdout)
	out.WriteString(v.str())
	out.WriteByte('\n')
	st = 0
	if v.null() {
		st = 1
	}
	if fs := out.Finish(c, st); out.Err() != nil {
		if fs == 141 {
			return 141
		}
		return 3
	}
	return st
}

func helpText(name string) string {
	return "Usage: " + name + " EXPRESSION\n  or:  " + name + " OPTION\n\n" +
		utilcmd.Trailer() + `
Print the value of EXPRESSION to standard output.  A blank line below
separates increasing precedence groups.  EXPRESSION may be:

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2

  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0

  ARG1 < ARG2       ARG1 is less than ARG2
  ARG1 <= ARG2      ARG1 is less than or equal to ARG2
  ARG1 = ARG2       ARG1 is equal to ARG2
  ARG1 != ARG2      ARG1 is unequal to ARG2
  ARG1 >= ARG2      ARG1 is greater than or equal to ARG2
  ARG1 > ARG2       ARG1 is greater than ARG2

  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2
  ARG1 - ARG2       arithmetic difference of ARG1 and ARG2

  ARG1 * ARG2       arithmetic product of ARG1 and ARG2
  ARG1 / ARG2       arithmetic quotient of ARG1 divided by ARG2
  ARG1 % ARG2       arithmetic remainder of ARG1 divided by ARG2

  STRING : REGEXP   anchored pattern match of REGEXP in STRING

  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string, even if it is a
                               keyword like 'match' or an operator like '/'

  ( EXPRESSION )             value of EXPRESSION

Beware that many operators need to be escaped or quoted for shells.
Comparisons are arithmetic if both ARGs are numbers, else lexicographical.
Pattern matches return the string matched between \( and \) or null; if
\( and \) are not used, they return the number of characters matched or 0.

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.
`
}
