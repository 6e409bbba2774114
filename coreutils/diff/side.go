package diff

import (
	"unicode/utf8"

	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"
)

// sdiff prints the side-by-side format (-y).
func (h *hunkOutput) sdiff(script []gnudiff.Change) {
	h.begin()
	next0, next1 := 0, 0
	common := func(limit0, limit1 int) {
		i0, i1 := next0, next1
		cfg := h.d.cfg
		if !cfg.suppressCommon && (i0 != limit0 || i1 != limit1) {
			if !cfg.leftColumn {
				for i0 != limit0 && i1 != limit1 {
					h.sdiffLine(h.f[0].Line(i0), true, ' ', h.f[1].Line(i1), true)
					i0++
					i1++
				}
				for i1 != limit1 {
					h.sdiffLine(nil, false, ')', h.f[1].Line(i1), true)
					i1++
				}
			}
			for i0 != limit0 {
				h.sdiffLine(h.f[0].Line(i0), true, '(', nil, false)
				i0++
			}
		}
		next0, next1 = limit0, limit1
	}
	for k := range script {
		first0, last0, first1, last1, kind := h.analyzeHunk(script[k : k+1])
		if kind == unchanged {
			continue
		}
		common(first0, first1)
		if kind == changed {
			i, j := first0, first1
			for ; i <= last0 && j <= last1; i, j = i+1, j+1 {
				h.sdiffLine(h.f[0].Line(i), true, '|', h.f[1].Line(j), true)
			}
			kind = 0
			if i <= last0 {
				kind |= old
			}
			if j <= last1 {
				kind |= new_
			}
			next0, first0 = i, i
			next1, first1 = j, j
		}
		if kind&new_ != 0 {
			j := first1
			for ; j <= last1; j++ {
				h.sdiffLine(nil, false, '>', h.f[1].Line(j), true)
			}
			next1 = j
		}
		if kind&old != 0 {
			i := first0
			for ; i <= last0; i++ {
				h.sdiffLine(h.f[0].Line(i), true, '<', nil, false)
			}
			next0 = i
		}
	}
	common(h.f[0].NumLines(), h.f[1].NumLines())
}

func (h *hunkOutput) tabFromTo(from, to int) int {
	w := h.d.out
	if !h.d.cfg.expandTabs {
		ts := h.d.cfg.tabSize
		for tab := from + ts - from%ts; tab <= to; tab += ts {
			w.WriteByte('\t')
			from = tab
		}
	}
	for ; from < to; from++ {
		w.WriteByte(' ')
	}
	return to
}

func complete(line []byte) bool { return len(line) > 0 && line[len(line)-1] == '\n' }

func (h *hunkOutput) sdiffLine(left []byte, hasLeft bool, sep byte, right []byte, hasRight bool) {
	d := h.d
	hw, c2o := d.cfg.sdiffHalfWidth, d.cfg.sdiffCol2Offset
	col := 0
	putNewline := false
	reset := false
	switch sep {
	case '<':
		d.setColor(deleteColor)
		reset = true
	case '>':
		d.setColor(addColor)
		reset = true
	}
	if hasLeft {
		putNewline = putNewline || complete(left)
		col = h.halfLine(left, 0, hw)
	}
	if sep != ' ' {
		col = h.tabFromTo(col, (hw+c2o-1)/2) + 1
		if sep == '|' && putNewline != complete(right) {
			if putNewline {
				sep = '/'
			} else {
				sep = '\\'
			}
		}
		d.out.WriteByte(sep)
	}
	if hasRight {
		putNewline = putNewline || complete(right)
		if !(len(right) > 0 && right[0] == '\n') {
			col = h.tabFromTo(col, c2o)
			h.halfLine(right, col, hw)
		}
	}
	if putNewline {
		d.out.WriteByte('\n')
	}
	if reset {
		d.setColor(resetColor)
	}
}

// halfLine prints a line truncated to outBound columns, observing tabs,
// without its newline, and returns the last column written.
func (h *hunkOutput) halfLine(line []byte, indent, outBound int) int {
	w := h.d.out
	ts := h.d.cfg.tabSize
	expand := h.d.cfg.expandTabs
	in, out := 0, 0
	for p := 0; p < len(line); {
		c := line[p]
		p++
		switch {
		case c == '\t':
			spaces := ts - in%ts
			if in == out {
				tabstop := out + spaces
				if expand {
					if outBound < tabstop {
						tabstop = outBound
					}
					for ; out < tabstop; out++ {
						w.WriteByte(' ')
					}
				} else if tabstop < outBound {
					out = tabstop
					w.WriteByte(c)
				}
			}
			in += spaces
		case c == '\r':
			w.WriteByte(c)
			h.tabFromTo(0, indent)
			in, out = 0, 0
		case c == '\b':
			if in != 0 {
				in--
				if in < outBound {
					if out <= in {
						for ; out < in; out++ {
							w.WriteByte(' ')
						}
					} else {
						out = in
						w.WriteByte(c)
					}
				}
			}
		case c == '\n':
			return out
		case c >= ' ' && c <= '~':
			in++
			if in <= outBound {
				out = in
				w.WriteByte(c)
			}
		default:
			r, n := utf8.DecodeRune(line[p-1:])
			if c >= 0x80 && r != utf8.RuneError && n > 1 {
				wd := wcwidth.RuneWidth(r)
				if wd > 0 {
					in += wd
				}
				if in <= outBound {
					out = in
					w.Write(line[p-1 : p-1+n])
				}
				p += n - 1
				continue
			}
			if c != 0 && c < 0x80 && c != '\f' && c != '\v' {
				// A control character: no width.
				if in <= outBound {
					out = in
					w.WriteByte(c)
				}
				continue
			}
			if in < outBound {
				w.WriteByte(c)
			}
		}
	}
	return out
}
