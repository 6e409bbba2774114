package git

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/bashbox/bashbox/vfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

// repo is an open repository.
type repo struct {
	g      *cmd
	fs     builtins.FS
	work   string // worktree root, guest absolute; "" for a bare repository
	gitDir string // guest absolute
	prefix string // the working directory relative to work, "" or "dir/sub/"
	dot    *billyFS
	st     *filesystem.Storage
	cfg    *configSet

	abbrevLen   int
	idxCache    *indexState
	commitCache map[plumbing.Hash]*commit
	treeCache   map[plumbing.Hash][]treeEntry
	noIndexData map[plumbing.Hash][]byte // contents for diff --no-index
	blamePath   string
	looseDirs   map[string][]string // objects/xx listings, for abbreviations
	packed      []plumbing.Hash     // packed object names, sorted
	// streamTo is the buffer that goes to standard output, and flush
	// writes it out: long diffs are streamed instead of built whole.
	streamTo  *bytes.Buffer
	flush     func(*bytes.Buffer)
	dirsKnown map[string]bool // work tree directories: created by this command?
}

// findRepo walks up from the working directory to the repository, or dies
// with git's message.
func (g *cmd) repo() *repo {
	r, err := g.openRepo()
	if err != nil {
		g.fatal("not a git repository (or any of the parent directories): .git")
	}
	return r
}

// worktreeRepo opens the repository and requires a work tree.
func (g *cmd) worktreeRepo() *repo {
	r := g.repo()
	if r.work == "" {
		g.fatal("this operation must be run in a work tree")
	}
	return r
}

func (g *cmd) openRepo() (*repo, error) {
	fsys := g.c.FS
	if gd := g.getenv("GIT_DIR"); gd != "" {
		gitDir := path.Clean(g.abs(gd))
		if !isGitDir(fsys, gitDir) {
			g.fatal("not a git repository: '%s'", gd)
		}
		work := g.dir
		if wt := g.getenv("GIT_WORK_TREE"); wt != "" {
			work = path.Clean(g.abs(wt))
		}
		return g.newRepo(work, gitDir), nil
	}
	d := path.Clean(g.dir)
	for {
		dotgit := path.Join(d, ".git")
		if fi, err := fsys.Stat(dotgit); err == nil {
			if fi.IsDir() && isGitDir(fsys, dotgit) {
				return g.newRepo(d, dotgit), nil
			}
			if !fi.IsDir() {
				if target, ok := readGitFile(fsys, dotgit); ok {
					if !path.IsAbs(target) {
						target = path.Join(d, target)
					}
					if isGitDir(fsys, target) {
						return g.newRepo(d, target), nil
					}
				}
			}
		}
		// Inside a .git directory (or a bare repository).
		if isGitDir(fsys, d) && (path.Base(d) == ".git" || isBare(fsys, d)) {
			r := g.newRepo("", d)
			return r, nil
		}
		if d == "/" {
			return nil, errors.New("not a git repository")
		}
		d = path.Dir(d)
	}
}

func isBare(fsys builtins.FS, dir string) bool {
	data, err := readAll(fsys, path.Join(dir, "config"))
	if err != nil {
		return false
	}
	cf := parseConfig(data, "")
	v, ok := cf.get("core.bare")
	return ok && parseBool(v) == 1
}

// isGitDir reports whether dir looks like a git directory: HEAD, objects
// and refs.
func isGitDir(fsys builtins.FS, dir string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := fsys.Stat(path.Join(dir, name)); err != nil {
			return false
		}
	}
	return true
}

func readGitFile(fsys builtins.FS, p string) (string, bool) {
	data, err := readAll(fsys, p)
	if err != nil {
		return "", false
	}
	s := strings.TrimSpace(string(data))
	t, ok := strings.CutPrefix(s, "gitdir: ")
	return t, ok
}

func (g *cmd) newRepo(work, gitDir string) *repo {
	r := &repo{g: g, fs: g.c.FS, work: work, gitDir: gitDir}
	r.dot = newBillyFS(r.fs, gitDir)
	r.st = filesystem.NewStorageWithOptions(r.dot, cache.NewObjectLRUDefault(), filesystem.Options{})
	if work != "" {
		cwd := path.Clean(g.dir)
		if cwd != work && strings.HasPrefix(cwd, work+"/") {
			r.prefix = cwd[len(work)+1:] + "/"
		} else if work == "/" && cwd != "/" {
			r.prefix = cwd[1:] + "/"
		}
	}
	r.cfg = g.loadConfig(r)
	return r
}

// readAll reads a whole guest file.
// callFS is the repository's view of the sandbox: reads and writes stop
// with the call, and whole-file reads are charged to its memory budget.
type callFS struct {
	builtins.FS
	g *cmd
}

// readAll reads f whole, charged to the memory budget before each
// allocation: a regular file in one buffer of its size (ReadAll's
// doubling would charge up to twice that).
func (cf *callFS) readAll(f vfs.File) ([]byte, error) {
	c := cf.g.c
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() <= 0 {
		return c.ReadAll(cf.g.ctx, f)
	}
	if err := c.Grow(fi.Size() + 512); err != nil {
		return nil, err
	}
	b := make([]byte, 0, fi.Size()+512)
	for len(b) < cap(b) {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	// The file grew since its stat: the rest as it comes, then one copy.
	rest, err := c.ReadAll(cf.g.ctx, f)
	if err == nil {
		err = c.Grow(int64(len(b) + len(rest)))
	}
	if err != nil {
		return b, err
	}
	return append(b, rest...), nil
}

func readAll(fsys builtins.FS, p string) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if cf, ok := fsys.(*callFS); ok {
		return cf.readAll(f)
	}
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		buf.Grow(int(fi.Size()) + 1)
	}
	_, err = buf.ReadFrom(f)
	return buf.Bytes(), err
}

// release gives back to the memory budget a file's content read with
// readAll through the repository's filesystem once it is stored: git add
// of many files holds one at a time, as git does.
func (r *repo) release(data []byte) {
	if _, ok := r.fs.(*callFS); ok {
		r.g.c.Shrink(int64(cap(data)))
	}
}

// writeFileAtomic writes data to p through a temporary file and a rename.
func writeFile(fsys builtins.FS, p string, data []byte, perm fs.FileMode) error {
	f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// gitPath is a path inside the git directory.
func (r *repo) gitPath(name string) string { return path.Join(r.gitDir, name) }

// workPath is a path inside the work tree (name relative to its root).
func (r *repo) workPath(name string) string {
	if name == "" {
		return r.work
	}
	if r.work == "/" {
		return "/" + name
	}
	return r.work + "/" + name
}

func (r *repo) readGitFile(name string) ([]byte, error) { return readAll(r.fs, r.gitPath(name)) }

func (r *repo) writeGitFile(name string, data []byte) {
	p := r.gitPath(name)
	if err := r.fs.MkdirAll(path.Dir(p), 0o755); err != nil {
		r.g.fatal("could not create directory '%s': %s", path.Dir(p), builtins.ErrText(err))
	}
	if err := writeFile(r.fs, p, data, 0o644); err != nil {
		r.g.fatal("could not write '%s': %s", p, builtins.ErrText(err))
	}
}

// ---- objects ----

// readObject returns an object's type and content.
func (r *repo) readObject(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	obj, err := r.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return plumbing.InvalidObject, nil, err
	}
	defer rd.Close()
	data := make([]byte, 0, obj.Size())
	buf := bytes.NewBuffer(data)
	if _, err := io.Copy(buf, rd); err != nil {
		return plumbing.InvalidObject, nil, err
	}
	return obj.Type(), buf.Bytes(), nil
}

// mustObject reads an object or dies.
func (r *repo) mustObject(h plumbing.Hash) (plumbing.ObjectType, []byte) {
	t, data, err := r.readObject(h)
	if err != nil {
		r.g.fatal("unable to read %s", h)
	}
	return t, data
}

func (r *repo) hasObject(h plumbing.Hash) bool {
	return r.st.HasEncodedObject(h) == nil
}

// writeObject stores an object (unless it exists) and returns its hash.
func (r *repo) writeObject(t plumbing.ObjectType, data []byte) plumbing.Hash {
	h := plumbing.ComputeHash(t, data)
	if r.hasObject(h) {
		return h
	}
	if r.looseDirs != nil {
		delete(r.looseDirs, h.String()[:2])
	}
	// The object holds a copy of data, and compressing it one more.
	held := 2 * int64(len(data))
	if err := r.g.c.Grow(held); err != nil {
		r.g.fatal("Out of memory, malloc failed (tried to allocate %d bytes)", len(data))
	}
	defer r.g.c.Shrink(held)
	obj := &stoppableObject{ctx: r.g.ctx}
	obj.SetType(t)
	obj.Write(data)
	if _, err := r.st.SetEncodedObject(obj); err != nil {
		r.g.fatal("unable to write %s object: %s", t, builtins.ErrText(err))
	}
	return h
}

// stoppableObject is an object whose content go-git reads through a
// reader that stops with the call. The store compresses the content as it
// copies it, and without the check a large blob (`git add` of a file
// being filled) went on compressing for a second past the call's deadline
// under -race (TM-RES-008). Wrapping also hides bytes.Buffer's WriteTo, so
// the copy goes in buffer-sized reads, each one a check.
type stoppableObject struct {
	plumbing.MemoryObject
	ctx context.Context
}

func (o *stoppableObject) Reader() (io.ReadCloser, error) {
	r, err := o.MemoryObject.Reader()
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{textio.Cancellable(o.ctx, r), r}, nil
}

// blob reads a blob's content.
func (r *repo) blob(h plumbing.Hash) []byte {
	t, data, err := r.readObject(h)
	if err != nil {
		r.g.fatal("unable to read %s", h)
	}
	if t != plumbing.BlobObject {
		r.g.fatal("object %s is a %s, not a blob", h, t)
	}
	return data
}

// hashBlob computes a blob's object name.
func hashBlob(data []byte) plumbing.Hash { return plumbing.ComputeHash(plumbing.BlobObject, data) }

// abbrev shortens an object name the way git does: 7 hex digits for small
// repositories (more when there are many packed objects), longer when
// needed to be unique.
func (r *repo) abbrev(h plumbing.Hash) string {
	return r.abbrevN(h, 0)
}

func (r *repo) abbrevN(h plumbing.Hash, n int) string {
	if n == 0 {
		n = r.defaultAbbrev()
	}
	s := h.String()
	if n >= 40 {
		return s
	}
	if h.IsZero() {
		return s[:n]
	}
	for n < 40 {
		hs, err := r.hashesWithPrefix(s[:n])
		if err != nil || len(hs) <= 1 {
			break
		}
		n++
	}
	return s[:n]
}

func (r *repo) defaultAbbrev() int {
	if r.abbrevLen != 0 {
		return r.abbrevLen
	}
	n := 7
	if v, ok := r.cfg.get("core.abbrev"); ok {
		if k, ok := atoi(v); ok && k >= 4 && k <= 40 {
			n = k
		} else if v == "no" {
			n = 40
		}
	} else {
		count := r.packedObjectCount()
		bits := 0
		for c := count; c > 0; c >>= 1 {
			bits++
		}
		if l := (bits + 1) / 2; l > n {
			n = l
		}
	}
	r.abbrevLen = n
	return n
}

// packIndexes yields each pack's .idx file, open; the caller closes it.
// Unreadable ones are passed over.
func (r *repo) packIndexes() iter.Seq[vfs.File] {
	return func(yield func(vfs.File) bool) {
		entries, err := r.fs.ReadDir(r.gitPath("objects/pack"))
		if err != nil {
			return
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".idx") {
				continue
			}
			f, err := r.fs.Open(r.gitPath("objects/pack/" + e.Name()))
			if err != nil {
				continue
			}
			if !yield(f) {
				return
			}
		}
	}
}

func (r *repo) packedObjectCount() int {
	total := 0
	for f := range r.packIndexes() {
		var hdr [8 + 256*4]byte
		if _, err := io.ReadFull(f, hdr[:]); err == nil && bytes.Equal(hdr[:4], []byte{0xff, 't', 'O', 'c'}) {
			last := hdr[8+255*4:]
			total += int(uint32(last[0])<<24 | uint32(last[1])<<16 | uint32(last[2])<<8 | uint32(last[3]))
		}
		f.Close()
	}
	return total
}

// hashesWithPrefix lists the objects whose names start with a hex prefix.
// Directory listings and the packed object names are read once per
// command.
func (r *repo) hashesWithPrefix(hexPrefix string) ([]plumbing.Hash, error) {
	if len(hexPrefix) < 2 {
		return nil, errors.New("short prefix")
	}
	var out []plumbing.Hash
	seen := map[plumbing.Hash]bool{}
	if r.looseDirs == nil {
		r.looseDirs = map[string][]string{}
	}
	dir := hexPrefix[:2]
	names, ok := r.looseDirs[dir]
	if !ok {
		entries, _ := r.fs.ReadDir(r.gitPath("objects/" + dir))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		r.looseDirs[dir] = names
	}
	for _, n := range names {
		name := dir + n
		if len(name) == 40 && strings.HasPrefix(name, hexPrefix) {
			h := plumbing.NewHash(name)
			if !seen[h] {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	packed := r.packedHashes()
	i := sort.Search(len(packed), func(i int) bool { return packed[i].String() >= hexPrefix })
	for ; i < len(packed) && strings.HasPrefix(packed[i].String(), hexPrefix); i++ {
		if !seen[packed[i]] {
			seen[packed[i]] = true
			out = append(out, packed[i])
		}
	}
	return out, nil
}

// packedHashes lists the objects of all packs, sorted.
func (r *repo) packedHashes() []plumbing.Hash {
	if r.packed != nil {
		return r.packed
	}
	r.packed = []plumbing.Hash{}
	if r.packedObjectCount() == 0 {
		return r.packed
	}
	for f := range r.packIndexes() {
		idx := idxfile.NewMemoryIndex()
		if err := idxfile.NewDecoder(f).Decode(idx); err == nil {
			if it, err := idx.Entries(); err == nil {
				for {
					en, err := it.Next()
					if err != nil {
						break
					}
					r.packed = append(r.packed, en.Hash)
				}
				it.Close()
			}
		}
		f.Close()
	}
	sort.Slice(r.packed, func(i, j int) bool { return bytes.Compare(r.packed[i][:], r.packed[j][:]) < 0 })
	return r.packed
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
