// Package find implements GNU find (findutils 4.9): walk directory trees
// in the filesystem's native order (inode order for directories of more
// than 10,000 entries, as gnulib's fts does), evaluating an expression of
// tests and actions for every file.
//
// Deviations, all due to the sandbox:
//   - Owners are the sandbox's: the sandbox user and group (1000) unless
//     chown recorded another; -user/-group/-uid/-gid/-nouser/-nogroup,
//     %u/%g/%U/%G and -ls use them.
//   - Files kept in memory have no inode, device, atime or ctime: %i and
//     %D print 0, -inum never matches, -samefile compares physical paths,
//     atime and ctime are the mtime; %F and -fstype say "tmpfs" for them
//     and "ext4" for files of host volumes.
//   - %Z prints "?" (no SELinux); -context is not supported.
//   - Standard input is never a terminal, so GNU's warnings appear only
//     with -warn, as GNU does when not run from a terminal.
//   - -newerXt reads ISO 8601 dates and times, @SECONDS and
//     now/today/yesterday/tomorrow, not every form of GNU's date parser.
package find

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
	"github.com/bashbox/bashbox/coreutils/internal/procutil"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/readahead"
	"github.com/bashbox/bashbox/overlayfs"
)

const (
	modeSymlink = fs.ModeSymlink
	sandboxUser = procutil.SandboxUser
	sandboxID   = procutil.SandboxUID
)

// symlink policies (-P, -H, -L)
const (
	followNever = iota
	followArgs
	followAll
)

type finder struct {
	ctx context.Context
	c   *builtins.Call
	q   quote.Quoter

	follow     int
	depthFirst bool
	maxDepth   int // -1: no limit
	minDepth   int
	warnings   bool
	expr       *node
	regexType  string
	now        time.Time
	dayStart   time.Time // origin of -mtime and friends
	loc        *time.Location

	out      *outFile
	files    map[string]*outFile
	execs    []*execPred
	status   int
	quit     bool
	canceled bool
	ticks    int

	starts     []string
	files0     string
	hasFiles0  bool
	sawDelete  bool
	sawPrune   bool
	sawDepth   bool
	answers    io.Reader
	lsWidths   lsWidths
	firstNonOp string             // first non-option argument of the expression
	typesOnly  bool               // the expression needs no more than names and types
	listers    *readahead.Listers // reading directories ahead of the walk, or nil
}

// typeOnlyPrimaries look at nothing of an entry but its path and file
// type: an expression made only of them lets find list directories
// without stating their entries, as GNU find does with d_type.
var typeOnlyPrimaries = map[string]bool{
	"-true": true, "-false": true, "-name": true, "-iname": true, "-path": true, "-ipath": true,
	"-wholename": true, "-iwholename": true, "-regex": true, "-iregex": true, "-type": true,
	"-depth": true, "-d": true, "-maxdepth": true, "-mindepth": true, "-xdev": true, "-mount": true,
	"-noleaf": true, "-ignore_readdir_race": true, "-noignore_readdir_race": true, "-prune": true,
	"-quit": true, "-print": true, "-print0": true, "-fprint": true, "-fprint0": true,
	"-exec": true, "-execdir": true, "-ok": true, "-okdir": true, "-delete": true,
}

func namesAndTypesOnly(n *node) bool {
	switch {
	case n == nil:
		return true
	case n.op == opPred:
		return typeOnlyPrimaries[n.name]
	}
	return namesAndTypesOnly(n.l) && namesAndTypesOnly(n.r)
}

// errFatal stops find at parse time with status 1, after its message.
type errFatal struct{}

func (errFatal) Error() string { return "fatal" }

// Run parses the command line, walks every starting point and returns 0,
// or 1 when any error occurred.
func Run(ctx context.Context, c *builtins.Call) int {
	f := &finder{
		ctx: ctx, c: c, q: quote.New(c),
		maxDepth: -1, regexType: "findutils-default",
		now:   time.Now(),
		files: map[string]*outFile{},
	}
	f.loc = guestLocation(c)
	f.dayStart = f.now
	f.out = &outFile{name: "standard output", w: bufio.NewWriterSize(c.Stdout, 4096)}
	status, done := f.parseArgs(c.Args[1:])
	f.typesOnly = namesAndTypesOnly(f.expr)
	if done {
		f.closeFiles()
		f.out.flush()
		return status
	}
	if f.hasFiles0 {
		if err := f.readFiles0(); err != nil {
			f.closeFiles()
			f.out.flush()
			return 1
		}
	}
	if f.listers = f.startListers(); f.listers != nil {
		defer f.listers.End() // after a panic too: no lister outlives the call
	}
	for _, s := range f.starts {
		if f.quit {
			break
		}
		f.walkRoot(s)
	}
	f.finishExecs()
	f.closeFiles()
	if err := f.out.flush(); err != nil && !f.out.broken {
		f.errorf("write error: %s", builtins.ErrText(err))
	}
	if f.out.broken {
		return 141
	}
	if f.canceled {
		return procutil.CancelStatus(ctx)
	}
	return f.status
}

// guestLocation is the time zone of the guest: $TZ when it names a zone,
// UTC otherwise.
func guestLocation(c *builtins.Call) *time.Location {
	tz := c.Getenv("TZ")
	if tz == "" {
		return time.UTC
	}
	tz = strings.TrimPrefix(tz, ":")
	if loc, err := time.LoadLocation(tz); err == nil {
		return loc
	}
	return time.UTC
}

func (f *finder) localTime(t time.Time) time.Time { return t.In(f.loc) }

// errorf prints "find: message" and marks the run as failed.
func (f *finder) errorf(format string, args ...any) {
	f.c.Errorf(format, args...)
	f.status = 1
}

// warnf prints "find: message" without changing the status.
func (f *finder) warnf(format string, args ...any) {
	f.c.Errorf(format, args...)
}

func (f *finder) quote(s string) string { return f.q.Q(s) }

// fileError reports an error about a file.
func (f *finder) fileError(name string, err error) {
	f.errorf("%s: %s", f.quote(name), builtins.ErrText(err))
}

// outFile is a buffered output of -print, -fprint and friends.
type outFile struct {
	name   string
	w      *bufio.Writer
	closer io.Closer
	broken bool
	// unbuffered outputs (standard error) are flushed after each line
	unbuffered bool
}

func (o *outFile) writeString(s string) {
	if o.broken {
		return
	}
	o.w.WriteString(s)
	if o.unbuffered && strings.HasSuffix(s, "\n") {
		o.flush()
	}
}

func (o *outFile) writeByte(b byte) {
	if o.broken {
		return
	}
	o.w.WriteByte(b)
	if o.unbuffered {
		o.flush()
	}
}

func (o *outFile) flush() error {
	if o.broken {
		return nil
	}
	err := o.w.Flush()
	if err != nil && builtins.IsBrokenPipe(err) {
		o.broken = true
	}
	return err
}

func (f *finder) closeFiles() {
	for _, o := range f.files {
		if o == f.out {
			continue
		}
		if err := o.flush(); err != nil && !o.broken {
			f.errorf("%s: %s", f.quote(o.name), builtins.ErrText(err))
		}
		if o.closer != nil {
			o.closer.Close()
		}
	}
}

// checkOut notices a failed write to standard output: a closed pipe ends
// the walk quietly.
func (f *finder) checkOut() {
	if f.out.broken {
		f.quit = true
	}
}

// entry is the file being evaluated.
type entry struct {
	path string // as printed
	// abs is the guest path for filesystem calls, made on first use from
	// dirAbs and name: a walk that only prints files needs it only for
	// the directories it lists.
	abs    string
	dirAbs string
	name   string
	start  string
	depth  int
	info   fs.FileInfo // stat or lstat, per the symlink policy
	lst    fs.FileInfo // lstat
	phys   string      // physical path of a directory (-L loop checks)
	prune  bool
	ahead  *readahead.Listing // its listing, when read ahead

	followed    fs.FileInfo // stat of a symlink's target, computed lazily
	followedErr error
	followDone  bool
	nlinkDone   bool
	nlinkVal    uint64
}

// absPath is the guest path of e.
func (e *entry) absPath() string {
	if e.abs == "" {
		e.abs = joinAbs(e.dirAbs, e.name)
	}
	return e.abs
}

func (e *entry) sys() (overlayfs.Stat, bool) { return overlayfs.SysStat(e.info) }

func (e *entry) atime() time.Time {
	if st, ok := e.sys(); ok && !st.Atime.IsZero() {
		return st.Atime
	}
	return e.info.ModTime()
}

func (e *entry) ctime() time.Time {
	if st, ok := e.sys(); ok && !st.Ctime.IsZero() {
		return st.Ctime
	}
	return e.info.ModTime()
}

// blocks is the number of 512-byte blocks the file uses: from the host
// when known, else what a 4 KiB-block filesystem would use.
func (e *entry) blocks() int64 {
	if st, ok := e.sys(); ok {
		return st.Blocks
	}
	m := e.info.Mode()
	switch {
	case m.IsDir():
		return 8
	case m.IsRegular():
		return (e.info.Size() + 4095) / 4096 * 8
	}
	return 0
}

func (e *entry) inode() uint64 {
	if st, ok := e.sys(); ok {
		return st.Ino
	}
	return 0
}

// owner is e's owner and group in the sandbox.
func (f *finder) owner(e *entry) meta.Owner { return meta.OwnerOf(f.c, e.absPath()) }

// nlink is the link count: from the host when known; a memory file has
// one link, a memory directory two plus one per subdirectory.
func (f *finder) nlink(e *entry) uint64 {
	if st, ok := e.sys(); ok {
		return st.Nlink
	}
	if !e.info.IsDir() {
		return 1
	}
	if !e.nlinkDone {
		e.nlinkDone = true
		e.nlinkVal = 2
		if list, err := f.c.FS.ReadDir(e.absPath()); err == nil {
			for _, c := range list {
				if c.IsDir() {
					e.nlinkVal++
				}
			}
		}
	}
	return e.nlinkVal
}

func fsType(e *entry) string {
	if _, ok := e.sys(); ok {
		return "ext4"
	}
	return "tmpfs"
}

func (f *finder) readlink(e *entry) (string, error) {
	return f.c.FS.ReadlinkIfPossible(e.absPath())
}

// target stats what a symlink points to (for -xtype and %Y).
func (f *finder) target(e *entry) (fs.FileInfo, error) {
	if !e.followDone {
		e.followDone = true
		e.followed, e.followedErr = f.c.FS.Stat(e.absPath())
	}
	return e.followed, e.followedErr
}

// followedType is %Y: the type of what a symlink points to, N when it
// dangles, L when it loops, ? on other errors.
func (f *finder) followedType(e *entry) string {
	if e.info.Mode()&modeSymlink == 0 {
		return string(typeChar(e.info.Mode()))
	}
	fi, err := f.target(e)
	switch {
	case err == nil:
		return string(typeChar(fi.Mode()))
	case errors.Is(err, fs.ErrNotExist):
		return "N"
	case isLoop(err):
		return "L"
	}
	return "?"
}

func isLoop(err error) bool {
	return strings.Contains(builtins.ErrText(err), "Too many levels of symbolic links")
}

// joinPath appends a name to a path as find prints it: no slash is added
// after a path that ends in one.
func joinPath(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// joinAbs appends a name to a guest path for filesystem calls. A final
// "." of dir goes ("find ." lists /work/., whose members are /work/x): the
// paths below a starting point are then clean, and the filesystem need
// not copy each one to clean it.
func joinAbs(dir, name string) string {
	dir = strings.TrimRight(dir, "/")
	for strings.HasSuffix(dir, "/.") {
		dir = strings.TrimRight(dir[:len(dir)-2], "/")
	}
	return dir + "/" + name
}

func (f *finder) tick() {
	f.ticks++
	if f.ticks&1023 == 0 && f.ctx.Err() != nil {
		f.quit, f.canceled = true, true
	}
}

// walkRoot visits one starting point.
func (f *finder) walkRoot(start string) {
	if start == "" {
		f.fileError(start, fs.ErrNotExist)
		return
	}
	abs := f.c.Abs(start)
	e := &entry{path: start, abs: abs, start: start}
	lst, _, err := f.c.FS.LstatIfPossible(abs)
	if err != nil {
		f.fileError(start, err)
		return
	}
	e.lst, e.info = lst, lst
	follow := f.follow != followNever || strings.HasSuffix(start, "/")
	if follow && lst.Mode()&modeSymlink != 0 {
		st, err := f.c.FS.Stat(abs)
		switch {
		case err == nil:
			e.info = st
		case errors.Is(err, fs.ErrNotExist) && !strings.HasSuffix(start, "/"):
			// a dangling link is reported as the link itself
		default:
			f.fileError(start, err)
			return
		}
	}
	if strings.HasSuffix(start, "/") && !e.info.IsDir() {
		f.fileError(start, errNotDir)
		return
	}
	if f.follow == followAll && e.info.IsDir() {
		if p, err := procutil.Realpath(f.c, start); err == nil {
			e.phys = p
		} else {
			e.phys = path.Clean(abs)
		}
	}
	f.visit(e, nil)
}

// errNotDir has the C library's text for ENOTDIR.
var errNotDir = errors.New("not a directory")

// visit evaluates e and walks below it. ancestors holds the physical
// paths of the directories above e when following symlinks (-L).
func (f *finder) visit(e *entry, ancestors []*entry) {
	f.tick()
	if f.quit {
		return
	}
	isDir := e.info.IsDir()
	if !f.depthFirst && e.depth >= f.minDepth {
		f.eval(f.expr, e)
		f.checkOut()
	}
	if isDir && (f.maxDepth < 0 || e.depth < f.maxDepth) && !(e.prune && !f.depthFirst) && !f.quit {
		list, ahead, err := f.members(e)
		if err != nil {
			f.fileError(e.path, err)
		}
		if f.follow == followAll {
			ancestors = append(ancestors, e)
		}
		if f.listers != nil && ahead == nil {
			ahead = f.listers.Queue(e.depth, e.absPath(), list)
		}
		// One entry serves every member in turn: nothing keeps an entry
		// after its visit, so a listing costs one allocation, not one per
		// member.
		kid := new(entry)
		for i, fi := range list {
			if f.quit {
				break
			}
			if f.child(e, fi, ancestors, kid) {
				if ahead != nil {
					kid.ahead = ahead[i]
				}
				f.visit(kid, ancestors)
			}
		}
		for _, l := range ahead {
			f.listers.DropTree(l) // pruned, or left at -quit
		}
	}
	if f.depthFirst && e.depth >= f.minDepth && !f.quit {
		f.eval(f.expr, e)
		f.checkOut()
	}
}

// child fills e with a directory member, stating it as the symlink policy
// asks; false when it cannot be visited.
func (f *finder) child(parent *entry, fi fs.FileInfo, ancestors []*entry, e *entry) bool {
	name := fi.Name()
	*e = entry{
		path:   joinPath(parent.path, name),
		dirAbs: parent.absPath(),
		name:   name,
		start:  parent.start,
		depth:  parent.depth + 1,
		info:   fi,
		lst:    fi,
	}
	if f.follow != followAll {
		return true
	}
	isLink := fi.Mode()&modeSymlink != 0
	if isLink {
		st, err := f.c.FS.Stat(e.absPath())
		switch {
		case err == nil:
			e.info = st
		case errors.Is(err, fs.ErrNotExist):
		default:
			f.fileError(e.path, err)
			return false
		}
	}
	if !e.info.IsDir() {
		return true
	}
	if isLink {
		p, err := procutil.Realpath(f.c, e.absPath())
		if err != nil {
			f.fileError(e.path, err)
			return false
		}
		e.phys = p
	} else {
		e.phys = joinAbs(parent.phys, name)
	}
	for _, a := range ancestors {
		if a.phys == e.phys {
			f.errorf("File system loop detected; %s is part of the same file system loop as %s.", f.quote(e.path), f.quote(a.path))
			return false
		}
	}
	return true
}

// members reads the members of directory e, or takes them read ahead
// with the listings queued for its subdirectories (nil when none were).
func (f *finder) members(e *entry) ([]fs.FileInfo, []*readahead.Listing, error) {
	if e.ahead != nil && f.listers != nil {
		return f.listers.Take(e.ahead)
	}
	list, err := f.readDir(e.absPath())
	return list, nil, err
}

// readDir lists a directory for the walk: by type only when that is all
// the expression needs, in inode order when the directory is large.
func (f *finder) readDir(abs string) ([]fs.FileInfo, error) {
	list, err := f.listDir(abs)
	if len(list) > inodeSortThreshold {
		if f.typesOnly {
			// type-only entries carry no inode: list again in full
			list, err = f.c.FS.ReadDir(abs)
		}
		sortByInode(list)
	}
	return list, err
}

func (f *finder) listDir(abs string) ([]fs.FileInfo, error) {
	if f.typesOnly {
		return f.c.FS.ReadDirTypes(abs)
	}
	return f.c.FS.ReadDir(abs)
}

// inodeSortThreshold: like gnulib's fts, find reads a directory of more
// entries than this in inode order (on filesystems that report inodes).
const inodeSortThreshold = 10000

func sortByInode(list []fs.FileInfo) {
	inos := make([]uint64, len(list))
	for i, fi := range list {
		ino, ok := overlayfs.Inode(fi)
		if !ok {
			return
		}
		inos[i] = ino
	}
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return inos[idx[a]] < inos[idx[b]] })
	sorted := make([]fs.FileInfo, len(list))
	for i, j := range idx {
		sorted[i] = list[j]
	}
	copy(list, sorted)
}
