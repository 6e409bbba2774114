package sed

import (
	"fmt"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/posixre"
)

// Compiling regular expressions and the arguments of the s and y commands.

func (p *compiler) compileRx(b []byte, fl posixre.Flags, needSub int) *regex {
	if len(b) == 0 {
		if fl.IgnoreCase || fl.Multiline {
			p.fail("cannot specify modifiers on empty regexp")
		}
		return nil
	}
	pat := normalizeText(b, textRegex)
	syn := posixre.BRE
	if p.ere {
		syn = posixre.ERE
	}
	// GNU's M flag is REG_NEWLINE: ^ and $ match at newlines, and . and
	// [^...] do not match a newline. With -z, GNU instead searches each
	// NUL-separated part of the pattern space on its own.
	fl.Lines = fl.Multiline
	split := false
	if fl.Multiline && p.ex.delim != '\n' {
		fl.Multiline = false
		split = true
	}
	re, err := posixre.Compile(string(pat), syn, fl)
	if err != nil {
		p.fail(err.Error())
	}
	if needSub > re.NumSubexp()+1 {
		p.fail(fmt.Sprintf("invalid reference \\%d on `s' command's RHS", needSub-1))
	}
	// A back-reference match that runs away stops sed as a fatal error
	// (the match runs on sed's own goroutine, which recovers it), leaving
	// an in-place target untouched.
	ex := p.ex
	re.Bound(ex.ctx, func() { ex.fatal(exitPanic, "regex match exceeded its backtracking limit") })
	r := newRegex(re)
	if split {
		r.split, r.isLit = true, false
		r.sep = p.ex.delim
	}
	return r
}

func (p *compiler) compileSubst(cmd *command) {
	slash := p.inchar()
	b, ok := p.matchSlash(slash, true)
	if !ok {
		p.fail("unterminated `s' command")
	}
	b2, ok := p.matchSlash(slash, false)
	if !ok {
		p.fail("unterminated `s' command")
	}
	sub := &subst{}
	sub.setupReplacement(normalizeText(b2, textReplacement))
	fl := p.markSubstOpts(sub)
	sub.re = p.compileRx(b, fl, sub.maxRef+1)
	if sub.eval {
		if p.sandbox {
			p.fail("e/r/w commands disabled in sandbox mode")
		}
		p.fail("e flag of `s' disabled in sandbox mode (commands cannot be executed)")
	}
	cmd.sub = sub
}

func (p *compiler) markSubstOpts(sub *subst) posixre.Flags {
	var fl posixre.Flags
	for {
		ch := p.inchar()
		switch ch {
		case 'i', 'I':
			if p.posix {
				p.fail("unknown option to `s'")
			}
			fl.IgnoreCase = true
		case 'm', 'M':
			if p.posix {
				p.fail("unknown option to `s'")
			}
			fl.Multiline = true
		case 'e':
			sub.eval = true
		case 'p':
			if sub.print {
				p.fail("multiple `p' options to `s' command")
			}
			sub.print = true
		case 'g':
			if sub.global {
				p.fail("multiple `g' options to `s' command")
			}
			sub.global = true
		case 'w':
			sub.out = p.openWrite()
			return fl
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if sub.numb != 0 {
				p.fail("multiple number options to `s' command")
			}
			n := p.inInteger(ch)
			if n == 0 {
				p.fail("number option to `s' command may not be zero")
			}
			if n > 1<<30 {
				n = 1 << 30
			}
			sub.numb = int(n)
		case '}', '#':
			p.savchar(ch)
			return fl
		case '\n', ';', eof:
			return fl
		case ' ', '\t':
		case '\r':
			if p.inchar() == '\n' {
				return fl
			}
			p.fail("unknown option to `s'")
		default:
			p.fail("unknown option to `s'")
		}
	}
}

func (p *compiler) compileY(cmd *command) {
	slash := p.inchar()
	b, ok := p.matchSlash(slash, false)
	if !ok {
		p.fail("unterminated `y' command")
	}
	src := yString(normalizeText(b, textNone))
	b2, ok := p.matchSlash(slash, false)
	if !ok {
		p.fail("unterminated `y' command")
	}
	dst := yString(normalizeText(b2, textNone))
	ascii := true
	for _, s := range [][]byte{src, dst} {
		for _, c := range s {
			if c >= utf8.RuneSelf {
				ascii = false
			}
		}
	}
	if ascii || !p.ex.utf8 {
		if len(src) != len(dst) {
			p.fail("strings for `y' command are different lengths")
		}
		m := new([256]byte)
		for i := range m {
			m[i] = byte(i)
		}
		if p.ex.utf8 {
			// multibyte locales: the first mapping of a character wins
			for i := len(src) - 1; i >= 0; i-- {
				m[src[i]] = dst[i]
			}
		} else {
			for i := range src {
				m[src[i]] = dst[i]
			}
		}
		cmd.ymap = m
	} else {
		rs, rd := []rune(string(src)), []rune(string(dst))
		if len(rs) != len(rd) {
			p.fail("strings for `y' command are different lengths")
		}
		// GNU's multibyte y uses the first mapping of a character.
		cmd.yrunes = make(map[rune]rune, len(rs))
		for i := len(rs) - 1; i >= 0; i-- {
			cmd.yrunes[rs[i]] = rd[i]
		}
	}
	p.readEndOfCmd()
}

// yString removes the backslashes left in a y string: \\ is a backslash,
// \c is c.
func yString(s []byte) []byte {
	out := s[:0:0]
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		out = append(out, s[i])
	}
	return out
}
