package posixre

import "unicode/utf8"

// nodeKind is the type of a node of the parsed expression.
type nodeKind int

const (
	nEmpty     nodeKind = iota
	nLit                // one character r (raw byte b when invalid UTF-8)
	nAny                // .
	nSet                // bracket expression or \w \W \s \S
	nGroup              // capturing group idx
	nConcat             // subs in sequence
	nAlt                // alternatives
	nRepeat             // sub{min,max}; max -1 is unbounded
	nBackref            // \idx
	nBOL                // ^
	nEOL                // $
	nBOT                // \`
	nEOT                // \'
	nWordB              // \b
	nNotWordB           // \B
	nWordStart          // \<
	nWordEnd            // \>
)

type node struct {
	kind     nodeKind
	r        rune
	raw      []byte // the bytes of a literal as written (invalid UTF-8 kept)
	set      *charSet
	idx      int
	min, max int
	subs     []*node
}

// Error is a regular expression syntax error, with GNU's message text.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

const dupMax = 32767 // RE_DUP_MAX

const (
	errBracket    = "Unmatched [, [^, [:, [., or [="
	errParen      = "Unmatched ( or \\("
	errRParen     = "Unmatched ) or \\)"
	errBrace      = "Unmatched \\{"
	errBraceBad   = "Invalid content of \\{\\}"
	errRange      = "Invalid range end"
	errClass      = "Invalid character class name"
	errTrailing   = "Trailing backslash"
	errBackref    = "Invalid back reference"
	errPreceding  = "Invalid preceding regular expression"
	errTooBig     = "Regular expression too big"
	errCollate    = "Invalid collation character"
	errClassSyntx = "character class syntax is [[:space:]], not [:space:]"
)

type parser struct {
	src      string
	pos      int
	ere      bool
	ngroups  int
	closed   []bool // closed[i] reports whether group i+1 is complete
	depth    int
	warnings []string
	backref  bool
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

// next decodes the character at pos without consuming it.
func (p *parser) peekRune() (rune, int) {
	r, n := utf8.DecodeRuneInString(p.src[p.pos:])
	return r, n
}

func parse(src string, ere bool) (*node, *parser, error) {
	p := &parser{src: src, ere: ere}
	n, err := p.parseAlt()
	if err != nil {
		return nil, p, err
	}
	if !p.eof() {
		// only an unmatched close paren can stop the top level
		return nil, p, &Error{errRParen}
	}
	return n, p, nil
}

func (p *parser) atAltEnd() bool {
	if p.eof() {
		return true
	}
	if p.ere {
		c := p.src[p.pos]
		return c == '|' || (c == ')' && p.depth > 0)
	}
	if p.src[p.pos] == '\\' && p.pos+1 < len(p.src) {
		c := p.src[p.pos+1]
		return c == '|' || c == ')'
	}
	return false
}

func (p *parser) parseAlt() (*node, error) {
	var alts []*node
	for {
		c, err := p.parseConcat()
		if err != nil {
			return nil, err
		}
		alts = append(alts, c)
		if p.eof() {
			break
		}
		if p.ere && p.src[p.pos] == '|' {
			p.pos++
			continue
		}
		if !p.ere && p.src[p.pos] == '\\' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '|' {
			p.pos += 2
			continue
		}
		break
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &node{kind: nAlt, subs: alts}, nil
}

func (p *parser) parseConcat() (*node, error) {
	var items []*node
	start := true // at the start of an expression: * is literal (BRE)
	for !p.eof() {
		if p.ere {
			c := p.src[p.pos]
			if c == '|' || (c == ')' && p.depth > 0) {
				break
			}
		} else if p.src[p.pos] == '\\' && p.pos+1 < len(p.src) && (p.src[p.pos+1] == '|' || p.src[p.pos+1] == ')') {
			if p.src[p.pos+1] == ')' && p.depth == 0 {
				return nil, &Error{errRParen}
			}
			break
		}
		atom, err := p.parseAtom(start, len(items))
		if err != nil {
			return nil, err
		}
		if atom == nil { // ignored (ERE repetition at start)
			continue
		}
		if atom.kind == nBOL && !p.ere {
			// a * after a leading ^ is literal in a BRE
			items = append(items, atom)
			start = true
			continue
		}
		start = false
		// postfix operators
		for !p.eof() {
			opStart := p.pos
			min, max, ok, err := p.parsePostfix()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
			if p.ere && atom.kind == nBOL {
				p.warn(p.src[opStart:opStart+1] + " at start of expression")
			}
			atom = &node{kind: nRepeat, min: min, max: max, subs: []*node{atom}}
		}
		items = append(items, atom)
	}
	switch len(items) {
	case 0:
		return &node{kind: nEmpty}, nil
	case 1:
		return items[0], nil
	}
	return &node{kind: nConcat, subs: items}, nil
}

// parsePostfix reads a repetition operator if one follows.
func (p *parser) parsePostfix() (min, max int, ok bool, err error) {
	s := p.src[p.pos:]
	if p.ere {
		switch s[0] {
		case '*':
			p.pos++
			return 0, -1, true, nil
		case '+':
			p.pos++
			return 1, -1, true, nil
		case '?':
			p.pos++
			return 0, 1, true, nil
		case '{':
			min, max, n, valid, err := parseInterval(s[1:], true)
			if err != nil {
				return 0, 0, false, err
			}
			if !valid {
				return 0, 0, false, nil // a literal {
			}
			p.pos += 1 + n
			return min, max, true, nil
		}
		return 0, 0, false, nil
	}
	if s[0] == '*' {
		p.pos++
		return 0, -1, true, nil
	}
	if s[0] == '\\' && len(s) > 1 {
		switch s[1] {
		case '+':
			p.pos += 2
			return 1, -1, true, nil
		case '?':
			p.pos += 2
			return 0, 1, true, nil
		case '{':
			min, max, n, _, err := parseInterval(s[2:], false)
			if err != nil {
				return 0, 0, false, err
			}
			p.pos += 2 + n
			return min, max, true, nil
		}
	}
	return 0, 0, false, nil
}

// parseInterval parses "m,n}" (ERE) or "m,n\}" (BRE) after the opening
// brace, following glibc's parse_dup_op: n is the length consumed. For
// ERE a malformed interval is a literal brace (valid false, no error);
// "{}", "{2,1}" and "{1,2,3}" are errors in both syntaxes.
func parseInterval(s string, ere bool) (min, max, n int, valid bool, err error) {
	const (
		missing = -1
		bad     = -2
	)
	const (
		tEnd = iota
		tClose
		tComma
		tDigit
		tOther
	)
	i := 0
	next := func() (int, byte) {
		if i >= len(s) {
			return tEnd, 0
		}
		c := s[i]
		if ere {
			i++
			switch {
			case c == '}':
				return tClose, c
			case c == ',':
				return tComma, c
			case c >= '0' && c <= '9':
				return tDigit, c
			}
			return tOther, c
		}
		if c == '\\' {
			if i+1 >= len(s) {
				i++
				return tOther, c
			}
			i += 2
			if s[i-1] == '}' {
				return tClose, '}'
			}
			return tOther, s[i-1]
		}
		i++
		switch {
		case c == ',':
			return tComma, c
		case c >= '0' && c <= '9':
			return tDigit, c
		}
		return tOther, c
	}
	fetch := func() (int, int) {
		num := missing
		for {
			t, c := next()
			if t == tEnd {
				return bad, t
			}
			if t == tClose || t == tComma {
				return num, t
			}
			switch {
			case t != tDigit || num == bad:
				num = bad
			case num == missing:
				num = int(c - '0')
			default:
				num = num*10 + int(c-'0')
				if num > dupMax+1 {
					num = dupMax + 1
				}
			}
		}
	}
	start, tok := fetch()
	if start == missing {
		if tok != tComma {
			return 0, 0, 0, false, &Error{errBraceBad} // {} is invalid
		}
		start = 0
	}
	end := bad
	if start != bad {
		switch tok {
		case tClose:
			end = start
		case tComma:
			end, tok = fetch()
		}
	}
	if start == bad || end == bad {
		if ere {
			return 0, 0, 0, false, nil
		}
		if tok == tEnd {
			return 0, 0, 0, false, &Error{errBrace}
		}
		return 0, 0, 0, false, &Error{errBraceBad}
	}
	if end != missing && start > end || tok != tClose {
		return 0, 0, 0, false, &Error{errBraceBad}
	}
	if start > dupMax || end > dupMax {
		return 0, 0, 0, false, &Error{errTooBig}
	}
	return start, end, i, true, nil
}

// parseAtom reads one atom. start says whether the atom begins an
// expression (after ^ in BRE, at the start, after a group open or |).
// It returns nil for an ignored leading repetition operator in ERE.
func (p *parser) parseAtom(start bool, nitems int) (*node, error) {
	c := p.src[p.pos]
	if p.ere {
		switch c {
		case '(':
			return p.parseGroup(1)
		case ')':
			// unmatched ) at top level is an ordinary character in ERE
			p.pos++
			return lit(')'), nil
		case '*', '+', '?':
			if nitems == 0 {
				p.warn(string(c) + " at start of expression")
				p.pos++
				return nil, nil
			}
		case '{':
			if nitems == 0 {
				// glibc skips the brace alone ("{1}a" matches "1}a"); the
				// warning comes from GNU's dfa, for a well-formed interval
				if _, _, _, valid, _ := parseInterval(p.src[p.pos+1:], true); valid {
					p.warn("{...} at start of expression")
				}
				p.pos++
				return nil, nil
			}
			p.pos++
			return lit('{'), nil
		case '^':
			p.pos++
			return &node{kind: nBOL}, nil
		case '$':
			p.pos++
			return &node{kind: nEOL}, nil
		}
	} else {
		switch c {
		case '*':
			if start {
				p.pos++
				return lit('*'), nil
			}
		case '^':
			if nitems == 0 {
				p.pos++
				return &node{kind: nBOL}, nil
			}
			p.pos++
			return lit('^'), nil
		case '$':
			p.pos++
			if p.atAltEnd() {
				return &node{kind: nEOL}, nil
			}
			return lit('$'), nil
		}
	}
	switch c {
	case '.':
		p.pos++
		return &node{kind: nAny}, nil
	case '[':
		return p.parseBracket()
	case '\\':
		return p.parseEscape(start, nitems)
	}
	if p.ere && (c == '*' || c == '+' || c == '?') {
		// repetition of nothing after an anchor: treat like GNU (applies to the anchor)
		p.pos++
		return lit(rune(c)), nil
	}
	return p.parseLiteral(), nil
}

func (p *parser) parseLiteral() *node {
	r, n := p.peekRune()
	raw := []byte(p.src[p.pos : p.pos+n])
	p.pos += n
	return &node{kind: nLit, r: r, raw: raw}
}

func lit(r rune) *node {
	return &node{kind: nLit, r: r, raw: []byte(string(r))}
}

func (p *parser) warn(msg string) {
	p.warnings = append(p.warnings, msg)
}

func (p *parser) parseGroup(width int) (*node, error) {
	p.pos += width
	p.ngroups++
	idx := p.ngroups
	p.closed = append(p.closed, false)
	p.depth++
	sub, err := p.parseAlt()
	if err != nil {
		return nil, err
	}
	p.depth--
	if p.ere {
		if p.eof() || p.src[p.pos] != ')' {
			return nil, &Error{errParen}
		}
		p.pos++
	} else {
		if p.pos+1 >= len(p.src) || p.src[p.pos] != '\\' || p.src[p.pos+1] != ')' {
			return nil, &Error{errParen}
		}
		p.pos += 2
	}
	p.closed[idx-1] = true
	return &node{kind: nGroup, idx: idx, subs: []*node{sub}}, nil
}

func (p *parser) parseEscape(start bool, nitems int) (*node, error) {
	if p.pos+1 >= len(p.src) {
		return nil, &Error{errTrailing}
	}
	c := p.src[p.pos+1]
	if !p.ere {
		switch c {
		case '(':
			return p.parseGroup(2)
		case ')':
			return nil, &Error{errRParen}
		case '{':
			if start {
				// an interval at the start of a BRE is literal text
				p.pos += 2
				return lit('{'), nil
			}
			return nil, &Error{errPreceding}
		case '+', '?':
			if start {
				p.pos += 2
				return lit(rune(c)), nil
			}
		case '|':
			// handled by the callers
		}
	}
	switch {
	case c >= '1' && c <= '9':
		idx := int(c - '0')
		if idx > p.ngroups || !p.closed[idx-1] {
			return nil, &Error{errBackref}
		}
		p.pos += 2
		p.backref = true
		return &node{kind: nBackref, idx: idx}, nil
	}
	p.pos += 2
	switch c {
	case 'w':
		return &node{kind: nSet, set: wordSet(false)}, nil
	case 'W':
		return &node{kind: nSet, set: wordSet(true)}, nil
	case 's':
		return &node{kind: nSet, set: spaceSet(false)}, nil
	case 'S':
		return &node{kind: nSet, set: spaceSet(true)}, nil
	case 'b':
		return &node{kind: nWordB}, nil
	case 'B':
		return &node{kind: nNotWordB}, nil
	case '<':
		return &node{kind: nWordStart}, nil
	case '>':
		return &node{kind: nWordEnd}, nil
	case '`':
		return &node{kind: nBOT}, nil
	case '\'':
		return &node{kind: nEOT}, nil
	case 'n':
		return lit('\n'), nil
	}
	// any other escaped character is itself
	p.pos -= 1
	return p.parseLiteral(), nil
}

// parseBracket parses a bracket expression starting at '['.
func (p *parser) parseBracket() (*node, error) {
	p.pos++
	set := &charSet{}
	if !p.eof() && p.src[p.pos] == '^' {
		set.negate = true
		p.pos++
	}
	first := true
	// GNU rejects [:space:] (meant as [[:space:]]): a bracket of plain
	// characters starting and ending with ':' with something else between.
	var plain []rune
	complex := false
	for {
		if p.eof() {
			return nil, &Error{errBracket}
		}
		c := p.src[p.pos]
		if c == ']' && !first {
			p.pos++
			break
		}
		first = false
		var lo rune
		isChar := true
		if c == '[' && p.pos+1 < len(p.src) && (p.src[p.pos+1] == ':' || p.src[p.pos+1] == '=' || p.src[p.pos+1] == '.') {
			kind, name, err := p.bracketName()
			if err != nil {
				return nil, err
			}
			switch kind {
			case ':':
				if !set.addClass(name) {
					return nil, &Error{errClass}
				}
				isChar = false
				complex = true
			case '=', '.':
				r, err := collatingRune(name)
				if err != nil {
					return nil, err
				}
				lo = r
			}
		} else {
			r, n := p.peekRune()
			p.pos += n
			lo = r
		}
		if !isChar {
			continue
		}
		// a range?
		if p.pos+1 < len(p.src) && p.src[p.pos] == '-' && p.src[p.pos+1] != ']' {
			p.pos++
			var hi rune
			if p.src[p.pos] == '[' && p.pos+1 < len(p.src) && (p.src[p.pos+1] == '.' || p.src[p.pos+1] == '=') {
				_, name, err := p.bracketName()
				if err != nil {
					return nil, err
				}
				r, err := collatingRune(name)
				if err != nil {
					return nil, err
				}
				hi = r
			} else {
				r, n := p.peekRune()
				p.pos += n
				hi = r
			}
			if hi < lo {
				return nil, &Error{errRange}
			}
			set.addRange(lo, hi)
			complex = true
			continue
		}
		set.addRange(lo, lo)
		plain = append(plain, lo)
	}
	if !complex && len(plain) >= 3 && plain[0] == ':' && plain[len(plain)-1] == ':' {
		for _, r := range plain {
			if r != ':' {
				return nil, &Error{errClassSyntx}
			}
		}
	}
	return &node{kind: nSet, set: set}, nil
}

// bracketName reads "[:name:]", "[=name=]" or "[.name.]" at p.pos inside a
// bracket expression, returning the kind (':', '=' or '.') and the name.
func (p *parser) bracketName() (kind byte, name string, err *Error) {
	kind = p.src[p.pos+1]
	for j := p.pos + 2; j+1 < len(p.src); j++ {
		if p.src[j] == kind && p.src[j+1] == ']' {
			name = p.src[p.pos+2 : j]
			p.pos = j + 2
			return kind, name, nil
		}
	}
	return 0, "", &Error{errBracket}
}

// collatingRune is the character a collating element or equivalence class
// names: only single characters are supported.
func collatingRune(name string) (rune, *Error) {
	r, n := utf8.DecodeRuneInString(name)
	if n == 0 || n != len(name) {
		return 0, &Error{errCollate}
	}
	return r, nil
}
