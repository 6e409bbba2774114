package diff3

import (
	"fmt"

	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

// writeNormal prints diff3's own report.
func (m *mode) writeNormal(out *textfmt.Output, blocks []block, files [3]*gnudiff.File) {
	prefix := "  "
	if m.tab {
		prefix = "\t"
	}
	for _, b := range blocks {
		order, skip := []int{0, 1, 2}, -1
		switch b.kind {
		case kindAll:
			out.WriteString("====\n")
		case kindMine:
			out.WriteString("====1\n")
			skip = 1
		case kindOlder:
			out.WriteString("====2\n")
			order, skip = []int{0, 2, 1}, 0
		case kindYours:
			out.WriteString("====3\n")
			skip = 0
		}
		for _, i := range order {
			r := b.r[i]
			fmt.Fprintf(out, "%d:%s\n", i+1, r.command())
			if i == skip || r.hi < r.lo {
				continue
			}
			for l := r.lo; l <= r.hi; l++ {
				out.WriteString(prefix)
				out.Write(files[i].Line(l - 1))
			}
			if !files[i].Complete(r.hi - 1) {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
}

// lines writes the lines of r in file f.
func lines(out *textfmt.Output, f *gnudiff.File, r rng) {
	for l := r.lo; l <= r.hi; l++ {
		out.Write(f.Line(l - 1))
	}
}

// used reports whether a block takes part, and whether as a conflict.
func (m *mode) used(b block) (use, conflict bool) {
	switch b.kind {
	case kindAll:
		if m.simpleOnly {
			return false, false
		}
		return true, m.flagging
	case kindOlder:
		if m.overlap || !m.show2nd {
			return false, false
		}
		return true, m.flagging
	case kindYours:
		if m.overlap {
			return false, false
		}
		return true, false
	}
	return false, false
}

// writeEd prints an ed script that applies the chosen changes to MYFILE,
// last block first so that line numbers stay valid.
func (m *mode) writeEd(out *textfmt.Output, blocks []block, files [3]*gnudiff.File) int {
	status := 0
	for k := len(blocks) - 1; k >= 0; k-- {
		b := blocks[k]
		use, conflict := m.used(b)
		if !use {
			continue
		}
		r := b.r[0]
		if conflict {
			status = 1
			// Mark the end first, then the start.
			fmt.Fprintf(out, "%da\n", r.hi)
			if b.kind == kindAll && m.show2nd {
				fmt.Fprintf(out, "||||||| %s\n", m.labels[1])
				lines(out, files[1], b.r[1])
			}
			if b.kind == kindOlder {
				fmt.Fprintf(out, ">>>>>>> %s\n.\n", m.labels[2])
				fmt.Fprintf(out, "%da\n<<<<<<< %s\n", r.lo-1, m.labels[1])
				lines(out, files[1], b.r[1])
				out.WriteString("=======\n.\n")
				continue
			}
			out.WriteString("=======\n")
			lines(out, files[2], b.r[2])
			fmt.Fprintf(out, ">>>>>>> %s\n.\n", m.labels[2])
			fmt.Fprintf(out, "%da\n<<<<<<< %s\n.\n", r.lo-1, m.labels[0])
			continue
		}
		fmt.Fprintf(out, "%s\n", r.command())
		lines(out, files[2], b.r[2])
		out.WriteString(".\n")
	}
	if m.finalWQ {
		out.WriteString("w\nq\n")
	}
	return status
}

// writeMerge prints MYFILE with the chosen changes applied.
func (m *mode) writeMerge(out *textfmt.Output, blocks []block, files [3]*gnudiff.File) int {
	status := 0
	next := 1 // next line of MYFILE to copy
	mine := files[0]
	for _, b := range blocks {
		use, conflict := m.used(b)
		if !use {
			continue
		}
		lines(out, mine, rng{next, b.r[0].lo - 1})
		next = b.r[0].hi + 1
		if !conflict {
			lines(out, files[2], b.r[2])
			continue
		}
		status = 1
		if b.kind == kindOlder {
			fmt.Fprintf(out, "<<<<<<< %s\n", m.labels[1])
			lines(out, files[1], b.r[1])
			out.WriteString("=======\n")
			lines(out, files[2], b.r[2])
			fmt.Fprintf(out, ">>>>>>> %s\n", m.labels[2])
			continue
		}
		fmt.Fprintf(out, "<<<<<<< %s\n", m.labels[0])
		lines(out, mine, b.r[0])
		if m.show2nd {
			fmt.Fprintf(out, "||||||| %s\n", m.labels[1])
			lines(out, files[1], b.r[1])
		}
		out.WriteString("=======\n")
		lines(out, files[2], b.r[2])
		fmt.Fprintf(out, ">>>>>>> %s\n", m.labels[2])
	}
	lines(out, mine, rng{next, mine.NumLines()})
	return status
}

// command is the ed command for the range: "La" after line L when it is
// empty, "Lc" or "L,Hc" otherwise.
func (r rng) command() string {
	switch n := r.hi - r.lo + 1; {
	case n == 0:
		return fmt.Sprintf("%da", r.lo-1)
	case n == 1:
		return fmt.Sprintf("%dc", r.lo)
	}
	return fmt.Sprintf("%d,%dc", r.lo, r.hi)
}
