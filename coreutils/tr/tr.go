// Package tr implements tr: translate, squeeze, and/or delete characters.
//
// Like GNU tr, it works on bytes; character classes are those of the C
// locale (which GNU also uses for bytes in a UTF-8 locale).
package tr

import (
	"context"
	"io"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help        display this help and exit
      --version     output version information and exit

ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \NNN            character with octal value NNN (1 to 3 octal digits)
  \\              backslash
  \a              audible BEL
  \b              backspace
  \f              form feed
  \n              new line
  \r              return
  \t              horizontal tab
  \v              vertical tab
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:]       all letters and digits
  [:alpha:]       all letters
  [:blank:]       all horizontal whitespace
  [:cntrl:]       all control characters
  [:digit:]       all digits
  [:graph:]       all printable characters, not including space
  [:lower:]       all lower case letters
  [:print:]       all printable characters, including space
  [:punct:]       all punctuation characters
  [:space:]       all horizontal or vertical whitespace
  [:upper:]       all upper case letters
  [:xdigit:]      all hexadecimal digits
  [=CHAR=]        all characters which are equivalent to CHAR

Translation occurs if -d is not given and both STRING1 and STRING2 appear.
-t may be used only when translating.  ARRAY2 is extended to length of
ARRAY1 by repeating its last character as necessary.  Excess characters
of ARRAY2 are ignored.  Character classes expand in unspecified order;
while translating, [:lower:] and [:upper:] may be used in pairs to
specify case conversion.  Squeezing occurs after translation or deletion.
`

var options = []builtins.Option{
	{Short: 'c', Long: "complement"},
	{Short: 'd', Long: "delete"},
	{Short: 's', Long: "squeeze-repeats"},
	{Short: 't', Long: "truncate-set1"},
	{Short: 'C'},
	{Short: 'A'},
}

const repeatMax = 1<<63 - 1

type elemType int

const (
	eNormal elemType = iota
	eRange
	eClass
	eEquiv
	eRepeat
)

type class int

const (
	ccAlnum class = iota
	ccAlpha
	ccBlank
	ccCntrl
	ccDigit
	ccGraph
	ccLower
	ccPrint
	ccPunct
	ccSpace
	ccUpper
	ccXdigit
)

var classNames = []string{"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"}

func isUpper(c int) bool { return c >= 'A' && c <= 'Z' }
func isLower(c int) bool { return c >= 'a' && c <= 'z' }
func isDigit(c int) bool { return c >= '0' && c <= '9' }
func isPrint(c int) bool { return c >= 0x20 && c < 0x7f }

func (cc class) member(c int) bool {
	switch cc {
	case ccAlnum:
		return isUpper(c) || isLower(c) || isDigit(c)
	case ccAlpha:
		return isUpper(c) || isLower(c)
	case ccBlank:
		return c == ' ' || c == '\t'
	case ccCntrl:
		return c < 0x20 || c == 0x7f
	case ccDigit:
		return isDigit(c)
	case ccGraph:
		return c > 0x20 && c < 0x7f
	case ccLower:
		return isLower(c)
	case ccPrint:
		return isPrint(c)
	case ccPunct:
		return c > 0x20 && c < 0x7f && !(isUpper(c) || isLower(c) || isDigit(c))
	case ccSpace:
		return c == ' ' || (c >= '\t' && c <= '\r')
	case ccUpper:
		return isUpper(c)
	case ccXdigit:
		return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
	}
	return false
}

type elem struct {
	typ         elemType
	ch          byte // normal, equiv, repeat
	first, last byte // range
	cc          class
	count       uint64 // repeat; 0 means [c*]
}

const (
	stBegin = -2
	stNew   = -1
)

type ulClass int

const (
	ulNone ulClass = iota
	ulLower
	ulUpper
)

type specList struct {
	elems []elem
	pos   int // current element
	state int

	length             uint64
	nIndefinite        int
	indefinite         int
	hasEquiv           bool
	hasRestrictedClass bool
	hasCharClass       bool
}

// next returns the next character of the expansion, or -1 at the end,
// and whether it came from [:upper:] or [:lower:].
func (s *specList) next() (int, ulClass) {
	cls := ulNone
	if s.state == stBegin {
		s.pos = 0
		s.state = stNew
	}
	if s.pos >= len(s.elems) {
		return -1, cls
	}
	p := &s.elems[s.pos]
	var ret int
	switch p.typ {
	case eNormal, eEquiv:
		ret = int(p.ch)
		s.state = stNew
		s.pos++
	case eRange:
		if s.state == stNew {
			s.state = int(p.first)
		} else {
			s.state++
		}
		ret = s.state
		if s.state == int(p.last) {
			s.pos++
			s.state = stNew
		}
	case eClass:
		switch p.cc {
		case ccLower:
			cls = ulLower
		case ccUpper:
			cls = ulUpper
		}
		if s.state == stNew {
			i := 0
			for i < 256 && !p.cc.member(i) {
				i++
			}
			s.state = i
		}
		ret = s.state
		i := s.state + 1
		for i < 256 && !p.cc.member(i) {
			i++
		}
		if i < 256 {
			s.state = i
		} else {
			s.pos++
			s.state = stNew
		}
	case eRepeat:
		if p.count == 0 {
			s.pos++
			s.state = stNew
			return s.next()
		}
		if s.state == stNew {
			s.state = 0
		}
		s.state++
		ret = int(p.ch)
		if uint64(s.state) == p.count {
			s.pos++
			s.state = stNew
		}
	}
	return ret, cls
}

func (s *specList) skipConstruct() {
	s.pos++
	s.state = stNew
}

type trErr struct{ msg string }

func (e *trErr) Error() string { return e.msg }

func (s *specList) stats() error {
	s.nIndefinite = 0
	s.hasEquiv, s.hasRestrictedClass, s.hasCharClass = false, false, false
	var length uint64
	for i := range s.elems {
		p := &s.elems[i]
		var n uint64
		switch p.typ {
		case eNormal, eEquiv:
			n = 1
			if p.typ == eEquiv {
				s.hasEquiv = true
			}
		case eRange:
			n = uint64(p.last) - uint64(p.first) + 1
		case eClass:
			s.hasCharClass = true
			for ch := 0; ch < 256; ch++ {
				if p.cc.member(ch) {
					n++
				}
			}
			if p.cc != ccUpper && p.cc != ccLower {
				s.hasRestrictedClass = true
			}
		case eRepeat:
			if p.count > 0 {
				n = p.count
			} else {
				s.indefinite = i
				s.nIndefinite++
			}
		}
		nl := length + n
		if nl < length || nl > repeatMax {
			return &trErr{"too many characters in set"}
		}
		length = nl
	}
	s.length = length
	return nil
}

func (s *specList) cardOfComplement() uint64 {
	var in [256]bool
	card := uint64(256)
	s.state = stBegin
	for {
		ch, _ := s.next()
		if ch < 0 {
			break
		}
		if !in[ch] {
			card--
		}
		in[ch] = true
	}
	return card
}

type tr struct {
	complement, del, squeeze, truncate, translating bool
}

func (t *tr) validateCaseClasses(s1, s2 *specList) error {
	if t.complement || !s2.hasCharClass {
		return nil
	}
	const nUpper, nLower = 26, 26
	s1pos, s2pos := s1.pos, s2.pos
	s1New, s2New := true, true
	c1, c2 := 0, 0
	s1.state, s2.state = stBegin, stBegin
	for c1 != -1 && c2 != -1 {
		var cl1, cl2 ulClass
		c1, cl1 = s1.next()
		c2, cl2 = s2.next()
		if s2New && cl2 != ulNone && !(s1New && cl1 != ulNone) {
			return &trErr{"misaligned [:upper:] and/or [:lower:] construct"}
		}
		if cl2 != ulNone {
			s1.skipConstruct()
			s2.skipConstruct()
			if cl1 == ulUpper {
				s1.length -= nUpper - 1
			} else {
				s1.length -= nLower - 1
			}
			if cl2 == ulUpper {
				s2.length -= nUpper - 1
			} else {
				s2.length -= nLower - 1
			}
		}
		s1New = s1.state == stNew
		s2New = s2.state == stNew
	}
	s1.pos, s2.pos = s1pos, s2pos
	return nil
}

func (s *specList) homogeneous() bool {
	s.state = stBegin
	b, _ := s.next()
	if b < 0 {
		return false
	}
	for {
		ch, _ := s.next()
		if ch < 0 {
			return true
		}
		if ch != b {
			return false
		}
	}
}

func (t *tr) validate(s1, s2 *specList) error {
	if err := s1.stats(); err != nil {
		return err
	}
	if t.complement {
		s1.length = s1.cardOfComplement()
	}
	if s1.nIndefinite > 0 {
		return &trErr{"the [c*] repeat construct may not appear in string1"}
	}
	if s2 == nil {
		return nil
	}
	if err := s2.stats(); err != nil {
		return err
	}
	if s1.length >= s2.length && s2.nIndefinite == 1 {
		s2.elems[s2.indefinite].count = s1.length - s2.length
		s2.length = s1.length
	}
	if s2.nIndefinite > 1 {
		return &trErr{"only one [c*] repeat construct may appear in string2"}
	}
	if !t.translating {
		if s2.nIndefinite > 0 {
			return &trErr{"the [c*] construct may appear in string2 only when translating"}
		}
		return nil
	}
	if s2.hasEquiv {
		return &trErr{"[=c=] expressions may not appear in string2 when translating"}
	}
	if s2.hasRestrictedClass {
		return &trErr{"when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'"}
	}
	if err := t.validateCaseClasses(s1, s2); err != nil {
		return err
	}
	if s1.length > s2.length && !t.truncate {
		if s2.length == 0 {
			return &trErr{"when not truncating set1, string2 must be non-empty"}
		}
		last := s2.elems[len(s2.elems)-1]
		var ch byte
		switch last.typ {
		case eNormal, eRepeat:
			ch = last.ch
		case eRange:
			ch = last.last
		case eClass:
			return &trErr{"when translating with string1 longer than string2,\nthe latter string must not end with a character class"}
		}
		s2.elems = append(s2.elems, elem{typ: eRepeat, ch: ch, count: s1.length - s2.length})
		s2.length = s1.length
	}
	if t.complement && s1.hasCharClass && !(s2.length == s1.length && s2.homogeneous()) {
		return &trErr{"when translating with complemented character classes,\nstring2 must map all characters in the domain to one"}
	}
	return nil
}

func (s *specList) set(complement bool) [256]bool {
	var in [256]bool
	s.state = stBegin
	for {
		ch, _ := s.next()
		if ch < 0 {
			break
		}
		in[ch] = true
	}
	if complement {
		for i := range in {
			in[i] = !in[i]
		}
	}
	return in
}

// Run is the tr command.
func Run(ctx context.Context, c *builtins.Call) int {
	set := builtins.Options{List: options, StopAtOperand: true}
	opts, operands, code, done := textio.ParseWith(c, set, help, 1)
	if done {
		return code
	}
	t := &tr{}
	for _, o := range opts {
		switch o.Key {
		case "complement", "C":
			t.complement = true
		case "delete":
			t.del = true
		case "squeeze-repeats":
			t.squeeze = true
		case "truncate-set1":
			t.truncate = true
		}
	}
	n := len(operands)
	t.translating = n == 2 && !t.del
	minOps := 1
	if t.del == t.squeeze {
		minOps = 2
	}
	maxOps := 1
	if !t.del || t.squeeze {
		maxOps = 2
	}
	if n < minOps {
		if n == 0 {
			c.Errorf("missing operand")
		} else {
			c.Errorf("missing operand after %s", quote.New(c).Q(operands[n-1]))
			if t.squeeze {
				io.WriteString(c.Stderr, "Two strings must be given when both deleting and squeezing repeats.\n")
			} else {
				io.WriteString(c.Stderr, "Two strings must be given when translating.\n")
			}
		}
		c.TryHelp(0)
		return 1
	}
	if n > maxOps {
		c.Errorf("extra operand %s", quote.New(c).Q(operands[maxOps]))
		if n == 2 {
			io.WriteString(c.Stderr, "Only one string may be given when deleting without squeezing repeats.\n")
		}
		c.TryHelp(0)
		return 1
	}
	s1, ok := buildSpecList(c, unquote(c, operands[0]))
	if !ok {
		return 1
	}
	var s2 *specList
	if n == 2 {
		if s2, ok = buildSpecList(c, unquote(c, operands[1])); !ok {
			return 1
		}
	}
	if err := t.validate(s1, s2); err != nil {
		c.Errorf("%s", err.Error())
		return 1
	}

	var xlate [256]byte
	for i := range xlate {
		xlate[i] = byte(i)
	}
	var del, squeeze [256]bool
	doXlate := false
	switch {
	case t.squeeze && n == 1:
		squeeze = s1.set(t.complement)
	case t.del && n == 1:
		del = s1.set(t.complement)
	case t.squeeze && t.del:
		del = s1.set(t.complement)
		squeeze = s2.set(false)
	case t.translating:
		doXlate = true
		if t.complement {
			in1 := s1.set(false)
			s2.state = stBegin
			for i := 0; i < 256; i++ {
				if !in1[i] {
					ch, _ := s2.next()
					if ch < 0 {
						break
					}
					xlate[i] = byte(ch)
				}
			}
		} else {
			s1.state, s2.state = stBegin, stBegin
			for {
				c1, cl1 := s1.next()
				c2, cl2 := s2.next()
				switch {
				case cl1 == ulLower && cl2 == ulUpper:
					for i := 'a'; i <= 'z'; i++ {
						xlate[i] = byte(i - 32)
					}
				case cl1 == ulUpper && cl2 == ulLower:
					for i := 'A'; i <= 'Z'; i++ {
						xlate[i] = byte(i + 32)
					}
				default:
					if c1 < 0 || c2 < 0 {
						goto built
					}
					xlate[c1] = byte(c2)
				}
				if cl2 != ulNone {
					s1.skipConstruct()
					s2.skipConstruct()
				}
			}
		built:
		}
		if t.squeeze {
			squeeze = s2.set(false)
		}
	}
	return filter(ctx, c, &xlate, doXlate, &del, t.del, &squeeze, t.squeeze)
}

func filter(ctx context.Context, c *builtins.Call, xlate *[256]byte, doXlate bool, del *[256]bool, doDel bool, squeeze *[256]bool, doSqueeze bool) int {
	in := textio.Stdin(c)
	w := textio.NewWriter(c.Stdout)
	buf := textio.ReadBuffer(nil, in)
	last := -1
	for {
		if ctx.Err() != nil {
			return textio.Finish(c, w, 1)
		}
		nr, err := in.Read(buf)
		p := buf[:nr]
		if doDel {
			k := 0
			for _, b := range p {
				if !del[b] {
					p[k] = b
					k++
				}
			}
			p = p[:k]
		}
		if doXlate {
			for i, b := range p {
				p[i] = xlate[b]
			}
		}
		if doSqueeze {
			k := 0
			for _, b := range p {
				if squeeze[b] && int(b) == last {
					continue
				}
				p[k] = b
				k++
				last = int(b)
			}
			p = p[:k]
		}
		if len(p) > 0 {
			if _, werr := w.Write(p); werr != nil {
				return textio.WriteFailed(c, werr)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			w.Flush()
			c.Errorf("read error: %s", builtins.ErrText(err))
			return 1
		}
	}
	return textio.Finish(c, w, 0)
}
