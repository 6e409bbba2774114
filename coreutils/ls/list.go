package ls

import (
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/modes"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// entry is one file to list.
type entry struct {
	name   string      // as shown: the operand, or the name in its directory
	path   string      // how to reach it
	fi     fs.FileInfo // nil: could not be stat'ed
	link   string      // symlink target text
	target fs.FileInfo // what a symlink leads to; nil when broken
	argDir bool        // a command-line directory to list
	dir    string      // the directory listed, for entries of one
	lmode  fs.FileMode // the lstat mode of an entry that could not be stat'ed
}

func (e *entry) size() int64 {
	if e.fi == nil {
		return 0
	}
	return meta.Size(e.fi)
}

func (e *entry) isLink() bool { return e.fi != nil && e.fi.Mode()&fs.ModeSymlink != 0 }

func atime(fi fs.FileInfo) time.Time { return meta.Atime(fi) }
func ctime(fi fs.FileInfo) time.Time { return meta.Ctime(fi) }

// dirLike reports whether e groups with directories.
func (l *lister) dirLike(e *entry) bool {
	if e.fi == nil {
		return false
	}
	if e.fi.IsDir() || e.argDir {
		return true
	}
	return e.isLink() && e.target != nil && e.target.IsDir()
}

// attach names a directory entry for access and messages: "name" in
// ".", else "dir/name".
func attach(dir, name string) string {
	if dir == "." {
		return name
	}
	return joinPath(dir, name)
}

// joinPath names a subdirectory to recurse into: "dir/name", "./name".
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

func (l *lister) run(operands []string) int {
	var files, dirs []*entry
	var all []*entry
	for _, arg := range operands {
		e, err := l.statArg(arg)
		if err != nil {
			l.c.Errorf("cannot access %s: %s", l.q.AF(arg), builtins.ErrText(err))
			l.status = 2
			continue
		}
		all = append(all, e)
		if !l.directory && e.fi.IsDir() {
			e.argDir = true
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	if len(files) > 0 {
		l.sortEntries(files)
		w := l.widths(all)
		l.printGroup(files, w)
		l.printedAny = true
	}
	l.sortEntries(dirs)
	for _, d := range dirs {
		if l.ctx.Err() != nil {
			return 130
		}
		l.listDir(d.path, d.name, true)
	}
	return l.status
}

// statArg looks up a command-line operand, following links as the
// dereference mode says.
func (l *lister) statArg(arg string) (*entry, error) {
	e := &entry{name: arg, path: arg}
	var fi fs.FileInfo
	var err error
	switch l.deref {
	case derefAlways, derefCmdLine:
		fi, err = l.c.Stat(arg)
	case derefCmdLineDirs:
		fi, err = l.c.Stat(arg)
		if err != nil && (errors.Is(err, fs.ErrNotExist) || isLoop(err)) || err == nil && !fi.IsDir() {
			fi, err = l.c.Lstat(arg)
		}
	default:
		fi, err = l.c.Lstat(arg)
	}
	if err != nil {
		return nil, err
	}
	e.fi = fi
	l.lookTarget(e)
	return e, nil
}

func isLoop(err error) bool {
	return strings.Contains(builtins.ErrText(err), "Too many levels")
}

// lookTarget reads a symlink's target when the listing needs it.
func (l *lister) lookTarget(e *entry) {
	if !e.isLink() || !l.needTarget {
		return
	}
	if t, err := l.c.FS.ReadlinkIfPossible(l.c.Abs(e.path)); err == nil {
		e.link = t
	}
	if fi, err := l.c.Stat(e.path); err == nil {
		e.target = fi
	}
}

// listDir lists one directory; cmdLine says it was an operand.
func (l *lister) listDir(dirPath, shown string, cmdLine bool) {
	raw, err := l.c.ReadDir(dirPath)
	if err != nil {
		l.c.Errorf("cannot open directory %s: %s", l.q.AF(dirPath), builtins.ErrText(err))
		if cmdLine {
			l.status = 2
		} else if l.status == 0 {
			l.status = 1
		}
		return
	}
	if l.dirHeaders {
		if l.printedAny {
			l.out.WriteByte('\n')
		}
		if l.diredOn() {
			l.out.WriteString("  ")
			l.diredDirs = append(l.diredDirs, l.out.pos)
		}
		l.out.WriteString(l.quoteName(shown))
		if l.diredOn() {
			l.diredDirs = append(l.diredDirs, l.out.pos)
		}
		l.out.WriteString(":")
		l.out.WriteByte(l.eol)
	}
	l.printedAny = true
	entries := make([]*entry, 0, len(raw)+2)
	if l.ignore == ignoreMinimal {
		for _, dot := range []string{".", ".."} {
			p := joinPath(dirPath, dot)
			fi, err := l.c.Stat(p)
			if err != nil {
				continue
			}
			entries = append(entries, &entry{name: dot, path: p, fi: fi})
		}
	}
	for i, fi := range raw {
		if i&1023 == 1023 && (l.ctx.Err() != nil || l.out.err != nil) {
			return
		}
		name := fi.Name()
		if l.ignored(name) {
			continue
		}
		e := &entry{name: name, path: attach(dirPath, name), dir: dirPath, fi: fi}
		if l.deref == derefAlways && e.isLink() {
			if st, err := l.c.Stat(e.path); err == nil {
				e.fi = st
			} else {
				l.c.Errorf("cannot access %s: %s", l.q.AF(e.path), builtins.ErrText(err))
				if l.status == 0 {
					l.status = 1
				}
				e.lmode, e.fi = fi.Mode(), nil
			}
		}
		l.lookTarget(e)
		entries = append(entries, e)
	}
	l.sortEntries(entries)
	w := l.widths(entries)
	if l.format == longFormat || l.blocks {
		var total int64
		for _, e := range entries {
			if e.fi != nil {
				total += meta.Blocks(e.fi)
			}
		}
		if l.diredOn() {
			l.out.WriteString("  ")
		}
		l.out.WriteString("total ")
		l.out.WriteString(l.blockFmt.Show(uint64(total), 512))
		l.out.WriteByte(l.eol)
	}
	l.printGroup(entries, w)
	if !l.recursive {
		return
	}
	for _, e := range entries {
		if l.ctx.Err() != nil || l.out.err != nil {
			return
		}
		if e.fi == nil || !e.fi.IsDir() || e.name == "." || e.name == ".." {
			continue
		}
		sub := joinPath(dirPath, e.name)
		l.listDir(sub, sub, false)
	}
}

// colWidths are the column widths of a long listing.
type colWidths struct {
	ino, blocks, nlink, owner, group, author, size, major, minor, ctx int
	quoteAlign                                                        bool
}

// widths measures the columns of a group of entries.
func (l *lister) widths(es []*entry) colWidths {
	var w colWidths
	for _, e := range es {
		if l.inode {
			w.ino = max(w.ino, len(strconv.FormatUint(l.ino(e), 10)))
		}
		if l.blocks {
			n := 1
			if e.fi != nil {
				n = len(l.blockFmt.Show(uint64(meta.Blocks(e.fi)), 512))
			}
			w.blocks = max(w.blocks, n)
		}
		if l.context {
			w.ctx = max(w.ctx, 1)
		}
		if l.format == longFormat && e.fi == nil {
			w.nlink, w.size = max(w.nlink, 1), max(w.size, 1)
			w.owner, w.group, w.author = max(w.owner, 1), max(w.group, 1), max(w.author, 1)
		}
		if l.format == longFormat && e.fi != nil {
			w.nlink = max(w.nlink, len(strconv.FormatUint(meta.Nlink(l.c, l.c.Abs(e.path), e.fi), 10)))
			o := l.owner(e)
			if l.showOwner {
				w.owner = max(w.owner, quote.Width(l.userText(o.User, o.UID)))
			}
			if l.showGroup {
				w.group = max(w.group, quote.Width(l.userText(o.Group, o.GID)))
			}
			if l.showAuthor {
				w.author = max(w.author, quote.Width(l.userText(o.User, o.UID)))
			}
			if e.fi.Mode()&fs.ModeDevice != 0 {
				maj, mnr := meta.Rdev(path.Clean(l.c.Abs(e.path)), e.fi)
				w.major = max(w.major, len(strconv.FormatUint(uint64(maj), 10)))
				w.minor = max(w.minor, len(strconv.FormatUint(uint64(mnr), 10)))
				w.size = max(w.size, w.major+2+w.minor)
			} else {
				w.size = max(w.size, len(l.fileFmt.Show(uint64(meta.Size(e.fi)), 1)))
			}
		}
	}
	if l.format != oneLine && l.format != commas && (l.quoting == quote.Shell || l.quoting == quote.ShellEscape || l.cMaybe) {
		for _, e := range es {
			if q := l.quoteName(e.name); q != e.name && (q[0] == '\'' || q[0] == '"') {
				w.quoteAlign = true
				break
			}
		}
	}
	return w
}

func (l *lister) ino(e *entry) uint64 {
	if e.fi == nil {
		return 0
	}
	return meta.InoOf(meta.Physical(l.c, l.c.Abs(e.path)), e.fi)
}

func (l *lister) owner(e *entry) meta.Owner {
	return meta.OwnerOf(l.c, path.Clean(l.c.Abs(e.path)))
}

func (l *lister) userText(name string, id int) string {
	if l.numeric || name == "" {
		return strconv.Itoa(id)
	}
	return name
}

// quoteName renders a name in the quoting style.
func (l *lister) quoteName(name string) string {
	if l.cMaybe {
		q := l.q.Quote(name, quote.C)
		if q[1:len(q)-1] == name {
			return name
		}
		return q
	}
	if l.hideControl && (l.quoting == quote.Literal || l.quoting == quote.Shell || l.quoting == quote.ShellAlways) {
		name = l.q.HideControl(name)
	}
	if l.quoting == quote.Escape {
		// ls -b escapes spaces too.
		return l.q.QuoteAlso(name, quote.Escape, " ")
	}
	return l.q.Quote(name, l.quoting)
}

// indicatorFor returns the -F/-p character for a mode ("" for none).
func (l *lister) indicatorFor(fi fs.FileInfo) string {
	if l.indicator == indNone || fi == nil {
		return ""
	}
	return modes.Indicator(fi.Mode(), l.indicator == indClassify, l.indicator == indSlash)
}

// renderName is a name with its quoting, color and hyperlink; width is
// its display width.
func (l *lister) renderName(e *entry, w colWidths) (string, int) {
	q := l.quoteName(e.name)
	if w.quoteAlign && q != "" && q[0] != '\'' && q[0] != '"' {
		q = " " + q
	}
	width := quote.Width(q)
	s := q
	if l.colors != nil {
		var mode, tmode fs.FileMode
		exists := e.fi != nil
		if exists {
			mode = e.fi.Mode()
		}
		if e.target != nil {
			tmode = e.target.Mode()
		}
		if seq := l.colors.pick(e.name, mode, exists, tmode, e.target != nil); seq != nil && *seq != "" {
			s = l.colors.start(*seq) + q + l.colors.end()
		}
	}
	if l.hyperlink {
		s = l.link(e.path) + s + "\033]8;;\a"
	}
	return s, width
}

func (l *lister) link(p string) string {
	abs := path.Clean(l.c.Abs(p))
	var b strings.Builder
	b.WriteString("\033]8;;file://bashbox")
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(abs); i++ {
		ch := abs[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("/-._~", ch) >= 0 {
			b.WriteByte(ch)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[ch>>4])
			b.WriteByte(hex[ch&15])
		}
	}
	b.WriteString("\a")
	return b.String()
}

// renderTarget is a symlink's target in a long listing.
func (l *lister) renderTarget(e *entry) string {
	q := l.quoteName(e.link)
	if l.colors == nil {
		return q
	}
	var seq *string
	if e.target != nil {
		seq = l.colors.pick(e.link, e.target.Mode(), true, 0, false)
	} else if l.colors.colored(cMissing) {
		seq = l.colors.ind[cMissing]
	} else {
		seq = l.colors.ind[cOrphan]
	}
	if seq == nil || *seq == "" {
		return q
	}
	return l.colors.start(*seq) + q + l.colors.end()
}

// prefix is the inode and block columns before a name.
func (l *lister) prefix(e *entry, w colWidths) string {
	var b strings.Builder
	if l.inode {
		s := "?"
		if e.fi != nil {
			s = strconv.FormatUint(l.ino(e), 10)
		}
		pad(&b, s, w.ino, true)
		b.WriteByte(' ')
	}
	if l.blocks {
		s := "?"
		if e.fi != nil {
			s = l.blockFmt.Show(uint64(meta.Blocks(e.fi)), 512)
		}
		pad(&b, s, w.blocks, true)
		b.WriteByte(' ')
	}
	if l.context && l.format != longFormat {
		pad(&b, "?", w.ctx, true)
		b.WriteByte(' ')
	}
	return b.String()
}

func pad(b *strings.Builder, s string, width int, right bool) {
	n := quote.Width(s)
	if !right {
		b.WriteString(s)
	}
	for ; n < width; n++ {
		b.WriteByte(' ')
	}
	if right {
		b.WriteString(s)
	}
}

// printGroup writes a group of entries in the chosen format.
func (l *lister) printGroup(es []*entry, w colWidths) {
	switch l.format {
	case longFormat:
		for i, e := range es {
			if i&1023 == 1023 && (l.ctx.Err() != nil || l.out.err != nil) {
				return
			}
			l.printLong(e, w)
		}
	case oneLine:
		for _, e := range es {
			name, _ := l.renderName(e, w)
			l.out.WriteString(l.prefix(e, w))
			l.out.WriteString(name)
			l.out.WriteString(l.indicatorFor(e.fi))
			l.out.WriteByte(l.eol)
		}
	case commas:
		l.printSeparated(es, w, ',')
	default:
		if l.lineLength == 0 {
			l.printSeparated(es, w, ' ')
			return
		}
		l.printColumns(es, w)
	}
}

func (l *lister) diredOn() bool { return l.dired && l.format == longFormat }

func (l *lister) printLong(e *entry, w colWidths) {
	var b strings.Builder
	nameStart, nameEnd := -1, -1
	defer func() {
		if l.diredOn() && nameStart >= 0 {
			base := l.out.pos - int64(b.Len()) - 1
			l.diredNames = append(l.diredNames, base+int64(nameStart), base+int64(nameEnd))
		}
	}()
	if l.diredOn() {
		b.WriteString("  ")
	}
	b.WriteString(l.prefix(e, w))
	if e.fi == nil {
		b.WriteByte(modes.TypeChar(e.lmode))
		b.WriteString("????????? ")
		pad(&b, "?", w.nlink, true)
		b.WriteByte(' ')
		if l.showOwner {
			pad(&b, "?", w.owner, false)
			b.WriteByte(' ')
		}
		if l.showGroup {
			pad(&b, "?", w.group, false)
			b.WriteByte(' ')
		}
		if l.showAuthor {
			pad(&b, "?", w.author, false)
			b.WriteByte(' ')
		}
		pad(&b, "?", w.size, true)
		b.WriteByte(' ')
		b.WriteString(l.formatTime(time.Time{}))
		b.WriteByte(' ')
		name, _ := l.renderName(e, w)
		nameStart = b.Len()
		b.WriteString(name)
		nameEnd = b.Len()
		l.out.WriteString(b.String())
		l.out.WriteByte(l.eol)
		return
	}
	fi := e.fi
	abs := l.c.Abs(e.path)
	b.WriteString(modes.ModeString(fi.Mode()))
	b.WriteByte(' ')
	pad(&b, strconv.FormatUint(meta.Nlink(l.c, abs, fi), 10), w.nlink, true)
	b.WriteByte(' ')
	o := l.owner(e)
	writeID := func(name string, id, width int) {
		if l.numeric || name == "" {
			pad(&b, strconv.Itoa(id), width, true)
		} else {
			pad(&b, name, width, false)
		}
		b.WriteByte(' ')
	}
	if l.showOwner {
		writeID(o.User, o.UID, w.owner)
	}
	if l.showGroup {
		writeID(o.Group, o.GID, w.group)
	}
	if l.showAuthor {
		writeID(o.User, o.UID, w.author)
	}
	if l.context {
		pad(&b, "?", w.ctx, false)
		b.WriteByte(' ')
	}
	if fi.Mode()&fs.ModeDevice != 0 {
		maj, mnr := meta.Rdev(path.Clean(abs), fi)
		pad(&b, strconv.FormatUint(uint64(maj), 10), w.size-2-w.minor, true)
		b.WriteString(", ")
		pad(&b, strconv.FormatUint(uint64(mnr), 10), w.minor, true)
	} else {
		pad(&b, l.fileFmt.Show(uint64(meta.Size(fi)), 1), w.size, true)
	}
	b.WriteByte(' ')
	b.WriteString(l.formatTime(l.fileTime(fi)))
	b.WriteByte(' ')
	name, _ := l.renderName(e, w)
	nameStart = b.Len()
	b.WriteString(name)
	nameEnd = b.Len()
	if e.isLink() {
		if e.link != "" {
			b.WriteString(" -> ")
			b.WriteString(l.renderTarget(e))
			if l.indicator != indNone && e.target != nil {
				b.WriteString(l.indicatorFor(e.target))
			}
		}
	} else {
		b.WriteString(l.indicatorFor(fi))
	}
	l.out.WriteString(b.String())
	l.out.WriteByte(l.eol)
}

// cell is one rendered name with its frills and width.
type cell struct {
	text  string
	width int
}

func (l *lister) cells(es []*entry, w colWidths) []cell {
	out := make([]cell, len(es))
	for i, e := range es {
		pre := l.prefix(e, w)
		name, nw := l.renderName(e, w)
		ind := l.indicatorFor(e.fi)
		out[i] = cell{pre + name + ind, len(pre) + nw + len(ind)}
	}
	return out
}

// printSeparated is -m (sep ',') and the unlimited-width columns
// (sep ' ').
func (l *lister) printSeparated(es []*entry, w colWidths, sep byte) {
	cs := l.cells(es, w)
	pos := 0
	for i, c := range cs {
		if i > 0 {
			l.out.WriteByte(sep)
			if l.lineLength == 0 || pos+c.width+2 < l.lineLength {
				l.out.WriteByte(' ')
				pos += 2
			} else {
				l.out.WriteByte(l.eol)
				pos = 0
			}
		}
		l.out.WriteString(c.text)
		pos += c.width
	}
	if len(cs) > 0 {
		l.out.WriteByte(l.eol)
	}
}

// indent moves from column from to column to with tabs and spaces, as
// GNU ls does.
func (l *lister) indent(from, to int) {
	for from < to {
		if l.tabSize != 0 && to/l.tabSize > (from+1)/l.tabSize {
			l.out.WriteByte('\t')
			from += l.tabSize - from%l.tabSize
		} else {
			l.out.WriteByte(' ')
			from++
		}
	}
}

const minColumnWidth = 3

// columnLayout finds the most columns that fit the line, GNU's way.
func (l *lister) columnLayout(cs []cell, byColumns bool) []int {
	n := len(cs)
	maxCols := n
	if l.lineLength > 0 {
		maxIdx := l.lineLength / minColumnWidth
		if l.lineLength%minColumnWidth != 0 {
			maxIdx++
		}
		maxCols = min(maxIdx, n)
	}
	if maxCols < 1 {
		maxCols = 1
	}
	type info struct {
		valid   bool
		lineLen int
		cols    []int
	}
	infos := make([]info, maxCols)
	for i := range infos {
		infos[i] = info{valid: true, lineLen: (i + 1) * minColumnWidth, cols: make([]int, i+1)}
		for j := range infos[i].cols {
			infos[i].cols[j] = minColumnWidth
		}
	}
	for f, c := range cs {
		for i := 0; i < maxCols; i++ {
			if !infos[i].valid {
				continue
			}
			var idx int
			if byColumns {
				idx = f / ((n + i) / (i + 1))
			} else {
				idx = f % (i + 1)
			}
			real := c.width
			if idx != i {
				real += 2
			}
			if infos[i].cols[idx] < real {
				infos[i].lineLen += real - infos[i].cols[idx]
				infos[i].cols[idx] = real
				infos[i].valid = l.lineLength == 0 || infos[i].lineLen < l.lineLength
			}
		}
	}
	cols := maxCols
	for ; cols > 1; cols-- {
		if infos[cols-1].valid {
			break
		}
	}
	return infos[cols-1].cols
}

func (l *lister) printColumns(es []*entry, w colWidths) {
	if len(es) == 0 {
		return
	}
	cs := l.cells(es, w)
	byColumns := l.format == vertical
	colArr := l.columnLayout(cs, byColumns)
	cols := len(colArr)
	n := len(cs)
	if byColumns {
		rows := n / cols
		if n%cols != 0 {
			rows++
		}
		for row := 0; row < rows; row++ {
			col, pos := 0, 0
			for f := row; ; {
				l.out.WriteString(cs[f].text)
				maxW := colArr[col]
				col++
				nameW := cs[f].width
				f += rows
				if f >= n {
					break
				}
				l.indent(pos+nameW, pos+maxW)
				pos += maxW
			}
			l.out.WriteByte(l.eol)
		}
		return
	}
	pos := 0
	l.out.WriteString(cs[0].text)
	nameW, maxW := cs[0].width, colArr[0]
	for f := 1; f < n; f++ {
		col := f % cols
		if col == 0 {
			l.out.WriteByte(l.eol)
			pos = 0
		} else {
			l.indent(pos+nameW, pos+maxW)
			pos += maxW
		}
		l.out.WriteString(cs[f].text)
		nameW, maxW = cs[f].width, colArr[col]
	}
	l.out.WriteByte(l.eol)
}
