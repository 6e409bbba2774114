package git

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/bashbox/bashbox/builtins"
)

// indexState is the loaded index: stage-0 entries by name (the entries
// of unmerged paths are kept aside), with a sorted view built on demand
// and a count of entries under each directory.
type indexState struct {
	idx      *index.Index
	mtime    time.Time
	byName   map[string]*index.Entry
	unmerged []*index.Entry
	sorted   []*index.Entry // nil when stale
	dirs     map[string]int
	dirty    bool // changed since it was read
}

// index loads .git/index once per command.
func (r *repo) index() *indexState {
	if r.idxCache != nil {
		return r.idxCache
	}
	ix := &indexState{byName: map[string]*index.Entry{}, dirs: map[string]int{}}
	data, err := r.readGitFile("index")
	if err != nil {
		ix.idx = &index.Index{Version: 2}
	} else {
		ix.idx = &index.Index{}
		if err := index.NewDecoder(bytes.NewReader(data)).Decode(ix.idx); err != nil {
			r.g.fatal("index file corrupt")
		}
		if fi, err := r.fs.Stat(r.gitPath("index")); err == nil {
			ix.mtime = fi.ModTime()
		}
	}
	for _, e := range ix.idx.Entries {
		if e.Stage == 0 {
			ix.byName[e.Name] = e
			ix.addDirs(e.Name, 1)
		} else {
			ix.unmerged = append(ix.unmerged, e)
		}
	}
	r.idxCache = ix
	return ix
}

func (ix *indexState) addDirs(name string, delta int) {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '/' {
			ix.dirs[name[:i]] += delta
		}
	}
}

// entries returns the stage-0 entries sorted by name. The slice is shared:
// callers must not modify it.
func (ix *indexState) entries() []*index.Entry {
	if ix.sorted == nil {
		ix.sorted = make([]*index.Entry, 0, len(ix.byName))
		for _, e := range ix.byName {
			ix.sorted = append(ix.sorted, e)
		}
		sort.Slice(ix.sorted, func(i, j int) bool { return ix.sorted[i].Name < ix.sorted[j].Name })
	}
	// A copy, so that callers may add and remove entries while iterating.
	return append([]*index.Entry(nil), ix.sorted...)
}

func (ix *indexState) get(name string) *index.Entry { return ix.byName[name] }

// set adds or replaces an entry.
func (ix *indexState) set(e *index.Entry) {
	ix.dirty = true
	if old, ok := ix.byName[e.Name]; ok {
		*old = *e
		return
	}
	ix.byName[e.Name] = e
	ix.addDirs(e.Name, 1)
	ix.sorted = nil
}

func (ix *indexState) remove(name string) bool {
	if _, ok := ix.byName[name]; !ok {
		return false
	}
	ix.dirty = true
	delete(ix.byName, name)
	ix.addDirs(name, -1)
	ix.sorted = nil
	return true
}

// hasDir reports whether some entry lies under dir ("a/b").
func (ix *indexState) hasDir(dir string) bool {
	return ix.dirs[dir] > 0
}

// removeUnder drops every entry under dir.
func (ix *indexState) removeUnder(dir string) {
	if !ix.hasDir(dir) {
		return
	}
	for name := range ix.byName {
		if strings.HasPrefix(name, dir+"/") {
			ix.remove(name)
		}
	}
}

// replaceAll swaps in a new set of entries.
func (ix *indexState) replaceAll(files []fileEntry, keep map[string]*index.Entry) {
	ix.dirty = true
	ix.idx.Cache = nil
	ix.byName = make(map[string]*index.Entry, len(files))
	ix.dirs = map[string]int{}
	ix.unmerged = nil
	for _, f := range files {
		e := &index.Entry{Name: f.path, Mode: f.mode, Hash: f.hash}
		if old, ok := keep[f.path]; ok && old.Hash == f.hash && old.Mode == f.mode {
			*e = *old
		}
		ix.byName[f.path] = e
		ix.addDirs(f.path, 1)
	}
	ix.sorted = nil
}

// files returns the index as file entries.
func (ix *indexState) files() []fileEntry {
	ents := ix.entries()
	out := make([]fileEntry, 0, len(ents))
	for _, e := range ents {
		if e.IntentToAdd {
			continue
		}
		out = append(out, fileEntry{path: e.Name, mode: e.Mode, hash: e.Hash})
	}
	return out
}

// writeIndex saves the index if it changed.
func (r *repo) writeIndex() {
	ix := r.index()
	if !ix.dirty && r.fileExists(r.gitPath("index")) {
		return
	}
	ix.idx.Entries = append(ix.entries(), ix.unmerged...)
	ix.idx.Cache = nil
	ix.idx.ResolveUndo = nil
	ix.idx.EndOfIndexEntry = nil
	if ix.idx.Version < 2 || ix.idx.Version > 4 {
		ix.idx.Version = 2
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	if err := index.NewEncoder(w).Encode(ix.idx); err != nil {
		r.g.fatal("unable to write index: %v", err)
	}
	w.Flush()
	p := r.gitPath("index.lock")
	if err := writeFile(r.fs, p, buf.Bytes(), 0o644); err != nil {
		r.g.fatal("Unable to create '%s': %s.", p, builtins.ErrText(err))
	}
	if err := r.fs.Rename(p, r.gitPath("index")); err != nil {
		r.g.fatal("unable to write new index file")
	}
	if fi, err := r.fs.Stat(r.gitPath("index")); err == nil {
		ix.mtime = fi.ModTime()
	}
	ix.dirty = false
}

// ---- work tree files ----

// wtMode is the git mode of a work tree file.
func wtMode(fi fs.FileInfo) filemode.FileMode {
	m := fi.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		return filemode.Symlink
	case m.IsDir():
		return filemode.Dir
	case m&0o100 != 0:
		return filemode.Executable
	}
	return filemode.Regular
}

// lstat looks at a work tree path without following a final symlink.
func (r *repo) lstat(rel string) (fs.FileInfo, error) {
	fi, _, err := r.fs.LstatIfPossible(r.workPath(rel))
	return fi, err
}

// readWork reads a work tree file's content as git stores it (a symlink's
// target for symlinks).
func (r *repo) readWork(rel string, fi fs.FileInfo) ([]byte, error) {
	if fi != nil && fi.Mode()&fs.ModeSymlink != 0 {
		t, err := r.fs.ReadlinkIfPossible(r.workPath(rel))
		return []byte(t), err
	}
	return readAll(r.fs, r.workPath(rel))
}

// statEntry fills an index entry's stat data from fi.
func statEntry(e *index.Entry, fi fs.FileInfo) {
	t := fi.ModTime()
	if t.Unix() < 0 {
		t = time.Unix(0, 0)
	}
	e.ModifiedAt = t
	e.CreatedAt = t
	e.Size = uint32(fi.Size())
}

// fileMode keeps the index's executable bit when core.filemode is false.
func (r *repo) fileMode(fi fs.FileInfo, old *index.Entry) filemode.FileMode {
	m := wtMode(fi)
	if old != nil && !r.cfg.getBool("core.filemode", true) && (m == filemode.Regular || m == filemode.Executable) &&
		(old.Mode == filemode.Regular || old.Mode == filemode.Executable) {
		return old.Mode
	}
	return m
}

// wtState is how a tracked file's work tree copy compares to the index.
type wtState int

const (
	wtClean wtState = iota
	wtModified
	wtDeleted
	wtTypeChanged
)

// checkWork compares a tracked file with its work tree copy. It returns
// the state and, when the content was read, its blob name.
func (r *repo) checkWork(e *index.Entry) (wtState, fs.FileInfo, plumbing.Hash) {
	fi, err := r.lstat(e.Name)
	if err != nil {
		return wtDeleted, nil, plumbing.ZeroHash
	}
	mode := r.fileMode(fi, e)
	if mode == filemode.Dir {
		if e.Mode == filemode.Submodule {
			return wtClean, fi, e.Hash
		}
		return wtDeleted, nil, plumbing.ZeroHash
	}
	if e.IntentToAdd {
		return wtModified, fi, plumbing.ZeroHash
	}
	if (mode == filemode.Symlink) != (e.Mode == filemode.Symlink) || e.Mode == filemode.Submodule {
		return wtTypeChanged, fi, plumbing.ZeroHash
	}
	if mode != e.Mode {
		data, err := r.readWork(e.Name, fi)
		if err != nil {
			return wtModified, fi, plumbing.ZeroHash
		}
		return wtModified, fi, hashBlob(data)
	}
	// A zero size means no stat data yet (after read-tree or reset): the
	// content decides.
	if mode != filemode.Symlink && uint32(fi.Size()) != e.Size && e.Size != 0 {
		return wtModified, fi, plumbing.ZeroHash
	}
	mt := fi.ModTime()
	if mt.Equal(e.ModifiedAt) && !r.racy(e) {
		return wtClean, fi, e.Hash
	}
	data, err := r.readWork(e.Name, fi)
	if err != nil {
		return wtModified, fi, plumbing.ZeroHash
	}
	h := hashBlob(data)
	if h == e.Hash {
		return wtClean, fi, h
	}
	return wtModified, fi, h
}

// refreshIndex records the stat data of entries whose work tree files
// match them, as git does after a reset.
func (r *repo) refreshIndex() {
	ix := r.index()
	for i, e := range ix.entries() {
		if i&1023 == 1023 {
			r.g.check()
		}
		if !e.ModifiedAt.IsZero() && e.Size != 0 {
			continue
		}
		if st, fi, _ := r.checkWork(e); st == wtClean && fi != nil {
			ne := *e
			statEntry(&ne, fi)
			ix.set(&ne)
		}
	}
}

// racy reports whether an entry's stat data cannot be trusted: the file
// was modified in the same instant the index was written, or later.
func (r *repo) racy(e *index.Entry) bool {
	ix := r.index()
	return ix.mtime.IsZero() || !e.ModifiedAt.Before(ix.mtime)
}

// workHash returns the blob name of a work tree file.
func (r *repo) workHash(rel string, fi fs.FileInfo) (plumbing.Hash, error) {
	data, err := r.readWork(rel, fi)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return hashBlob(data), nil
}

// addFile stores a work tree file as a blob and stages it.
func (r *repo) addFile(rel string, fi fs.FileInfo) {
	ix := r.index()
	old := ix.get(rel)
	if old != nil && !old.IntentToAdd {
		st, _, h := r.checkWork(old)
		if st == wtClean {
			// Refresh the stat data only.
			e := *old
			statEntry(&e, fi)
			e.Hash = h
			ix.set(&e)
			return
		}
	}
	var h plumbing.Hash
	mode := r.fileMode(fi, old)
	if mode == filemode.Dir {
		// An embedded repository: record its HEAD as a gitlink.
		sub := r.workPath(rel)
		data, err := readAll(r.fs, sub+"/.git/HEAD")
		if err != nil {
			return
		}
		s := strings.TrimSpace(string(data))
		if t, ok := strings.CutPrefix(s, "ref: "); ok {
			d2, err := readAll(r.fs, sub+"/.git/"+t)
			if err != nil {
				r.g.msg("error: '%s/' does not have a commit checked out", rel)
				r.g.fatal("adding files failed")
			}
			s = strings.TrimSpace(string(d2))
		}
		h = plumbing.NewHash(s)
		mode = filemode.Submodule
	} else {
		data, err := r.readWork(rel, fi)
		if err != nil {
			r.g.msg("error: open(\"%s\"): %s", rel, builtins.ErrText(err))
			r.g.msg("error: unable to index file '%s'", rel)
			r.g.fatal("adding files failed")
		}
		h = r.writeObject(plumbing.BlobObject, data)
		r.release(data)
	}
	e := &index.Entry{Name: rel, Mode: mode, Hash: h}
	statEntry(e, fi)
	// Remove entries that the new one conflicts with (file vs directory).
	ix.removeUnder(rel)
	dir := rel
	for {
		i := strings.LastIndexByte(dir, '/')
		if i < 0 {
			break
		}
		dir = dir[:i]
		ix.remove(dir)
	}
	ix.set(e)
}

// writeWorkFile writes a blob to the work tree, replacing what is there.
func (r *repo) writeWorkFile(rel string, mode filemode.FileMode, h plumbing.Hash) fs.FileInfo {
	p := r.workPath(rel)
	// Make room: a file or symlink where a parent directory must be.
	dir := path.Dir(rel)
	fresh := false
	if dir != "." {
		fresh = r.mkdirs(dir)
	}
	if !fresh {
		if fi, _, err := r.fs.LstatIfPossible(p); err == nil {
			if fi.IsDir() {
				r.removeAll(p)
				delete(r.dirsKnown, rel)
			} else {
				r.fs.Remove(p)
			}
		}
	}
	if mode == filemode.Submodule {
		r.fs.MkdirAll(p, 0o755)
		fi, _, _ := r.fs.LstatIfPossible(p)
		return fi
	}
	data := r.blob(h)
	if mode == filemode.Symlink {
		if err := r.fs.SymlinkIfPossible(string(data), p); err != nil {
			r.g.msg("error: unable to create symlink %s: %s", rel, builtins.ErrText(err))
		}
		fi, _, _ := r.fs.LstatIfPossible(p)
		return fi
	}
	perm := fs.FileMode(0o666)
	if mode == filemode.Executable {
		perm = 0o777
	}
	perm &^= r.g.c.Umask
	f, err := r.fs.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		r.g.fatal("unable to create file %s: %s", rel, builtins.ErrText(err))
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		r.g.fatal("unable to write file %s: %s", rel, builtins.ErrText(err))
	}
	fi, err := f.Stat()
	if err == nil && fi.Mode().Perm() != perm {
		f.Close()
		r.fs.Chmod(p, perm)
		fi, _, _ = r.fs.LstatIfPossible(p)
		return fi
	}
	if err := f.Close(); err != nil {
		r.g.fatal("unable to write file %s: %s", rel, builtins.ErrText(err))
	}
	if fi == nil {
		fi, _, _ = r.fs.LstatIfPossible(p)
	}
	return fi
}

// mkdirs makes the directories of a work tree path; it reports whether
// the innermost one was created by this command (and so holds nothing we
// did not write).
func (r *repo) mkdirs(dir string) bool {
	if r.dirsKnown == nil {
		r.dirsKnown = map[string]bool{}
	}
	if fresh, ok := r.dirsKnown[dir]; ok {
		return fresh
	}
	fresh := false
	parts := strings.Split(dir, "/")
	for i := range parts {
		sub := strings.Join(parts[:i+1], "/")
		if f, ok := r.dirsKnown[sub]; ok {
			fresh = f
			continue
		}
		p := r.workPath(sub)
		if !fresh {
			fi, _, err := r.fs.LstatIfPossible(p)
			if err == nil && fi.IsDir() {
				r.dirsKnown[sub] = false
				continue
			}
			if err == nil {
				r.fs.Remove(p)
			}
		}
		if err := r.fs.Mkdir(p, 0o777&^r.g.c.Umask); err != nil && !errors.Is(err, fs.ErrExist) {
			r.g.fatal("cannot create directory at '%s': %s", sub, builtins.ErrText(err))
		}
		fresh = true
		r.dirsKnown[sub] = true
	}
	return fresh
}

func (r *repo) removeAll(p string) {
	fi, _, err := r.fs.LstatIfPossible(p)
	if err != nil {
		return
	}
	if fi.IsDir() {
		entries, _ := r.fs.ReadDir(p)
		for _, e := range entries {
			r.removeAll(p + "/" + e.Name())
		}
	}
	r.fs.Remove(p)
}

// removeWorkFile deletes a tracked file and the directories it leaves
// empty.
func (r *repo) removeWorkFile(rel string) {
	p := r.workPath(rel)
	if err := r.fs.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if fi, _, err2 := r.fs.LstatIfPossible(p); err2 == nil && fi.IsDir() {
			return
		}
	}
	r.pruneDirs(path.Dir(rel))
}

// pruneDirs removes empty directories from dir up to the root.
func (r *repo) pruneDirs(dir string) {
	for dir != "." && dir != "" && dir != "/" {
		p := r.workPath(dir)
		entries, err := r.fs.ReadDir(p)
		if err != nil || len(entries) > 0 {
			return
		}
		if p == path.Clean(r.g.dir) {
			// git keeps the directory the command runs in.
			return
		}
		if r.fs.Remove(p) != nil {
			return
		}
		delete(r.dirsKnown, dir)
		dir = path.Dir(dir)
	}
}

// ---- untracked files ----

type untrackedMode int

const (
	untrackedNo untrackedMode = iota
	untrackedNormal
	untrackedAll
)

// walkResult lists untracked and ignored paths (directories end in '/').
type walkResult struct {
	untracked []string
	ignored   []string
}

// walkOpts controls the work tree walk.
type walkOpts struct {
	mode           untrackedMode
	wantIgnored    bool // collect ignored paths
	ignoredAll     bool // list ignored files inside ignored directories... (matching mode)
	ps             *pathspec
	noIgnore       bool // treat nothing as ignored (add -f)
	showEmptyDirs  bool // list untracked directories without untracked files (ls-files --directory)
	cleanEmptyDirs bool // list untracked directories holding no file at all (clean -d)
}

// walkWorktree finds untracked (and optionally ignored) paths.
func (r *repo) walkWorktree(o walkOpts) walkResult {
	var res walkResult
	if o.mode == untrackedNo && !o.wantIgnored {
		return res
	}
	ix := r.index()
	ig := r.newIgnorer()
	if o.noIgnore {
		ig.none = true
	}
	count := 0
	// walk returns whether dir (relative, "" for root) holds anything
	// untracked that would be reported.
	var walk func(dir string, collapse bool) (hasUntracked bool, untracked []string, ignored []string)
	walk = func(dir string, collapse bool) (bool, []string, []string) {
		var unt, ign []string
		p := r.workPath(dir)
		entries, err := r.fs.ReadDir(p)
		if err != nil {
			return false, nil, nil
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
		has := false
		for _, fi := range entries {
			count++
			if count&1023 == 0 {
				r.g.check()
			}
			name := fi.Name()
			if name == ".git" || fi.Mode()&(fs.ModeNamedPipe|fs.ModeSocket|fs.ModeDevice) != 0 {
				continue // git tracks no FIFO, socket or device (and never opens one)
			}
			rel := name
			if dir != "" {
				rel = dir + "/" + name
			}
			isDir := fi.IsDir()
			if !isDir {
				if ix.get(rel) != nil {
					continue
				}
				if o.ps != nil && !o.ps.match(rel) {
					continue
				}
				if ig.ignored(rel, false) {
					if o.wantIgnored {
						ign = append(ign, rel)
					}
					continue
				}
				has = true
				unt = append(unt, rel)
				continue
			}
			// Directory.
			if e := ix.get(rel); e != nil && e.Mode == filemode.Submodule {
				continue
			}
			if o.ps != nil && !o.ps.couldMatchUnder(rel) {
				continue
			}
			tracked := ix.hasDir(rel)
			if !tracked && r.fileExists(r.workPath(rel)+"/.git") {
				// An embedded repository shows as a directory.
				if ig.ignored(rel, true) {
					if o.wantIgnored {
						ign = append(ign, rel+"/")
					}
					continue
				}
				if o.ps == nil || o.ps.match(rel) {
					has = true
					unt = append(unt, rel+"/")
				}
				continue
			}
			if ig.ignored(rel, true) {
				if o.wantIgnored && !tracked {
					if o.ignoredAll {
						_, _, sub := r.walkAllIgnored(rel, ix)
						ign = append(ign, sub...)
					} else if r.dirHasFiles(rel) {
						ign = append(ign, rel+"/")
					}
				} else if o.wantIgnored && tracked {
					_, _, sub := r.walkAllIgnored(rel, ix)
					ign = append(ign, sub...)
				}
				continue
			}
			subHas, subUnt, subIgn := walk(rel, !tracked && o.mode == untrackedNormal)
			if subHas {
				has = true
			}
			if !tracked && o.mode == untrackedNormal {
				if o.cleanEmptyDirs && len(subIgn) > 0 {
					// clean keeps ignored files: list what is inside instead.
					unt = append(unt, subUnt...)
					if subHas {
						has = true
					}
				} else if subHas || o.showEmptyDirs || (o.cleanEmptyDirs && !r.dirHasFiles(rel)) {
					unt = append(unt, rel+"/")
					has = true
				}
				if o.wantIgnored {
					if !subHas && len(subIgn) > 0 && allIgnoredDir(subIgn, rel) && !o.ignoredAll {
						ign = append(ign, rel+"/")
					} else {
						ign = append(ign, subIgn...)
					}
				}
				continue
			}
			unt = append(unt, subUnt...)
			ign = append(ign, subIgn...)
		}
		return has, unt, ign
	}
	_, unt, ign := walk("", false)
	if o.mode != untrackedNo {
		res.untracked = unt
	}
	res.ignored = ign
	sort.Strings(res.untracked)
	sort.Strings(res.ignored)
	return res
}

func allIgnoredDir(ign []string, dir string) bool {
	return len(ign) > 0
}

// walkAllIgnored lists the files under an ignored directory that are not
// tracked.
func (r *repo) walkAllIgnored(dir string, ix *indexState) (bool, []string, []string) {
	var out []string
	var walk func(d string)
	walk = func(d string) {
		entries, err := r.fs.ReadDir(r.workPath(d))
		if err != nil {
			return
		}
		for _, fi := range entries {
			rel := d + "/" + fi.Name()
			if fi.IsDir() {
				walk(rel)
				continue
			}
			if ix.get(rel) == nil {
				out = append(out, rel)
			}
		}
	}
	walk(dir)
	return false, nil, out
}

// dirHasFiles reports whether a directory holds any file (at any depth).
func (r *repo) dirHasFiles(dir string) bool {
	entries, err := r.fs.ReadDir(r.workPath(dir))
	if err != nil {
		return false
	}
	for _, fi := range entries {
		if !fi.IsDir() {
			return true
		}
		if r.dirHasFiles(dir + "/" + fi.Name()) {
			return true
		}
	}
	return false
}

// listWorkFiles lists every non-ignored file of the work tree under the
// pathspec, tracked or not (for add -A and add .).
func (r *repo) listWorkFiles(ps *pathspec, noIgnore bool) []string {
	res := r.walkWorktree(walkOpts{mode: untrackedAll, ps: ps, noIgnore: noIgnore})
	return res.untracked
}
