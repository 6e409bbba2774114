package diff

import (
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
)

// Group and line formats (-D, --GTYPE-group-format, --LTYPE-line-format).

type lineGroup struct {
	file     *gnudiff.File
	from, to int // lines [from, to), 0-based
}

// ifdef prints the merged file of -D and the format options.
func (h *hunkOutput) ifdef(script []gnudiff.Change) {
	cfg := h.d.cfg
	next0, next1 := 0, 0
	for k := range script {
		first0, last0, first1, last1, kind := h.analyzeHunk(script[k : k+1])
		if kind == unchanged {
			continue
		}
		h.begin()
		if next0 < first0 || next1 < first1 {
			h.formatGroup(cfg.groupFormat[0], next0, first0, next1, first1)
		}
		next0, next1 = last0+1, last1+1
		h.formatGroup(cfg.groupFormat[kind], first0, next0, first1, next1)
	}
	if next0 < h.f[0].NumLines() || next1 < h.f[1].NumLines() {
		h.begin()
		h.formatGroup(cfg.groupFormat[0], next0, h.f[0].NumLines(), next1, h.f[1].NumLines())
	}
}

func (h *hunkOutput) formatGroup(format string, beg0, end0, beg1, end1 int) {
	g := [2]lineGroup{{h.f[0], beg0, end0}, {h.f[1], beg1, end1}}
	h.groupFormat(true, format, 0, 0, &g)
}

// groupLetter is GNU's groups_letter_value: -1 when letter is not one.
func groupLetter(g *[2]lineGroup, letter byte) int {
	gi := 0
	switch letter {
	case 'E', 'F', 'L', 'M', 'N':
		letter += 'a' - 'A'
		gi = 1
	}
	gr := g[gi]
	switch letter {
	case 'e':
		return gr.from
	case 'f':
		return gr.from + 1
	case 'l':
		return gr.to
	case 'm':
		return gr.to + 1
	case 'n':
		return gr.to - gr.from
	}
	return -1
}

// groupFormat interprets format from index f up to endchar (0: the end),
// printing when out is set, and returns where it stopped.
func (h *hunkOutput) groupFormat(out bool, format string, f int, endchar byte, g *[2]lineGroup) int {
	w := h.d.out
	cfg := h.d.cfg
	for f < len(format) && format[f] != endchar {
		c := format[f]
		f++
		f1 := f
		if c == '%' && f < len(format) {
			c = format[f]
			f++
			switch c {
			case '%':
			case '(':
				var value [2]int
				ok := true
				for i := 0; i < 2 && ok; i++ {
					if f < len(format) && format[f] >= '0' && format[f] <= '9' {
						v := 0
						for f < len(format) && format[f] >= '0' && format[f] <= '9' {
							v = v*10 + int(format[f]-'0')
							f++
						}
						value[i] = v
					} else {
						if f >= len(format) {
							ok = false
							break
						}
						value[i] = groupLetter(g, format[f])
						if value[i] == -1 {
							ok = false
							break
						}
						f++
					}
					if f >= len(format) || format[f] != "=?"[i] {
						ok = false
						break
					}
					f++
				}
				if !ok {
					c, f = '%', f1
					break
				}
				eq := value[0] == value[1]
				f = h.groupFormat(out && eq, format, f, ':', g)
				if f < len(format) {
					f = h.groupFormat(out && !eq, format, f+1, ')', g)
					if f < len(format) {
						f++
					}
				}
				continue
			case '<':
				if out {
					h.ifdefLines(cfg.lineFormat[1], g[0])
				}
				continue
			case '=':
				if out {
					h.ifdefLines(cfg.lineFormat[0], g[0])
				}
				continue
			case '>':
				if out {
					h.ifdefLines(cfg.lineFormat[2], g[1])
				}
				continue
			default:
				if nf, ok := h.printfSpec(out, format, f-2, nil, 0, g); ok {
					f = nf
					continue
				}
				c, f = '%', f1
			}
		}
		if out {
			w.WriteByte(c)
		}
	}
	return f
}

func (h *hunkOutput) ifdefLines(format string, g lineGroup) {
	w := h.d.out
	f := g.file
	if g.from >= g.to {
		return
	}
	if !h.d.cfg.expandTabs {
		switch format {
		case "%l\n":
			for i := g.from; i < g.to; i++ {
				line := f.Line(i)
				w.Write(line)
				if !complete(line) {
					w.WriteByte('\n')
				}
			}
			return
		case "%L":
			for i := g.from; i < g.to; i++ {
				w.Write(f.Line(i))
			}
			return
		}
	}
	for i := g.from; i < g.to; i++ {
		line := f.Line(i)
		for k := 0; k < len(format); {
			c := format[k]
			k++
			k1 := k
			if c == '%' && k < len(format) {
				c = format[k]
				k++
				switch c {
				case '%':
				case 'l':
					body := line
					if complete(body) {
						body = body[:len(body)-1]
					}
					h.output1Line(body, "", "")
					continue
				case 'L':
					h.output1Line(line, "", "")
					continue
				default:
					if nk, ok := h.printfSpec(true, format, k-2, f, i, nil); ok {
						k = nk
						continue
					}
					c, k = '%', k1
				}
			}
			w.WriteByte(c)
		}
	}
}

// printfSpec handles %[-'0]*[0-9]*(.[0-9]*)?[cdoxX] at format[spec]; it
// returns the index after it, or false when it is not a valid spec.
func (h *hunkOutput) printfSpec(out bool, format string, spec int, file *gnudiff.File, n int, g *[2]lineGroup) (int, bool) {
	f := spec + 1
	at := func(i int) byte {
		if i < len(format) {
			return format[i]
		}
		return 0
	}
	var c byte
	for {
		c = at(f)
		f++
		if c != '-' && c != '\'' && c != '0' {
			break
		}
	}
	for c >= '0' && c <= '9' {
		c = at(f)
		f++
	}
	if c == '.' {
		for {
			c = at(f)
			f++
			if !(c >= '0' && c <= '9') {
				break
			}
		}
	}
	c1 := at(f)
	f++
	switch c {
	case 'c':
		if c1 != '\'' {
			return 0, false
		}
		v, nf, ok := scanCharLiteral(format, f)
		if !ok {
			return 0, false
		}
		if out {
			h.d.out.WriteByte(v)
		}
		return nf, true
	case 'd', 'o', 'x', 'X':
		var value int
		if file != nil {
			if c1 != 'n' {
				return 0, false
			}
			value = n + 1
		} else {
			value = groupLetter(g, c1)
			if value < 0 {
				return 0, false
			}
		}
		if out {
			prefix := strings.ReplaceAll(format[spec:f-2], "'", "")
			fmt.Fprintf(h.d.out, prefix+string(c), value)
		}
		return f, true
	}
	return 0, false
}

func scanCharLiteral(s string, p int) (byte, int, bool) {
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	start := p
	c := at(p)
	p++
	switch c {
	case 0, '\'':
		return 0, 0, false
	case '\\':
		var v byte
		for {
			c = at(p)
			p++
			if c == '\'' {
				break
			}
			digit := c - '0'
			if digit >= 8 {
				return 0, 0, false
			}
			v = 8*v + digit
		}
		digits := p - start - 2
		if digits < 1 || digits > 3 {
			return 0, 0, false
		}
		return v, p, true
	default:
		if at(p) != '\'' {
			return 0, 0, false
		}
		return c, p + 1, true
	}
}
