package tree

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

func (t *treeCmd) printNode(n *node, parentShown string, prefix []bool, last bool) {
	var b strings.Builder
	if !t.noIndent {
		for _, more := range prefix {
			if more {
				if t.utf8 {
					b.WriteString("\u2502\u00a0\u00a0 ")
				} else {
					b.WriteString("|   ")
				}
			} else {
				b.WriteString("    ")
			}
		}
		switch {
		case last && t.utf8:
			b.WriteString("\u2514\u2500\u2500 ")
		case last:
			b.WriteString("`-- ")
		case t.utf8:
			b.WriteString("\u251c\u2500\u2500 ")
		default:
			b.WriteString("|-- ")
		}
	}
	b.WriteString(t.metaText(n))
	name := n.name
	if t.fullPath {
		name = joinPath(parentShown, n.name)
	}
	shown := t.display(name)
	if t.colors != nil {
		var tmode fs.FileMode
		if n.tfi != nil {
			tmode = n.tfi.Mode()
		}
		shown = t.colors.paint(shown, n.fi.Mode(), n.tfi != nil, tmode)
	}
	b.WriteString(shown)
	if n.fi.Mode()&fs.ModeSymlink != 0 {
		b.WriteString(" -> ")
		target := t.display(n.target)
		if t.colors != nil {
			if n.tfi != nil {
				target = t.colors.paint(target, n.tfi.Mode(), true, 0)
			} else {
				target = t.colors.wrap(target, t.colors.missing)
			}
		}
		b.WriteString(target)
		if t.classify && n.tfi != nil {
			b.WriteString(indicator(n.tfi.Mode()))
		}
	} else if t.classify {
		b.WriteString(indicator(n.fi.Mode()))
	}
	if n.isDir() && t.fileLimit > 0 && (n.fi.IsDir() || t.follow) {
		if cs, err := t.entries(n.path, false); err == nil && len(cs) > t.fileLimit {
			fmt.Fprintf(&b, "  [%d entries exceeds filelimit, not opening dir]", len(cs))
		}
	}
	if n.fi.Mode()&fs.ModeSymlink != 0 && t.follow && n.tfi != nil && n.tfi.IsDir() {
		if phys, err := t.physical(n.path); err == nil && t.visited[phys] {
			b.WriteString("  [recursive, not followed]")
		}
	}
	b.WriteByte('\n')
	t.out.WriteString(b.String())
}

// indicator is the -F suffix of a file of mode m.
func indicator(m fs.FileMode) string {
	switch modes.TypeChar(m) {
	case 'd':
		return "/"
	case 'l':
		return "@"
	case 'p':
		return "|"
	case 's':
		return "="
	case '-':
		if m&0o111 != 0 {
			return "*"
		}
	}
	return ""
}

// display renders a name: control characters as \ooo (default), '?'
// (-q) or raw (-N); -Q adds double quotes.
func (t *treeCmd) display(s string) string {
	var b strings.Builder
	if t.quoteNames {
		b.WriteByte('"')
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c == 0x7f:
			switch t.nonPrint {
			case 'N':
				b.WriteByte(c)
			case 'q':
				b.WriteByte('?')
			default:
				fmt.Fprintf(&b, "\\%03o", c)
			}
		case c == '"' && t.quoteNames:
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	if t.quoteNames {
		b.WriteByte('"')
	}
	return b.String()
}

// metaText is the bracketed [inode device perms user group size date]
// part before a name.
func (t *treeCmd) metaText(n *node) string {
	var parts []string
	abs := path.Clean(t.c.Abs(n.path))
	if t.inodes {
		parts = append(parts, fmt.Sprintf("%7d", meta.Ino(meta.Physical(t.c, abs))))
	}
	if t.device {
		parts = append(parts, fmt.Sprintf("%4d", meta.Dev(t.c, abs)))
	}
	if t.perms {
		parts = append(parts, modes.ModeString(n.fi.Mode()))
	}
	o := meta.OwnerOf(t.c, abs)
	if t.user {
		parts = append(parts, fmt.Sprintf("%-8.32s", o.User))
	}
	if t.group {
		parts = append(parts, fmt.Sprintf("%-8.32s", o.Group))
	}
	if t.size {
		parts = append(parts, t.sizeText(meta.Size(n.fi)))
	}
	if t.date {
		parts = append(parts, t.dateText(n.fi.ModTime()))
	}
	if len(parts) == 0 {
		return ""
	}
	return "[" + strings.Join(parts, " ") + "]  "
}

func (t *treeCmd) sizeText(size int64) string {
	if !t.human && !t.si {
		return fmt.Sprintf("%11d", size)
	}
	base := int64(1024)
	units := "BKMGTPEZY"
	if t.si {
		base = 1000
		units = "BkMGTPEZY"
	}
	idx := 0
	if size >= base {
		idx = 1
	}
	for ; size >= base*base && idx < len(units)-1; idx++ {
		size /= base
	}
	if idx == 0 {
		return fmt.Sprintf("%4d", size)
	}
	v := float64(size) / float64(base)
	if size/base >= 10 {
		return fmt.Sprintf("%3.0f%c", v, units[idx])
	}
	return fmt.Sprintf("%3.1f%c", v, units[idx])
}

func (t *treeCmd) dateText(mt time.Time) string {
	lt := mt.In(t.loc)
	if t.timeFmt != "" {
		return timefmt.Strftime(lt, t.timeFmt)
	}
	sixMonths := t.now.Add(-15778476 * time.Second)
	if mt.After(sixMonths) && !mt.After(t.now.Add(time.Hour)) {
		return timefmt.Strftime(lt, "%b %e %H:%M")
	}
	return timefmt.Strftime(lt, "%b %e  %Y")
}
