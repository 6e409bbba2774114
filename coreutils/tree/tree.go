// Package tree implements the tree command (as tree 2.1.0 ships in
// Debian) over the sandbox filesystem: text output with UTF-8 or ASCII
// indentation lines, filtering, sorting, file metadata and the final
// report. The XML, JSON and HTML outputs are not provided.
package tree

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

const usageText = `usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]
	[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]
	[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]
	[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]
	[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]
	[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]
	[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]
	[--help] [--] [directory ...]
`

type sortBy int

const (
	sortName sortBy = iota
	sortVersion
	sortSize
	sortMtime
	sortCtime
	sortNone
)

type treeCmd struct {
	ctx context.Context
	c   *builtins.Call
	out *bufio.Writer

	all, dirsOnly, follow, fullPath, oneFS bool
	maxLevel                               int // -1: unlimited
	patterns, ignores                      []string
	ignoreCase, matchDirs, prune           bool
	noReport, noIndent                     bool
	nonPrint                               byte // 'e' escape (default), 'q' '?', 'N' raw
	quoteNames                             bool
	perms, user, group, size, human, si    bool
	date, inodes, device, classify         bool
	timeFmt                                string
	sort                                   sortBy
	reverse, dirsFirst, filesFirst         bool
	fileLimit                              int
	colors                                 *colors
	utf8                                   bool
	loc                                    *time.Location
	now                                    time.Time
	metaFirst                              bool

	dirs, files int
	status      int
	visited     map[string]bool
}

// Run is the tree command.
func Run(ctx context.Context, c *builtins.Call) int {
	t := &treeCmd{ctx: ctx, c: c, out: bufio.NewWriterSize(c.Stdout, 64<<10), maxLevel: -1, nonPrint: 'e', visited: map[string]bool{}}
	t.utf8 = quote.UTF8Locale(c.Getenv)
	var roots []string
	colorMode := 0 // 0 default (off: output is not a terminal), 1 -C, -1 -n
	args := c.Args[1:]
	next := func(i *int, what string) (string, bool) {
		if *i+1 >= len(args) {
			fmt.Fprintf(c.Stderr, "tree: Missing argument to %s option.\n", what)
			return "", false
		}
		*i++
		return args[*i], true
	}
	longArg := func(i *int, a, name string) (string, bool, bool) {
		if v, ok := strings.CutPrefix(a, "--"+name+"="); ok {
			return v, true, true
		}
		if a == "--"+name {
			v, ok := next(i, "--"+name)
			return v, ok, true
		}
		return "", false, false
	}
	onlyDirs := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			roots = append(roots, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "--") {
			if v, ok, match := longArg(&i, a, "charset"); match {
				if !ok {
					return 1
				}
				t.utf8 = strings.EqualFold(v, "utf-8") || strings.EqualFold(v, "utf8")
				continue
			}
			if v, ok, match := longArg(&i, a, "sort"); match {
				if !ok {
					return 1
				}
				switch v {
				case "name":
					t.sort = sortName
				case "version":
					t.sort = sortVersion
				case "size":
					t.sort = sortSize
				case "mtime":
					t.sort = sortMtime
				case "ctime":
					t.sort = sortCtime
				default:
					fmt.Fprintf(c.Stderr, "tree: Sort type '%s' not valid, should be one of: ", v)
					fmt.Fprintln(c.Stdout, "name,version,size,mtime,ctime")
					return 1
				}
				continue
			}
			if v, ok, match := longArg(&i, a, "timefmt"); match {
				if !ok {
					return 1
				}
				t.timeFmt, t.date = v, true
				continue
			}
			if v, ok, match := longArg(&i, a, "filelimit"); match {
				if !ok {
					return 1
				}
				n, _ := strconv.Atoi(v)
				t.fileLimit = n
				continue
			}
			switch a {
			case "--help":
				t.help()
				return 0
			case "--version":
				return c.Version()
			case "--noreport":
				t.noReport = true
			case "--dirsfirst":
				t.dirsFirst = true
			case "--filesfirst":
				t.filesFirst = true
			case "--ignore-case":
				t.ignoreCase = true
			case "--matchdirs":
				t.matchDirs = true
			case "--prune":
				t.prune = true
			case "--si":
				t.size, t.si = true, true
			case "--inodes":
				t.inodes = true
			case "--device":
				t.device = true
			case "--metafirst":
				t.metaFirst = true
			case "--nolinks", "--fflinks":
			default:
				fmt.Fprintf(c.Stderr, "tree: Invalid argument `%s'.\n", a)
				fmt.Fprint(c.Stderr, usageText)
				return 1
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			roots = append(roots, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'a':
				t.all = true
			case 'd':
				onlyDirs = true
			case 'l':
				t.follow = true
			case 'f':
				t.fullPath = true
			case 'x':
				t.oneFS = true
			case 'L':
				v, ok := next(&i, "-L")
				if !ok {
					return 1
				}
				n, err := strconv.ParseUint(strings.TrimSpace(v), 0, 31)
				if err != nil || n == 0 {
					if err != nil {
						n = leadingNumber(v)
					}
					if n == 0 {
						fmt.Fprintln(c.Stderr, "tree: Invalid level, must be greater than 0.")
						return 1
					}
				}
				t.maxLevel = int(n)
			case 'P':
				v, ok := next(&i, "-P")
				if !ok {
					return 1
				}
				t.patterns = append(t.patterns, v)
			case 'I':
				v, ok := next(&i, "-I")
				if !ok {
					return 1
				}
				t.ignores = append(t.ignores, v)
			case 'q':
				t.nonPrint = 'q'
			case 'N':
				t.nonPrint = 'N'
			case 'Q':
				t.quoteNames = true
			case 'p':
				t.perms = true
			case 'u':
				t.user = true
			case 'g':
				t.group = true
			case 's':
				t.size = true
			case 'h':
				t.size, t.human = true, true
			case 'D':
				t.date = true
			case 'F':
				t.classify = true
			case 'v':
				t.sort = sortVersion
			case 't':
				t.sort = sortMtime
			case 'c':
				t.sort = sortCtime
			case 'U':
				t.sort = sortNone
			case 'r':
				t.reverse = true
			case 'i':
				t.noIndent = true
			case 'n':
				colorMode = -1
			case 'C':
				colorMode = 1
			case 'A', 'S', 'R':
			case 'o':
				v, ok := next(&i, "-o")
				if !ok {
					return 1
				}
				f, err := c.Create(v)
				if err != nil {
					fmt.Fprintf(c.Stderr, "tree: invalid filename '%s'\n", v)
					return 1
				}
				defer f.Close()
				t.out = bufio.NewWriterSize(f, 64<<10)
			default:
				fmt.Fprintf(c.Stderr, "tree: Invalid argument -`%c'.\n", a[j])
				fmt.Fprint(c.Stderr, usageText)
				return 1
			}
		}
	}
	t.dirsOnly = onlyDirs
	if colorMode == 1 && c.Getenv("TERM") != "" {
		t.colors = loadColors(c.Getenv("LS_COLORS"))
	}
	t.loc = timefmt.Location(c.LookupEnv)
	t.now = time.Now()
	if len(roots) == 0 {
		roots = []string{"."}
	}
	for _, r := range roots {
		if ctx.Err() != nil {
			break
		}
		t.root(r)
	}
	if !t.noReport {
		t.out.WriteByte('\n')
		if t.dirsOnly {
			fmt.Fprintf(t.out, "%d %s\n", t.dirs, plural(t.dirs, "directory", "directories"))
		} else {
			fmt.Fprintf(t.out, "%d %s, %d %s\n", t.dirs, plural(t.dirs, "directory", "directories"), t.files, plural(t.files, "file", "files"))
		}
	}
	if err := t.out.Flush(); err != nil && builtins.IsBrokenPipe(err) {
		return 141
	}
	return t.status
}

func leadingNumber(s string) uint64 {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.ParseUint(s[:i], 10, 31)
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// node is one entry to print.
type node struct {
	name   string // as shown
	path   string // access path
	fi     fs.FileInfo
	target string      // symlink target
	tfi    fs.FileInfo // what the link leads to
}

func (n *node) isDir() bool {
	return n.fi.IsDir() || n.fi.Mode()&fs.ModeSymlink != 0 && n.tfi != nil && n.tfi.IsDir()
}

func (t *treeCmd) root(r string) {
	fi, err := t.c.Stat(r)
	name := t.display(r)
	if t.colors != nil && err == nil {
		name = t.colors.paint(name, fi.Mode(), true, 0)
	}
	if err != nil || !fi.IsDir() {
		t.out.WriteString(name)
		t.out.WriteString("  [error opening dir]\n")
		if err != nil {
			t.status = 2
		} else {
			t.files++
		}
		return
	}
	if t.classify {
		name += "/"
	}
	if prefix := t.metaText(&node{name: r, path: r, fi: fi}); prefix != "" {
		t.out.WriteString(prefix)
	}
	t.out.WriteString(name)
	if t.fileLimit > 0 {
		if ns, err := t.entries(r, false); err == nil && len(ns) > t.fileLimit {
			fmt.Fprintf(t.out, "  [%d entries exceeds filelimit, not opening dir]\n", len(ns))
			t.dirs++
			return
		}
	}
	t.out.WriteByte('\n')
	if p, err := t.physical(r); err == nil {
		t.visited[p] = true
	}
	listed := t.list(r, r, 1, nil, false)
	if listed > 0 {
		t.dirs++
	}
}

func (t *treeCmd) physical(p string) (string, error) {
	if r, ok := t.c.FS.(meta.Resolver); ok {
		return r.Resolve(t.c.Abs(p), true)
	}
	return path.Clean(t.c.Abs(p)), nil
}

// entries reads, filters and sorts a directory; parentMatched says the
// directory itself matched -P with --matchdirs, which shows its files.
func (t *treeCmd) entries(dir string, parentMatched bool) ([]*node, error) {
	raw, err := t.c.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]*node, 0, len(raw))
	for _, fi := range raw {
		name := fi.Name()
		if !t.all && strings.HasPrefix(name, ".") {
			continue
		}
		p := joinPath(dir, name)
		n := &node{name: name, path: p, fi: fi}
		if fi.Mode()&fs.ModeSymlink != 0 {
			n.target, _ = t.c.FS.ReadlinkIfPossible(t.c.Abs(p))
			if st, err := t.c.Stat(p); err == nil {
				n.tfi = st
			}
		}
		if t.ignored(name) {
			continue
		}
		if t.dirsOnly && !n.isDir() {
			continue
		}
		realDir := fi.IsDir() || t.follow && n.tfi != nil && n.tfi.IsDir()
		if len(t.patterns) > 0 && !realDir && !parentMatched && !t.matches(t.patterns, name) {
			continue
		}
		out = append(out, n)
	}
	t.sortNodes(out)
	return out, nil
}

func (t *treeCmd) ignored(name string) bool {
	return len(t.ignores) > 0 && t.matches(t.ignores, name)
}

// matches tries each pattern; a pattern may list alternatives with '|'.
func (t *treeCmd) matches(pats []string, name string) bool {
	var flags glob.Flags
	if t.ignoreCase {
		flags |= glob.CaseFold
	}
	for _, p := range pats {
		for _, alt := range strings.Split(p, "|") {
			if glob.Match(alt, name, flags) {
				return true
			}
		}
	}
	return false
}

func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

func (t *treeCmd) sortNodes(ns []*node) {
	if t.sort == sortNone {
		return
	}
	cmp := func(a, b *node) int {
		switch t.sort {
		case sortVersion:
			return versionCompare(a.name, b.name)
		case sortSize:
			sa, sb := meta.Size(a.fi), meta.Size(b.fi)
			if sa != sb {
				if sa > sb {
					return -1
				}
				return 1
			}
		case sortMtime:
			if c := a.fi.ModTime().Compare(b.fi.ModTime()); c != 0 {
				return c
			}
		case sortCtime:
			if c := meta.Ctime(a.fi).Compare(meta.Ctime(b.fi)); c != 0 {
				return c
			}
		}
		return strings.Compare(a.name, b.name)
	}
	sort.SliceStable(ns, func(i, j int) bool {
		a, b := ns[i], ns[j]
		if t.dirsFirst || t.filesFirst {
			da, db := a.isDir(), b.isDir()
			if da != db {
				return da == t.dirsFirst
			}
		}
		c := cmp(a, b)
		if t.reverse {
			return c > 0
		}
		return c < 0
	})
}

// list prints the entries of dir at depth level and returns how many it
// printed. prefix holds, for each open ancestor level, whether more
// siblings follow.
func (t *treeCmd) list(dir, shown string, level int, prefix []bool, matched bool) int {
	if t.ctx.Err() != nil {
		return 0
	}
	ns, err := t.entries(dir, matched)
	if err != nil {
		return 0
	}
	if t.prune {
		kept := ns[:0]
		for _, n := range ns {
			if n.isDir() && !t.hasContent(n, level) {
				continue
			}
			kept = append(kept, n)
		}
		ns = kept
	}
	for i, n := range ns {
		if i&255 == 255 && t.ctx.Err() != nil {
			return len(ns)
		}
		last := i == len(ns)-1
		t.printNode(n, shown, prefix, last)
		if n.isDir() {
			t.dirs++
			descend := n.fi.IsDir() || t.follow
			if descend && (t.maxLevel < 0 || level < t.maxLevel) {
				if t.fileLimit > 0 {
					if cs, err := t.entries(n.path, false); err == nil && len(cs) > t.fileLimit {
						continue
					}
				}
				phys, perr := t.physical(n.path)
				if perr == nil && t.visited[phys] {
					continue
				}
				if perr == nil {
					t.visited[phys] = true
				}
				childShown := joinPath(shown, n.name)
				m := t.matchDirs && len(t.patterns) > 0 && t.matches(t.patterns, n.name)
				t.list(n.path, childShown, level+1, append(prefix, !last), m)
			}
		} else {
			t.files++
		}
	}
	return len(ns)
}

// hasContent reports whether a directory would show anything (for
// --prune).
func (t *treeCmd) hasContent(n *node, level int) bool {
	if t.maxLevel >= 0 && level >= t.maxLevel {
		return true
	}
	if !n.fi.IsDir() && !t.follow {
		return true
	}
	ns, err := t.entries(n.path, t.matchDirs && len(t.patterns) > 0 && t.matches(t.patterns, n.name))
	if err != nil {
		return false
	}
	for _, c := range ns {
		if !c.isDir() || t.hasContent(c, level+1) {
			return true
		}
	}
	return false
}

func (t *treeCmd) help() {
	fmt.Fprint(t.c.Stdout, usageText+`  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -l            Follow symbolic links like directories.
  -f            Print the full path prefix for each file.
  -x            Stay on current filesystem only.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --ignore-case Ignore case when pattern matching.
  --matchdirs   Include directory names in -P pattern matching.
  --prune       Prune empty directories from the output.
  --noreport    Turn off file/directory count at end of tree listing.
  --charset X   Use charset X for terminal/HTML and indentation line output.
  --filelimit # Do not descend dirs with more than # files in them.
  -o filename   Output to file instead of stdout.
  ------- File options -------
  -q            Print non-printable characters as '?'.
  -N            Print non-printable characters as is.
  -Q            Quote filenames with double quotes.
  -p            Print the protections for each file.
  -u            Displays file owner or UID number.
  -g            Displays file group owner or GID number.
  -s            Print the size in bytes of each file.
  -h            Print the size in a more human readable way.
  --si          Like -h, but use in SI units (powers of 1000).
  -D            Print the date of last modification or (-c) status change.
  --timefmt <f> Print and format time according to the format <f>.
  -F            Appends '/', '=', '*', '@', '|' or '>' as per ls -F.
  --inodes      Print inode number of each file.
  --device      Print device ID number to which each file belongs.
  ------- Sorting options -------
  -v            Sort files alphanumerically by version.
  -t            Sort files by last modification time.
  -c            Sort files by last status change time.
  -U            Leave files unsorted.
  -r            Reverse the order of the sort.
  --dirsfirst   List directories before files (-U disables).
  --filesfirst  List files before directories (-U disables).
  --sort X      Select sort: name,version,size,mtime,ctime.
  ------- Graphics options -------
  -i            Don't print indentation lines.
  -n            Turn colorization off always (-C overrides).
  -C            Turn colorization on always.
  ------- Miscellaneous options -------
  --version     Print version and exit.
  --help        Print usage and this help message and exit.
  --            Options processing terminator.
`)
}

// versionCompare orders names with digit runs compared as numbers, as
// strverscmp does for ordinary version strings.
func versionCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			if d := (j - sj) - (i - si); d != 0 {
				return d
			}
			continue
		}
		if ca != cb {
			return int(ca) - int(cb)
		}
		i++
		j++
	}
	return (len(a) - i) - (len(b) - j)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
