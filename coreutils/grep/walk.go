package grep

import (
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/bashbox/bashbox/vfs"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/readahead"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// run searches the operands and returns the exit status.
func (g *grepper) run(operands []string) int {
	cfg := g.cfg
	defer giveReadBuf(g)
	if cfg.color {
		g.colors = newColors(g.c)
	} else {
		g.colors = &colors{}
	}
	omitDotSlash := false
	if len(operands) == 0 {
		if cfg.dirs == dirRecurse {
			operands = []string{"."}
			omitDotSlash = true
		} else {
			operands = []string{"-"}
		}
	}
	autoName := false
	switch {
	case cfg.withName == 1:
		g.outFile = true
	case cfg.withName == 0:
	case len(operands) > 1:
		g.outFile = true
	default:
		autoName = cfg.dirs == dirRecurse
	}
	// Many operands (xargs grep) are searched by workers too, unless an
	// operand could be a directory to recurse into: its walk has workers
	// of its own.
	var a *ahead
	if len(operands) > 1 && cfg.dirs != dirRecurse {
		a = g.startAhead()
	}
	for _, op := range operands {
		if g.quit {
			break
		}
		if a != nil && op != "-" {
			g.ahead = a
			a.submitOperand(op)
			continue
		}
		if a != nil {
			a.drain() // standard input comes in its turn
		}
		g.operand(op, omitDotSlash, autoName)
	}
	if a != nil {
		a.stop()
		g.ahead = nil
	}
	if err := g.out.Flush(); err != nil && g.werr == nil {
		g.werr = err
	}
	if g.werr != nil {
		if builtins.IsBrokenPipe(g.werr) {
			return 141
		}
		g.c.Errorf("write error: %s", builtins.ErrText(g.werr))
		return 2
	}
	if g.c != nil && g.ctx.Err() != nil {
		return 2
	}
	switch {
	case cfg.quiet && g.matched:
		return 0
	case g.errSeen:
		return 2
	case g.matched:
		return 0
	}
	return 1
}

// operand searches one command-line operand.
func (g *grepper) operand(name string, omitDotSlash, autoName bool) {
	cfg := g.cfg
	if name == "-" {
		label := cfg.label
		if label == "" {
			label = "(standard input)"
		}
		g.searchReader(textio.Stdin(g.c), label, -1)
		return
	}
	if g.searchOpened(name, -1) {
		return
	}
	fi, err := g.c.Stat(name)
	if err != nil {
		g.fileError(name, err)
		return
	}
	if fi.IsDir() {
		if cfg.dirs == dirSkip {
			return
		}
		if !omitDotSlash && excludedDir(cfg.excludeDir, name, true) {
			return
		}
		if cfg.dirs == dirRecurse {
			if autoName {
				g.outFile = true
			}
			real := ""
			if cfg.deref {
				real = g.realPath(name)
			}
			if a := g.startAhead(); a != nil {
				g.ahead = a
				defer func() { a.stop(); g.ahead = nil }()
			}
			if ls := g.startListers(); ls != nil {
				g.listers = ls
				defer func() { ls.End(); g.listers = nil }() // after a panic too
			}
			g.walk(name, omitDotSlash, []string{real}, nil)
			return
		}
		g.errSeen = true
		if !cfg.noMessages {
			g.out.Flush()
			g.c.Errorf("%s: Is a directory", name)
		}
		return
	}
	if excludedFile(cfg.filters, name, true) {
		return
	}
	g.searchFile(name, fi)
}

func (g *grepper) fileError(name string, err error) {
	g.errSeen = true
	if g.cfg.noMessages {
		return
	}
	if g.ahead != nil {
		g.ahead.drain() // the files before this one come first
	}
	g.flush()
	g.c.FileError(name, err, 2)
}

// searchOpened searches operand name when it opens as a regular file, and
// reports whether it did. Opening first and asking the open file for its
// type resolves the path once, as GNU grep does; a stat before the open
// costs a second resolution (on a host volume an openat2, an fstat and a
// close), which was a fifth of `xargs grep` over many files. Anything else
// (an error, a directory, a device, an excluded name) reports false and
// takes the stat path, whose messages are the ones GNU gives. With a limit
// >= 0, a file larger than limit bytes reports false too.
func (g *grepper) searchOpened(name string, limit int64) bool {
	if strings.HasPrefix(name, "/dev/") || excludedFile(g.cfg.filters, name, true) {
		return false // the call's own streams and devices keep the stat path
	}
	f, err := g.c.Open(name)
	if err != nil {
		return false
	}
	fi, err := openInfo(f)
	if err != nil || !fi.Mode().IsRegular() || limit >= 0 && fi.Size() > limit {
		f.Close()
		return false
	}
	defer f.Close()
	g.searchReader(readerOnly{f}, name, fi.Size())
	return true
}

// searchFile opens and searches a file that is not a directory.
func (g *grepper) searchFile(name string, fi fs.FileInfo) {
	if g.cfg.devSkip && fi.Mode()&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice) != 0 {
		return
	}
	f, err := g.c.Open(name)
	if err != nil {
		g.fileError(name, err)
		return
	}
	defer f.Close()
	size := int64(-1)
	if fi.Mode().IsRegular() {
		size = fi.Size()
	}
	g.searchReader(readerOnly{f}, name, size)
}

// openInfo is f's type and size as its open found them, when the file
// kept them (a host file does: its open had to fstat it anyway), else a
// fresh stat. A size grown since only sends the file down the other
// search path, which reads to the end all the same.
func openInfo(f vfs.File) (fs.FileInfo, error) {
	if o, ok := f.(interface{ OpenInfo() fs.FileInfo }); ok {
		if fi := o.OpenInfo(); fi != nil {
			return fi, nil
		}
	}
	return f.Stat()
}

// readerOnly hides any other method of a file (WriteTo...).
type readerOnly struct{ r io.Reader }

func (r readerOnly) Read(p []byte) (int, error) { return r.r.Read(p) }

// startListers starts listers reading directories ahead of the walk
// (package readahead), one fewer than the workers, or returns nil when the
// walk must list each directory itself: with one worker, and with -R,
// whose loop check resolves every directory's links as the walk meets it.
func (g *grepper) startListers() *readahead.Listers {
	cfg := g.cfg
	if cfg.deref {
		return nil
	}
	return readahead.Start(g.c.SearchWorkers()-1, readahead.Options{
		Read: g.listDir,
		Join: func(dir, name string) string {
			if strings.HasSuffix(dir, "/") {
				return dir + name
			}
			return dir + "/" + name
		},
		Descend: func(_ int, fi fs.FileInfo) bool {
			return fi.IsDir() && !excludedDir(cfg.excludeDir, fi.Name(), false)
		},
	})
}

// listDir lists a directory for the walk.
func (g *grepper) listDir(dir string) ([]fs.FileInfo, error) {
	if g.cfg.initialTab {
		return g.c.ReadDir(dir) // -T aligns by file size
	}
	return g.c.ReadDirTypes(dir) // names and types decide what is searched
}

// walk searches directory dir recursively. ancestors holds the real paths
// of the directories being walked (for -R loop detection); ahead is dir's
// listing when listers queued it.
func (g *grepper) walk(dir string, omitDotSlash bool, ancestors []string, ahead *readahead.Listing) {
	cfg := g.cfg
	var (
		entries []fs.FileInfo
		kids    []*readahead.Listing // entries' listings, at their indexes
		err     error
	)
	if ahead != nil {
		entries, kids, err = g.listers.Take(ahead)
	} else {
		entries, err = g.listDir(dir)
	}
	if g.listers != nil && kids == nil && err == nil {
		kids = g.listers.Queue(0, dir, entries)
	}
	if kids != nil {
		defer func() {
			for _, k := range kids {
				g.listers.DropTree(k) // excluded by a loop check, or left when the walk quit
			}
		}()
	}
	if err != nil {
		shownDir := dir
		if omitDotSlash && strings.HasPrefix(shownDir, "./") {
			shownDir = shownDir[2:]
		}
		g.fileError(shownDir, err)
		return
	}
	prefix := dir
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	for i, e := range entries {
		if g.quit {
			return
		}
		if g.ctx.Err() != nil {
			g.quit = true
			return
		}
		child := prefix + e.Name()
		shown := child
		if omitDotSlash && strings.HasPrefix(shown, "./") && len(shown) > 2 {
			shown = shown[2:]
		}
		fi := e
		if e.Mode()&fs.ModeSymlink != 0 {
			if !cfg.deref {
				continue
			}
			st, err := g.c.Stat(child)
			if err != nil {
				g.fileError(shown, err)
				continue
			}
			fi = st
		}
		if fi.IsDir() {
			if excludedDir(cfg.excludeDir, e.Name(), false) {
				continue
			}
			real := ""
			if cfg.deref {
				real = g.realPath(child)
				if loops(ancestors, real) {
					if !cfg.noMessages {
						if g.ahead != nil {
							g.ahead.drain()
						}
						g.flush()
						g.c.Errorf("%s: warning: recursive directory loop", shown)
					}
					continue
				}
			}
			var l *readahead.Listing
			if kids != nil {
				l = kids[i]
			}
			g.walk(child, omitDotSlash, append(ancestors, real), l)
			continue
		}
		if fi.Mode()&(fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket|fs.ModeCharDevice) != 0 {
			// devices met while recursing are skipped unless -D read
			continue
		}
		if excludedFile(cfg.filters, e.Name(), false) {
			continue
		}
		if g.ahead != nil {
			g.ahead.submit(child, shown, fi)
		} else {
			g.searchFileShown(child, shown, fi)
		}
	}
}

func (g *grepper) searchFileShown(name, shown string, fi fs.FileInfo) {
	g.searchFileUpTo(name, shown, fi, -1)
}

// searchFileUpTo searches a file met in a walk, shown under shown. With a
// limit >= 0 it searches only a regular file of at most limit bytes and
// reports false, having searched nothing, for any other.
func (g *grepper) searchFileUpTo(name, shown string, fi fs.FileInfo, limit int64) bool {
	f, err := g.c.Open(name)
	if err != nil {
		g.fileError(shown, err)
		return true
	}
	defer f.Close()
	if limit >= 0 {
		if st, err := openInfo(f); err != nil || st.Size() > limit || !st.Mode().IsRegular() {
			return false
		}
	}
	size := int64(-1)
	if fi.Mode().IsRegular() {
		size = fi.Size()
	}
	g.searchReader(readerOnly{f}, shown, size)
	return true
}

func loops(ancestors []string, real string) bool {
	if real == "" {
		return false
	}
	for _, a := range ancestors {
		if a == real {
			return true
		}
	}
	return false
}

// realPath resolves the symlinks in name (guest path), for loop detection.
func (g *grepper) realPath(name string) string {
	p := path.Clean(g.c.Abs(name))
	for hops := 0; hops < 64; hops++ {
		parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
		cur := "/"
		changed := false
		for i, part := range parts {
			if part == "" {
				continue
			}
			next := path.Join(cur, part)
			target, err := g.c.FS.ReadlinkIfPossible(next)
			if err == nil && target != "" {
				if !path.IsAbs(target) {
					target = path.Join(cur, target)
				}
				p = path.Clean(path.Join(append([]string{target}, parts[i+1:]...)...))
				changed = true
				break
			}
			cur = next
		}
		if !changed {
			return cur
		}
	}
	return p
}

// excludedFile applies --include and --exclude to a file name: the last
// pattern that matches decides; when none does, the file is searched
// unless the first pattern is an --include. Command-line names match when
// the pattern matches the whole name or a part after a slash; names met in
// recursion are base names.
func excludedFile(filters []filter, name string, commandLine bool) bool {
	if len(filters) == 0 {
		return false
	}
	decided, excluded := false, false
	for _, f := range filters {
		if nameMatches(f.glob, name, commandLine) {
			decided, excluded = true, !f.include
		}
	}
	if !decided {
		return filters[0].include
	}
	return excluded
}

// starSuffix returns ext when pattern is * and plain ASCII ext (*.go):
// the pattern then matches exactly the names that end in ext, which
// --include tests of every file a walk meets.
func starSuffix(pattern string) (string, bool) {
	if len(pattern) < 2 || pattern[0] != '*' {
		return "", false
	}
	ext := pattern[1:]
	for i := 0; i < len(ext); i++ {
		if c := ext[i]; c >= 0x80 || c == '*' || c == '?' || c == '[' || c == '\\' {
			return "", false
		}
	}
	return ext, true
}

func excludedDir(globs []string, name string, commandLine bool) bool {
	for _, gl := range globs {
		if nameMatches(gl, name, commandLine) {
			return true
		}
	}
	return false
}

func nameMatches(pattern, name string, suffixes bool) bool {
	if ext, ok := starSuffix(pattern); ok {
		// a part after a slash ends as the whole name does
		return strings.HasSuffix(name, ext)
	}
	if glob.Match(pattern, name, 0) {
		return true
	}
	if !suffixes {
		return false
	}
	for i := 0; i+1 < len(name); i++ {
		if name[i] == '/' && name[i+1] != '/' && glob.Match(pattern, name[i+1:], 0) {
			return true
		}
	}
	return false
}
