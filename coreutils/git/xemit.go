package git

import (
	"bytes"
	"strconv"
)

// emitOpts controls unified output.
type emitOpts struct {
	ctx       int  // context lines
	funcNames bool // "@@ ... @@ funcname"
}

// hunkCounts adds up inserted and deleted lines.
func (res *xdiffResult) counts() (added, deleted int) {
	for _, c := range res.changes {
		added += c.chg2
		deleted += c.chg1
	}
	return
}

// defFuncLine is git's default function-name rule: a line starting with a
// letter, '_' or '$', cut to 80 bytes and stripped of trailing blanks.
func defFuncLine(rec []byte) ([]byte, bool) {
	if len(rec) == 0 {
		return nil, false
	}
	c := rec[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$') {
		return nil, false
	}
	l := len(rec)
	if l > 80 {
		l = 80
	}
	for l > 0 && isSpaceByte(rec[l-1]) {
		l--
	}
	return rec[:l], true
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// emitUnified writes the hunks of res.
func emitUnified(w *bytes.Buffer, res *xdiffResult, o emitOpts) {
	ch := res.changes
	f1, f2 := res.a, res.b
	funclinePrev := -1
	var funcLine []byte
	for k := 0; k < len(ch); {
		// Group changes into a hunk.
		first := k
		last := k
		for j := k + 1; j < len(ch); j++ {
			distance := ch[j].i1 - (ch[j-1].i1 + ch[j-1].chg1)
			if distance > 2*o.ctx {
				break
			}
			last = j
		}
		xch, xche := ch[first], ch[last]
		s1 := max(xch.i1-o.ctx, 0)
		s2 := max(xch.i2-o.ctx, 0)
		lctx := o.ctx
		lctx = min(lctx, f1.nrec()-(xche.i1+xche.chg1))
		lctx = min(lctx, f2.nrec()-(xche.i2+xche.chg2))
		e1 := xche.i1 + xche.chg1 + lctx
		e2 := xche.i2 + xche.chg2 + lctx

		if o.funcNames {
			for l := s1 - 1; l != funclinePrev && l >= 0 && l < f1.nrec(); l-- {
				if fl, ok := defFuncLine(f1.recs[l]); ok {
					funcLine = fl
					break
				}
			}
			funclinePrev = s1 - 1
		}
		writeHunkHeader(w, s1+1, e1-s1, s2+1, e2-s2, funcLine)

		for ; s2 < xch.i2; s2++ {
			emitRecord(w, ' ', f2.recs[s2])
		}
		s1, s2 = xch.i1, xch.i2
		for j := first; ; j++ {
			c := ch[j]
			for ; s1 < c.i1 && s2 < c.i2; s1, s2 = s1+1, s2+1 {
				emitRecord(w, ' ', f2.recs[s2])
			}
			for s1 = c.i1; s1 < c.i1+c.chg1; s1++ {
				emitRecord(w, '-', f1.recs[s1])
			}
			for s2 = c.i2; s2 < c.i2+c.chg2; s2++ {
				emitRecord(w, '+', f2.recs[s2])
			}
			if j == last {
				break
			}
			s1 = c.i1 + c.chg1
			s2 = c.i2 + c.chg2
		}
		for s2 = xche.i2 + xche.chg2; s2 < e2; s2++ {
			emitRecord(w, ' ', f2.recs[s2])
		}
		k = last + 1
	}
}

func writeHunkHeader(w *bytes.Buffer, s1, c1, s2, c2 int, fn []byte) {
	w.WriteString("@@ -")
	writeHunkRange(w, s1, c1)
	w.WriteString(" +")
	writeHunkRange(w, s2, c2)
	w.WriteString(" @@")
	if len(fn) > 0 {
		w.WriteByte(' ')
		w.Write(fn)
	}
	w.WriteByte('\n')
}

// writeHunkRange writes one side's "start,count" of a unified hunk header:
// an empty side names the line before it, and a count of 1 is left out.
func writeHunkRange(w *bytes.Buffer, start, count int) {
	if count == 0 {
		start--
	}
	w.WriteString(strconv.Itoa(start))
	if count != 1 {
		w.WriteByte(',')
		w.WriteString(strconv.Itoa(count))
	}
}

func emitRecord(w *bytes.Buffer, prefix byte, rec []byte) {
	w.WriteByte(prefix)
	w.Write(rec)
	if len(rec) == 0 || rec[len(rec)-1] != '\n' {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

// trimCommonTail drops a common tail in 1 KiB blocks, keeping the line it
// cuts into, as git does before diffs without context (blame, stat).
func trimCommonTail(a, b []byte) ([]byte, []byte) {
	const blk = 1024
	trimmed := 0
	smaller := min(len(a), len(b))
	ap, bp := len(a), len(b)
	for blk+trimmed <= smaller && bytes.Equal(a[ap-blk:ap], b[bp-blk:bp]) {
		trimmed += blk
		ap -= blk
		bp -= blk
	}
	recovered := 0
	for recovered < trimmed {
		c := a[ap+recovered]
		recovered++
		if c == '\n' {
			break
		}
	}
	cut := trimmed - recovered
	return a[:len(a)-cut], b[:len(b)-cut]
}
