package sort

import (
	"math"
)

// sizeMax stands for GNU's SIZE_MAX in field positions: "from the start
// of the line" for sword, "to the end of the line" for eword.
const sizeMax = math.MaxInt

// keyField is one sort key (GNU's struct keyfield).
type keyField struct {
	sword, schar int // start field and character, 0-based
	eword, echar int // end field (0-based) and character (0 = field end)

	skipsblanks, skipeblanks bool
	ignore                   *[256]bool
	translate                bool
	numeric, general, human  bool
	month, random, version   bool
	reverse                  bool
}

var (
	blanks        [256]bool
	nonprinting   [256]bool
	nondictionary [256]bool
	foldUpper     [256]byte
)

func init() {
	for i := 0; i < 256; i++ {
		b := byte(i)
		blanks[i] = b == ' ' || b == '\t' || b == '\n'
		nonprinting[i] = !(b >= 0x20 && b < 0x7f)
		alnum := (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
		nondictionary[i] = !alnum && !blanks[i]
		foldUpper[i] = b
		if b >= 'a' && b <= 'z' {
			foldUpper[i] = b - 32
		}
	}
}

// defaultCompare reports whether the key has no ordering option at all.
func (k *keyField) defaultCompare() bool {
	return !(k.ignore != nil || k.translate || k.skipsblanks || k.skipeblanks ||
		k.numeric || k.general || k.human || k.month || k.version || k.random)
}

// opts lists the key's ordering options as GNU's key_to_opts does, for
// the "options '-...' are incompatible" message.
func (k *keyField) opts() string {
	var b []byte
	if k.skipsblanks || k.skipeblanks {
		b = append(b, 'b')
	}
	if k.ignore == &nondictionary {
		b = append(b, 'd')
	}
	if k.translate {
		b = append(b, 'f')
	}
	if k.general {
		b = append(b, 'g')
	}
	if k.human {
		b = append(b, 'h')
	}
	if k.ignore == &nonprinting {
		b = append(b, 'i')
	}
	if k.month {
		b = append(b, 'M')
	}
	if k.numeric {
		b = append(b, 'n')
	}
	if k.random {
		b = append(b, 'R')
	}
	if k.reverse {
		b = append(b, 'r')
	}
	if k.version {
		b = append(b, 'V')
	}
	return string(b)
}

const (
	blStart = 1
	blEnd   = 2
	blBoth  = 3
)

// setOrdering applies ordering letters from s and returns the rest.
func (k *keyField) setOrdering(s string, blank int) string {
	for len(s) > 0 {
		switch s[0] {
		case 'b':
			if blank&blStart != 0 {
				k.skipsblanks = true
			}
			if blank&blEnd != 0 {
				k.skipeblanks = true
			}
		case 'd':
			k.ignore = &nondictionary
		case 'f':
			k.translate = true
		case 'g':
			k.general = true
		case 'h':
			k.human = true
		case 'i':
			if k.ignore == nil {
				k.ignore = &nonprinting
			}
		case 'M':
			k.month = true
		case 'n':
			k.numeric = true
		case 'R':
			k.random = true
		case 'r':
			k.reverse = true
		case 'V':
			k.version = true
		default:
			return s
		}
		s = s[1:]
	}
	return s
}

// parseFieldCount reads a decimal count; ok is false when there is none.
// Overflow saturates, as GNU does.
func parseFieldCount(s string) (n int, rest string, ok bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := int(s[i] - '0')
		if n > (sizeMax-d)/10 {
			n = sizeMax
		} else if n != sizeMax {
			n = n*10 + d
		}
		i++
	}
	if i == 0 {
		return 0, s, false
	}
	return n, s[i:], true
}

// keySpecError is a bad -k argument: GNU's message and the offending
// text.
type keySpecError struct {
	msg  string
	spec string
	// count is true for "invalid count at start of" messages.
	count bool
}

// parseKey parses a -k POS1[,POS2] specification.
func parseKey(spec string) (*keyField, *keySpecError) {
	k := &keyField{}
	n, s, ok := parseFieldCount(spec)
	if !ok {
		return nil, &keySpecError{"invalid number at field start", spec, true}
	}
	if n == 0 {
		return nil, &keySpecError{"field number is zero", spec, false}
	}
	k.sword = n - 1
	if len(s) > 0 && s[0] == '.' {
		rest := s[1:]
		n, s, ok = parseFieldCount(rest)
		if !ok {
			return nil, &keySpecError{"invalid number after '.'", rest, true}
		}
		if n == 0 {
			return nil, &keySpecError{"character offset is zero", spec, false}
		}
		k.schar = n - 1
	}
	if k.sword == 0 && k.schar == 0 {
		k.sword = sizeMax
	}
	s = k.setOrdering(s, blStart)
	if len(s) == 0 || s[0] != ',' {
		k.eword = sizeMax
		k.echar = 0
	} else {
		rest := s[1:]
		n, s, ok = parseFieldCount(rest)
		if !ok {
			return nil, &keySpecError{"invalid number after ','", rest, true}
		}
		if n == 0 {
			return nil, &keySpecError{"field number is zero", spec, false}
		}
		k.eword = n - 1
		if len(s) > 0 && s[0] == '.' {
			rest := s[1:]
			n, s, ok = parseFieldCount(rest)
			if !ok {
				return nil, &keySpecError{"invalid number after '.'", rest, true}
			}
			k.echar = n
		}
		s = k.setOrdering(s, blEnd)
	}
	if s != "" {
		return nil, &keySpecError{"stray character in field spec", spec, false}
	}
	return k, nil
}

// parseObsoleteKey parses the historical "+POS1 [-POS2]" form; nil when
// pos1 is not a valid +POS1 (it is then a file name).
func parseObsoleteKey(pos1, pos2 string, hasPos2 bool) (*keyField, *keySpecError) {
	k := &keyField{}
	n, s, ok := parseFieldCount(pos1[1:])
	if !ok {
		return nil, nil
	}
	k.sword = n
	if len(s) > 0 && s[0] == '.' {
		if n, s, ok = parseFieldCount(s[1:]); !ok {
			return nil, nil
		}
		k.schar = n
	}
	if k.sword == 0 && k.schar == 0 {
		k.sword = sizeMax
	}
	if s = k.setOrdering(s, blStart); s != "" {
		return nil, nil
	}
	k.eword = sizeMax
	if hasPos2 {
		n, s, ok = parseFieldCount(pos2[1:])
		if !ok {
			return nil, &keySpecError{"invalid number after '-'", pos2[1:], true}
		}
		k.eword = n
		if len(s) > 0 && s[0] == '.' {
			rest := s[1:]
			if n, s, ok = parseFieldCount(rest); !ok {
				return nil, &keySpecError{"invalid number after '.'", rest, true}
			}
			k.echar = n
		}
		if k.echar == 0 && k.eword > 0 {
			k.eword--
		}
		if s = k.setOrdering(s, blEnd); s != "" {
			return nil, &keySpecError{"stray character in field spec", pos2, false}
		}
	}
	return k, nil
}

// begfield returns the offset where key k starts in line (GNU's begfield).
func begfield(line []byte, k *keyField, tab int) int {
	ptr, lim := 0, len(line)
	sword := k.sword
	if tab >= 0 {
		t := byte(tab)
		for ptr < lim && sword > 0 {
			sword--
			for ptr < lim && line[ptr] != t {
				ptr++
			}
			if ptr < lim {
				ptr++
			}
		}
	} else {
		for ptr < lim && sword > 0 {
			sword--
			for ptr < lim && blanks[line[ptr]] {
				ptr++
			}
			for ptr < lim && !blanks[line[ptr]] {
				ptr++
			}
		}
	}
	if k.skipsblanks {
		for ptr < lim && blanks[line[ptr]] {
			ptr++
		}
	}
	if lim-ptr > k.schar {
		ptr += k.schar
	} else {
		ptr = lim
	}
	return ptr
}

// limfield returns the offset where key k ends in line (GNU's limfield).
func limfield(line []byte, k *keyField, tab int) int {
	ptr, lim := 0, len(line)
	eword, echar := k.eword, k.echar
	if echar == 0 {
		eword++
	}
	if tab >= 0 {
		t := byte(tab)
		for ptr < lim && eword > 0 {
			eword--
			for ptr < lim && line[ptr] != t {
				ptr++
			}
			if ptr < lim && (eword > 0 || echar > 0) {
				ptr++
			}
		}
	} else {
		for ptr < lim && eword > 0 {
			eword--
			for ptr < lim && blanks[line[ptr]] {
				ptr++
			}
			for ptr < lim && !blanks[line[ptr]] {
				ptr++
			}
		}
	}
	if echar != 0 {
		if k.skipeblanks {
			for ptr < lim && blanks[line[ptr]] {
				ptr++
			}
		}
		if lim-ptr > echar {
			ptr += echar
		} else {
			ptr = lim
		}
	}
	return ptr
}

// keyBounds returns the start and limit of key k in line.
func keyBounds(line []byte, k *keyField, tab int) (int, int) {
	var lim int
	if k.eword == sizeMax {
		lim = len(line)
	} else {
		lim = limfield(line, k, tab)
	}
	var beg int
	if k.sword != sizeMax {
		beg = begfield(line, k, tab)
	} else if k.skipsblanks {
		for beg < lim && blanks[line[beg]] {
			beg++
		}
	}
	if lim < beg {
		lim = beg
	}
	return beg, lim
}
