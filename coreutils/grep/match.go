package grep

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/posixre"
)

// maxLiterals is the largest string list searched string by string;
// longer lists go to the regular expression engine.
const maxLiterals = 64

// matcher finds matching lines.
type matcher struct {
	eol      byte
	warnings []string
	none     bool // no patterns: nothing matches
	all      bool // an empty literal: every line matches

	lits *litSet // the patterns are plain strings (fast path) when re is nil

	re      *posixre.Regexp
	must    *litSet // one of these occurs in every match: a pre-filter
	perLine bool    // match line by line instead of over the buffer

	also [][]byte // further strings every match contains (checked before re)
	// prefix: the one pattern is ^ and a plain string (^func ), so a
	// line matches when it starts with the string; must finds them.
	prefix []byte

	// words: -w over plain strings; a line matches when one of must's
	// strings occurs in it between non-word characters.
	words bool
	low   []byte
}

func newMatcher(cfg *config) (*matcher, error) {
	m := &matcher{eol: cfg.eol}
	if len(cfg.patterns) == 0 {
		m.none = true
		return m, nil
	}
	if lits, ok := literalPatterns(cfg); ok {
		for _, l := range lits {
			if len(l) == 0 {
				m.all = true
			}
		}
		m.lits = newLitSet(lits, false)
		return m, nil
	}
	fl := posixre.Flags{IgnoreCase: cfg.ignoreCase}
	if cfg.eol == '\n' && cfg.syntax != posixre.PCRE {
		fl.Multiline, fl.Lines = true, true
	}
	re, err := posixre.CompileList(cfg.patterns, cfg.syntax, fl, posixre.ListOptions{Word: cfg.word && !cfg.line, Line: cfg.line})
	if err != nil {
		return nil, err
	}
	m.re = re
	m.warnings = re.Warnings()
	m.perLine = true
	if cfg.word && !cfg.line {
		c := *cfg
		c.word, c.ignoreCase = false, false
		if lits, ok := literalPatterns(&c); ok && !containsEmpty(lits) && (!cfg.ignoreCase || foldable(lits)) {
			m.must = newLitSet(lits, cfg.ignoreCase)
			m.words = true
			return m, nil
		}
	}
	if lit, ok := anchoredLiteral(cfg); ok {
		m.prefix, m.must = []byte(lit), newLitSet([]string{lit}, false)
		return m, nil
	}
	if must := re.MustAny(); len(must) > 0 && len(must) <= maxLiterals {
		if !cfg.ignoreCase {
			m.must = newLitSet(must, false)
			if len(must) == 1 {
				for _, a := range re.MustAll() {
					if a != must[0] {
						m.also = append(m.also, []byte(a))
					}
				}
			}
		} else if foldable(must) {
			m.must = newLitSet(must, true)
		}
	}
	return m, nil
}

// anchoredLiteral returns s when the only pattern is ^s, s a plain
// non-empty string matched case-sensitively: the regular expression
// engine is then not needed to tell a line that starts with s.
func anchoredLiteral(cfg *config) (string, bool) {
	if len(cfg.patterns) != 1 || cfg.ignoreCase || cfg.word || cfg.line || cfg.eol != '\n' ||
		(cfg.syntax != posixre.BRE && cfg.syntax != posixre.ERE) {
		return "", false
	}
	rest, ok := strings.CutPrefix(cfg.patterns[0], "^")
	if !ok || rest == "" || strings.ContainsAny(rest[:1], "*+?{^") {
		return "", false // what a repeat or anchor right after ^ means varies
	}
	re, err := posixre.Compile(rest, cfg.syntax, posixre.Flags{})
	if err != nil || len(re.Warnings()) > 0 {
		return "", false
	}
	if set, ok := re.Literals(); ok && len(set) == 1 && set[0] != "" && !strings.ContainsRune(set[0], '\n') {
		return set[0], true
	}
	return "", false
}

func containsEmpty(set []string) bool {
	for _, s := range set {
		if s == "" {
			return true
		}
	}
	return false
}

// foldable reports whether ASCII lower-casing finds every case variant of
// the strings: they are ASCII and hold no k or s (which U+212A KELVIN SIGN
// and U+017F LONG S match too).
func foldable(set []string) bool {
	for _, s := range set {
		for i := 0; i < len(s); i++ {
			c := s[i] | 0x20
			if s[i] >= 0x80 || c == 'k' || c == 's' {
				return false
			}
		}
	}
	return true
}

// literalPatterns returns the patterns as plain strings when they all are
// (or are alternations of) plain strings matched case-sensitively
// anywhere in a line.
func literalPatterns(cfg *config) ([]string, bool) {
	if cfg.ignoreCase || cfg.word || cfg.line || cfg.syntax == posixre.PCRE || len(cfg.patterns) > maxLiterals {
		return nil, false
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range cfg.patterns {
		set := []string{p}
		if cfg.syntax != posixre.Fixed {
			re, err := posixre.Compile(p, cfg.syntax, posixre.Flags{})
			if err != nil || len(re.Warnings()) > 0 {
				return nil, false
			}
			var ok bool
			if set, ok = re.Literals(); !ok {
				return nil, false
			}
		}
		for _, s := range set {
			if strings.IndexByte(s, cfg.eol) >= 0 {
				return nil, false
			}
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	if len(out) > maxLiterals {
		return nil, false
	}
	return out, true
}

// lineBounds returns the line of buf holding position p: its start and the
// position of its terminator.
func (m *matcher) lineBounds(buf []byte, p int) (int, int) {
	ls := bytes.LastIndexByte(buf[:p], m.eol) + 1
	le := bytes.IndexByte(buf[p:], m.eol)
	if le < 0 {
		return ls, len(buf)
	}
	return ls, p + le
}

// newChunk tells the matcher that a new buffer is being searched.
func (m *matcher) newChunk() {
	if m.lits != nil {
		m.lits.reset()
	}
	if m.must != nil {
		m.must.reset()
	}
}

// nextLine finds the first matching line in buf[pos:], where buf holds
// whole lines each ended by the terminator. It returns the line's start
// and the position of its terminator, or -1, -1.
func (m *matcher) nextLine(buf []byte, pos int) (int, int) {
	if pos >= len(buf) || m.none {
		return -1, -1
	}
	if m.all {
		return m.lineBounds(buf, pos)
	}
	if m.re == nil {
		p := m.lits.next(buf, pos)
		if p < 0 {
			return -1, -1
		}
		return m.lineBounds(buf, p)
	}
	if m.must != nil {
		for pos < len(buf) {
			p := m.must.next(buf, pos)
			if p < 0 {
				return -1, -1
			}
			ls, le := m.lineBounds(buf, p)
			if m.verify(buf[ls:le]) {
				return ls, le
			}
			pos = le + 1
		}
		return -1, -1
	}
	if !m.perLine && !m.re.UsesBacktracking(buf[pos:]) {
		loc := m.re.FindIndex(buf[pos:])
		if loc == nil || pos+loc[0] >= len(buf) {
			return -1, -1
		}
		return m.lineBounds(buf, pos+loc[0])
	}
	for pos < len(buf) {
		le := bytes.IndexByte(buf[pos:], m.eol)
		if le < 0 {
			le = len(buf)
		} else {
			le += pos
		}
		if m.re.Match(buf[pos:le]) {
			return pos, le
		}
		pos = le + 1
	}
	return -1, -1
}

// verify checks a line found by the pre-filter.
func (m *matcher) verify(line []byte) bool {
	if m.prefix != nil {
		return bytes.HasPrefix(line, m.prefix)
	}
	if !m.words {
		for _, a := range m.also {
			if !bytes.Contains(line, a) {
				return false
			}
		}
		return m.re.Match(line)
	}
	hay := line
	if m.must.fold {
		m.low = lowerASCII(m.low[:0], line)
		hay = m.low
	}
	for _, l := range m.must.strs {
		for i := 0; i <= len(hay)-len(l); {
			j := bytes.Index(hay[i:], l)
			if j < 0 {
				break
			}
			s := i + j
			if !wordBefore(line, s) && !wordAfter(line, s+len(l)) {
				return true
			}
			i = s + 1
		}
	}
	return false
}

func wordBefore(line []byte, p int) bool {
	if p == 0 {
		return false
	}
	r, _ := utf8.DecodeLastRune(line[:p])
	return posixre.IsWordChar(r)
}

func wordAfter(line []byte, p int) bool {
	if p >= len(line) {
		return false
	}
	r, _ := utf8.DecodeRune(line[p:])
	return posixre.IsWordChar(r)
}

// matches appends the non-empty matches in line, as grep -o prints them.
func (m *matcher) matches(line []byte, out [][2]int) [][2]int {
	if m.none {
		return out
	}
	if m.re != nil {
		for _, loc := range m.re.FindAllIndex(line, -1) {
			if loc[1] > loc[0] {
				out = append(out, [2]int{loc[0], loc[1]})
			}
		}
		return out
	}
	pos := 0
	for pos < len(line) {
		bs, be := -1, -1
		for _, l := range m.lits.strs {
			if len(l) == 0 {
				continue
			}
			i := bytes.Index(line[pos:], l)
			if i < 0 {
				continue
			}
			s := pos + i
			if bs < 0 || s < bs || s == bs && s+len(l) > be {
				bs, be = s, s+len(l)
			}
		}
		if bs < 0 {
			break
		}
		out = append(out, [2]int{bs, be})
		pos = be
	}
	return out
}

// litSet finds the first occurrence of any of several strings. Positions
// found are cached per string, so that a buffer is scanned once per string
// however many occurrences it holds. With fold, the strings are ASCII
// lower case and the buffer is searched lower-cased.
type litSet struct {
	strs   [][]byte
	rare   []int // each string's rarest byte (see indexRare)
	cached []int
	valid  bool
	base   int
	fold   bool
	low    []byte // the lower-cased buffer when fold
}

func newLitSet(strs []string, fold bool) *litSet {
	s := &litSet{fold: fold, cached: make([]int, len(strs))}
	for _, x := range strs {
		if fold {
			x = strings.ToLower(x)
		}
		s.strs = append(s.strs, []byte(x))
		s.rare = append(s.rare, rarestByte([]byte(x)))
	}
	return s
}

func (s *litSet) reset() { s.valid = false }

// next returns the position of the first occurrence of any string in
// buf[pos:], or -1. Calls for one buffer must not go backwards.
func (s *litSet) next(buf []byte, pos int) int {
	if !s.valid || pos < s.base {
		s.valid, s.base = true, pos
		for i := range s.cached {
			s.cached[i] = -2
		}
		if s.fold {
			s.low = lowerASCII(s.low[:0], buf)
		}
	}
	hay := buf
	if s.fold {
		hay = s.low
	}
	if len(s.strs) == 1 {
		i := indexRare(hay[pos:], s.strs[0], s.rare[0])
		if i < 0 {
			return -1
		}
		return pos + i
	}
	best := -1
	for i, l := range s.strs {
		n := s.cached[i]
		if n == -1 {
			continue
		}
		if n < pos {
			j := indexRare(hay[pos:], l, s.rare[i])
			if j < 0 {
				s.cached[i] = -1
				continue
			}
			n = pos + j
			s.cached[i] = n
		}
		if best < 0 || n < best {
			best = n
		}
	}
	return best
}

// lowerASCII appends b with ASCII letters lower-cased, eight bytes at a
// time.
func lowerASCII(dst, b []byte) []byte {
	if cap(dst) < len(b) {
		dst = make([]byte, 0, len(b)+len(b)/4)
	}
	dst = dst[:len(b)]
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		h := x & 0x7f7f7f7f7f7f7f7f
		geA := h + 0x3f3f3f3f3f3f3f3f // high bit set where byte >= 'A'
		gtZ := h + 0x2525252525252525 // high bit set where byte > 'Z'
		upper := (geA &^ gtZ) &^ x & 0x8080808080808080
		binary.LittleEndian.PutUint64(dst[i:], x|upper>>2)
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 0x20
		}
		dst[i] = c
	}
	return dst
}
