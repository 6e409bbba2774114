package git

import (
	"bytes"
	"fmt"
	"strings"
)

// --stat, --shortstat and their numbers.

// fileStat is one file's numbers for --stat and --numstat.
type fileStat struct {
	name    string // print name (renames pretty-printed)
	added   int
	deleted int
	binary  bool
	oldSize int
	newSize int
}

func (r *repo) computeStats(pairs []diffPair, o *diffOpts) []fileStat {
	var out []fileStat
	for _, p := range pairs {
		s := fileStat{}
		if p.status == 'R' || p.status == 'C' {
			s.name = r.prettyRename(p.a.path, p.b.path)
		} else if p.b.valid() {
			s.name = r.quoteName(p.b.path)
		} else {
			s.name = r.quoteName(p.a.path)
		}
		if p.status == 'T' {
			// A type change counts as a delete and an add.
			a, b := r.content(p.a), r.content(p.b)
			s.deleted = countLines(a)
			s.added = countLines(b)
			out = append(out, s)
			continue
		}
		if p.a.valid() && p.b.valid() && p.a.hash == p.b.hash && !p.b.wt {
			out = append(out, s)
			continue
		}
		a, b := r.content(p.a), r.content(p.b)
		if !o.text && (isBinary(a) || isBinary(b)) {
			s.binary = true
			s.oldSize, s.newSize = len(a), len(b)
			if bytes.Equal(a, b) {
				s.oldSize, s.newSize = 0, 0
			}
			out = append(out, s)
			continue
		}
		ta, tb := trimCommonTail(a, b)
		res := xdiffWS(ta, tb, o.ws)
		s.added, s.deleted = res.counts()
		// Modified files where nothing changed (whitespace ignored) are
		// left out, as git does.
		if s.added == 0 && s.deleted == 0 && p.a.valid() && p.b.valid() && p.a.mode == p.b.mode && p.a.hash != p.b.hash {
			continue
		}
		out = append(out, s)
	}
	return out
}

func countLines(data []byte) int {
	if len(data) == 0 {
		return 0
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	return n
}

func decimalWidth(n int) int {
	w := 1
	for n >= 10 {
		n /= 10
		w++
	}
	return w
}

func scaleLinear(it, width, maxChange int) int {
	if it == 0 {
		return 0
	}
	return 1 + it*(width-1)/maxChange
}

// showStats is git's --stat.
func (r *repo) showStats(w *bytes.Buffer, stats []fileStat, o *diffOpts) {
	if len(stats) == 0 {
		return
	}
	count := len(stats)
	if o.statCount > 0 && o.statCount < count {
		count = o.statCount
	}
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	for i := 0; i < count; i++ {
		s := stats[i]
		if l := displayWidth(s.name); l > maxLen {
			maxLen = l
		}
		if s.binary {
			bw := 14 + decimalWidth(s.newSize) + decimalWidth(s.oldSize)
			if bw > binWidth {
				binWidth = bw
			}
			numberWidth = 3
			continue
		}
		if c := s.added + s.deleted; c > maxChange {
			maxChange = c
		}
	}
	width := 80
	if o.statWidth > 0 {
		width = o.statWidth
	}
	if decimalWidth(maxChange) > numberWidth {
		numberWidth = decimalWidth(maxChange)
	}
	if width < 16+6+numberWidth {
		width = 16 + 6 + numberWidth
	}
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	if o.statGraph > 0 && o.statGraph < graphWidth {
		graphWidth = o.statGraph
	}
	nameWidth := maxLen
	if o.statName > 0 && o.statName < maxLen {
		nameWidth = o.statName
	}
	if nameWidth+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = width*3/8 - numberWidth - 6
			if graphWidth < 6 {
				graphWidth = 6
			}
		}
		if o.statGraph > 0 && graphWidth > o.statGraph {
			graphWidth = o.statGraph
		}
		if nameWidth > width-numberWidth-6-graphWidth {
			nameWidth = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameWidth
		}
	}
	for i := 0; i < count; i++ {
		s := stats[i]
		prefix := ""
		name := s.name
		l := nameWidth
		nameLen := displayWidth(name)
		if nameWidth < nameLen {
			prefix = "..."
			l -= 3
			if l < 0 {
				l = 0
			}
			for nameLen > l {
				_, size := firstRune(name)
				name = name[size:]
				nameLen = displayWidth(name)
			}
			if k := strings.IndexByte(name, '/'); k >= 0 {
				name = name[k:]
			}
		}
		padding := l - displayWidth(name)
		if padding < 0 {
			padding = 0
		}
		if s.binary {
			fmt.Fprintf(w, " %s%s%s | %*s", prefix, name, strings.Repeat(" ", padding), numberWidth, "Bin")
			if s.oldSize == 0 && s.newSize == 0 {
				w.WriteString("\n")
				continue
			}
			fmt.Fprintf(w, " %d -> %d bytes\n", s.oldSize, s.newSize)
			continue
		}
		add, del := s.added, s.deleted
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		sp := ""
		if s.added+s.deleted > 0 {
			sp = " "
		}
		fmt.Fprintf(w, " %s%s%s | %*d%s%s%s\n", prefix, name, strings.Repeat(" ", padding), numberWidth, s.added+s.deleted, sp,
			strings.Repeat("+", add), strings.Repeat("-", del))
	}
	if count < len(stats) {
		w.WriteString(" ...\n")
	}
	writeShortstat(w, stats)
}

func writeShortstat(w *bytes.Buffer, stats []fileStat) {
	files, adds, dels := 0, 0, 0
	for _, s := range stats {
		files++
		if !s.binary {
			adds += s.added
			dels += s.deleted
		}
	}
	w.WriteString(shortstatLine(files, adds, dels))
}

func shortstatLine(files, adds, dels int) string {
	if files == 0 {
		return " 0 files changed\n"
	}
	var b strings.Builder
	if files == 1 {
		fmt.Fprintf(&b, " %d file changed", files)
	} else {
		fmt.Fprintf(&b, " %d files changed", files)
	}
	if adds > 0 || dels == 0 {
		if adds == 1 {
			fmt.Fprintf(&b, ", %d insertion(+)", adds)
		} else {
			fmt.Fprintf(&b, ", %d insertions(+)", adds)
		}
	}
	if dels > 0 || adds == 0 {
		if dels == 1 {
			fmt.Fprintf(&b, ", %d deletion(-)", dels)
		} else {
			fmt.Fprintf(&b, ", %d deletions(-)", dels)
		}
	}
	b.WriteString("\n")
	return b.String()
}
