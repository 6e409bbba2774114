package diff

import (
	"strconv"

	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
)

// The ed, forward-ed and RCS scripts that -e, -f and -n print.

// ed prints the -e script (forward false: changes last to first, lines
// that are a lone "." escaped) or the -f script (forward: first to last,
// the letter before the line numbers).
func (h *hunkOutput) ed(script []gnudiff.Change, forward bool) {
	w := h.d.out
	for n := range script {
		k := n
		if !forward {
			k = len(script) - 1 - n
		}
		f0, l0, f1, l1, kind := h.analyzeHunk(script[k : k+1])
		if kind == unchanged {
			continue
		}
		h.begin()
		if forward {
			w.WriteByte(" dac"[kind])
			h.numberRange(' ', f0, l0)
		} else {
			h.numberRange(',', f0, l0)
			w.WriteByte(" dac"[kind])
		}
		w.WriteByte('\n')
		if kind == old {
			continue
		}
		insert := true
		for i := f1; i <= l1; i++ {
			if !insert {
				w.WriteString("a\n")
				insert = true
			}
			line := h.f[1].Line(i)
			if !forward && len(line) == 2 && line[0] == '.' && line[1] == '\n' {
				w.WriteString("..\n.\ns/.//\n")
				insert = false
			} else {
				h.print1Line("", true, line, false)
			}
		}
		if insert {
			w.WriteString(".\n")
		}
	}
}

// rcs prints the -n script.
func (h *hunkOutput) rcs(script []gnudiff.Change) {
	w := h.d.out
	for k := range script {
		f0, l0, f1, l1, kind := h.analyzeHunk(script[k : k+1])
		if kind == unchanged {
			continue
		}
		h.begin()
		tf0, tl0 := f0+1, l0+1
		if kind&old != 0 {
			n := 1
			if tf0 <= tl0 {
				n = tl0 - tf0 + 1
			}
			w.WriteString("d" + strconv.Itoa(tf0) + " " + strconv.Itoa(n) + "\n")
		}
		if kind&new_ != 0 {
			tf1, tl1 := f1+1, l1+1
			n := 1
			if tf1 <= tl1 {
				n = tl1 - tf1 + 1
			}
			w.WriteString("a" + strconv.Itoa(tl0) + " " + strconv.Itoa(n) + "\n")
			for i := f1; i <= l1; i++ {
				h.print1Line("", true, h.f[1].Line(i), false)
			}
		}
	}
}
