package diff

import (
	"strconv"

	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
)

// Context and unified output: hunks widened by the context lines, with
// their range headers.

func (h *hunkOutput) context(script []gnudiff.Change, unified bool) {
	h.markIgnorable(script)
	h.findLastSearch = 0
	h.findLastMatch = -1
	h.hunks(script, func(hunk []gnudiff.Change) {
		if unified {
			h.unifiedHunk(hunk)
		} else {
			h.contextHunk(hunk)
		}
	})
}

func (h *hunkOutput) widen(first0, last0, first1, last1 int) (int, int, int, int) {
	ctx := h.d.cfg.context
	first0 = max(first0-ctx, 0)
	first1 = max(first1-ctx, 0)
	n0, n1 := h.f[0].NumLines(), h.f[1].NumLines()
	if last0 < n0-ctx {
		last0 += ctx
	} else {
		last0 = n0 - 1
	}
	if last1 < n1-ctx {
		last1 += ctx
	} else {
		last1 = n1 - 1
	}
	return first0, last0, first1, last1
}

func (h *hunkOutput) contextRange(a, b int) {
	w := h.d.out
	ta, tb := a+1, b+1
	if tb <= ta {
		w.WriteString(strconv.Itoa(tb))
	} else {
		w.WriteString(strconv.Itoa(ta))
		w.WriteByte(',')
		w.WriteString(strconv.Itoa(tb))
	}
}

func (h *hunkOutput) unifiedRange(a, b int) {
	w := h.d.out
	ta, tb := a+1, b+1
	switch {
	case tb < ta:
		w.WriteString(strconv.Itoa(tb))
		w.WriteString(",0")
	case tb == ta:
		w.WriteString(strconv.Itoa(tb))
	default:
		w.WriteString(strconv.Itoa(ta))
		w.WriteByte(',')
		w.WriteString(strconv.Itoa(tb - ta + 1))
	}
}

// openHunk starts printing a context or unified hunk: its lines widened by
// the context, what it changes, and the function line before it for -F/-p.
// Nothing is printed for a hunk of ignorable changes only (kind unchanged).
func (h *hunkOutput) openHunk(hunk []gnudiff.Change) (first0, last0, first1, last1, kind int, fn []byte) {
	first0, last0, first1, last1, kind = h.analyzeHunk(hunk)
	if kind == unchanged {
		return
	}
	first0, last0, first1, last1 = h.widen(first0, last0, first1, last1)
	if h.d.cfg.functionRE != nil {
		fn = h.findFunction(first0)
	}
	h.begin()
	return
}

func (h *hunkOutput) contextHunk(hunk []gnudiff.Change) {
	d := h.d
	w := d.out
	first0, last0, first1, last1, kind, fn := h.openHunk(hunk)
	if kind == unchanged {
		return
	}
	w.WriteString("***************")
	if fn != nil {
		h.printFunction(fn)
	}
	w.WriteByte('\n')
	d.setColor(lineNumberColor)
	w.WriteString("*** ")
	h.contextRange(first0, last0)
	w.WriteString(" ****")
	d.setColor(resetColor)
	w.WriteByte('\n')
	if kind&old != 0 {
		h.contextSide(hunk, 0, first0, last0)
	}
	d.setColor(lineNumberColor)
	w.WriteString("--- ")
	h.contextRange(first1, last1)
	w.WriteString(" ----")
	d.setColor(resetColor)
	w.WriteByte('\n')
	if kind&new_ != 0 {
		h.contextSide(hunk, 1, first1, last1)
	}
}

func (h *hunkOutput) unifiedHunk(hunk []gnudiff.Change) {
	d := h.d
	w := d.out
	first0, last0, first1, last1, kind, fn := h.openHunk(hunk)
	if kind == unchanged {
		return
	}
	d.setColor(lineNumberColor)
	w.WriteString("@@ -")
	h.unifiedRange(first0, last0)
	w.WriteString(" +")
	h.unifiedRange(first1, last1)
	w.WriteString(" @@")
	d.setColor(resetColor)
	if fn != nil {
		h.printFunction(fn)
	}
	w.WriteByte('\n')
	i, j, k := first0, first1, 0
	for i <= last0 || j <= last1 {
		if k >= len(hunk) || i < hunk[k].Line0 {
			line := h.f[0].Line(i)
			if !h.blankEmpty(line) {
				if d.cfg.initialTab {
					w.WriteByte('\t')
				} else {
					w.WriteByte(' ')
				}
			}
			h.print1Line("", false, line, false)
			i++
			j++
			continue
		}
		for n := hunk[k].Deleted; n > 0; n-- {
			h.sideLine(0, i, "", false, '-')
			i++
		}
		for n := hunk[k].Inserted; n > 0; n-- {
			h.sideLine(1, j, "", false, '+')
			j++
		}
		k++
	}
}

// contextSide prints lines first..last of one side (0 the old file, 1 the
// new) of a context hunk, each flagged by what the hunk does to it: "!"
// changed, "-" deleted or "+" inserted, " " context.
func (h *hunkOutput) contextSide(hunk []gnudiff.Change, side, first, last int) {
	k := 0
	for i := first; i <= last; i++ {
		for k < len(hunk) && changeStart(hunk[k], side)+changeLen(hunk[k], side) <= i {
			k++
		}
		prefix := " "
		if k < len(hunk) && changeStart(hunk[k], side) <= i {
			prefix = "-+"[side : side+1]
			if changeLen(hunk[k], 1-side) > 0 {
				prefix = "!"
			}
		}
		h.sideLine(side, i, prefix, true, 0)
	}
}

// changeStart and changeLen are a change's first line and line count on
// one side (0 the old file, 1 the new).
func changeStart(c gnudiff.Change, side int) int {
	if side == 0 {
		return c.Line0
	}
	return c.Line1
}

func changeLen(c gnudiff.Change, side int) int {
	if side == 0 {
		return c.Deleted
	}
	return c.Inserted
}
