package xargs

import (
	"bufio"
	"io"

	"github.com/bashbox/bashbox/builtins"
)

// readItem reads one item of -0 or -d input.
func (x *xargs) readItem() (bool, error) {
	if x.atEOF {
		return false, nil
	}
	limit := x.maxChars - x.base - 1
	x.word = x.word[:0]
	for {
		b, err := x.in.ReadSlice(x.delim)
		if len(b) > 0 && b[len(b)-1] == x.delim && err == nil {
			b = b[:len(b)-1]
			x.word = append(x.word, b...)
			if len(x.word) > limit {
				return false, x.fail("argument line too long")
			}
			x.lineno++
			return true, x.pushWord()
		}
		x.word = append(x.word, b...)
		if len(x.word) > limit {
			return false, x.fail("argument line too long")
		}
		switch err {
		case nil, bufio.ErrBufferFull:
			continue
		case io.EOF:
			x.atEOF = true
			if len(x.word) == 0 {
				return false, nil
			}
			return false, x.pushWord()
		}
		x.c.Errorf("read error: %s", builtins.ErrText(err))
		return false, errExit{1}
	}
}

// pushWord pushes the word read, cut at a NUL as a C string would be.
func (x *xargs) pushWord() error {
	w := x.word
	for i, ch := range w {
		if ch == 0 {
			w = w[:i]
			break
		}
	}
	return x.push(string(w))
}

func isBlank(ch byte) bool { return ch == ' ' || ch == '\t' }

func isSpace(ch byte) bool {
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r'
}

// readLine reads one line of the default input format, pushing its
// words: words are separated by blanks (not in -I mode, where the line is
// one item), '...' and "..." quote, a backslash escapes the next
// character. Leading white space, empty lines included, is skipped, so
// a line ending in a blank goes on on the next line. The logical EOF
// string ends the input.
func (x *xargs) readLine() (bool, error) {
	if x.atEOF {
		return false, nil
	}
	const (
		stSpace = iota
		stNorm
		stQuote
		stBackslash
	)
	state := stSpace
	var quote byte
	first, seen := true, false
	limit := x.maxChars - x.base - 1
	var c, prev byte
	x.word = x.word[:0]
	for {
		prev = c
		ch, err := x.in.ReadByte()
		if err != nil {
			if err != io.EOF {
				x.c.Errorf("read error: %s", builtins.ErrText(err))
				return false, errExit{1}
			}
			x.atEOF = true
			if len(x.word) == 0 && !seen {
				return false, nil
			}
			if state == stQuote {
				return false, x.fail(unmatched(quote))
			}
			if first && x.isEOFString() {
				return false, nil
			}
			return false, x.pushWord()
		}
		c = ch
		switch state {
		case stSpace:
			if isSpace(c) {
				continue
			}
			state = stNorm
			fallthrough
		case stNorm:
			if c == '\n' {
				if !isBlank(prev) {
					x.lineno++
				}
				if len(x.word) == 0 && !seen {
					state = stSpace
					continue
				}
				if x.isEOFString() {
					x.atEOF = true
					return false, nil
				}
				return true, x.pushWord()
			}
			seen = true
			if !x.hasReplace && isBlank(c) {
				if x.isEOFString() {
					x.atEOF = true
					return false, nil
				}
				if err := x.pushWord(); err != nil {
					return false, err
				}
				x.word = x.word[:0]
				state = stSpace
				first, seen = false, false
				continue
			}
			switch c {
			case '\\':
				state = stBackslash
				continue
			case '\'', '"':
				state = stQuote
				quote = c
				continue
			}
		case stQuote:
			if c == '\n' {
				return false, x.fail(unmatched(quote))
			}
			if c == quote {
				state = stNorm
				seen = true
				continue
			}
		case stBackslash:
			state = stNorm
		}
		if c == 0 {
			x.warnNUL()
		}
		if len(x.word) >= limit {
			return false, x.fail("argument line too long")
		}
		x.word = append(x.word, c)
	}
}

// isEOFString reports whether the word read is the logical EOF string.
func (x *xargs) isEOFString() bool {
	if x.eof == "" {
		return false
	}
	w := x.word
	for i, ch := range w {
		if ch == 0 {
			w = w[:i]
			break
		}
	}
	return string(w) == x.eof
}

func (x *xargs) warnNUL() {
	if !x.nulWarned {
		x.nulWarned = true
		x.c.Errorf("WARNING: a NUL character occurred in the input.  It cannot be passed through in the argument list.  Did you mean to use the --null option?")
	}
}

func unmatched(q byte) string {
	kind := "double"
	if q == '\'' {
		kind = "single"
	}
	return "unmatched " + kind + " quote; by default quotes are special to xargs unless you use the -0 option"
}
