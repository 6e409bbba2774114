package changeset

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// Conflict is an entry Apply refuses: the directory no longer holds what
// the change was made against.
type Conflict struct {
	Path   string
	Reason string
}

func (c Conflict) Error() string { return c.Path + ": " + c.Reason }

// Action is one step Apply takes (or, in a dry run, would take).
type Action struct {
	Op      Op
	Type    string
	Path    string
	OldPath string
	OldMode string
	NewMode string
}

func (a Action) String() string {
	switch a.Op {
	case OpRenamed:
		return fmt.Sprintf("rename   %s -> %s", a.OldPath, a.Path)
	case OpMode:
		return fmt.Sprintf("mode     %s (%s -> %s)", a.Path, a.OldMode, a.NewMode)
	case OpAdded:
		return fmt.Sprintf("add      %s", describe(a.Type, a.Path))
	case OpDeleted:
		return fmt.Sprintf("delete   %s", describe(a.Type, a.Path))
	}
	return fmt.Sprintf("modify   %s", describe(a.Type, a.Path))
}

func describe(typ, p string) string {
	switch typ {
	case TypeDir:
		return p + "/"
	case TypeSymlink:
		return p + " (symlink)"
	}
	return p
}

// Report is what Apply did or would do.
type Report struct {
	Actions   []Action
	Conflicts []Conflict
}

// ErrConflicts is returned (wrapped) when any entry conflicts; nothing is
// changed then.
var ErrConflicts = errors.New("the directory no longer matches the change set's base")

// Apply carries the set onto the host directory dir. Every entry is
// checked first: a file to modify, rename, re-mode or delete must still
// have the content (sha256) and kind it had, a path to add must be free,
// and no parent may be a symlink. With any conflict nothing is changed and
// the error wraps ErrConflicts. With dryRun nothing is changed either; the
// report lists what would be done. All access goes through os.Root, so no
// entry reaches outside dir.
func Apply(dir string, s *Set, dryRun bool) (*Report, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	a := &applier{root: root, set: s, deleted: map[string]bool{}, addedDir: map[string]bool{}}
	for _, e := range s.Entries {
		switch {
		case e.Op == OpDeleted:
			a.deleted[e.Path] = true
		case e.Op == OpRenamed:
			a.deleted[e.OldPath] = true
		case e.Op == OpAdded && e.Type == TypeDir:
			a.addedDir[e.Path] = true
		}
	}
	rep := &Report{}
	for i := range s.Entries {
		e := &s.Entries[i]
		if reason := a.check(e); reason != "" {
			rep.Conflicts = append(rep.Conflicts, Conflict{Path: e.Path, Reason: reason})
		}
		rep.Actions = append(rep.Actions, Action{Op: e.Op, Type: e.Type, Path: e.Path, OldPath: e.OldPath, OldMode: e.OldMode, NewMode: e.NewMode})
	}
	if len(rep.Conflicts) > 0 {
		n := fmt.Sprintf("%d conflicts", len(rep.Conflicts))
		if len(rep.Conflicts) == 1 {
			n = "1 conflict"
		}
		return rep, fmt.Errorf("%s: nothing was changed: %w", n, ErrConflicts)
	}
	if dryRun {
		return rep, nil
	}
	return rep, a.apply()
}

type applier struct {
	root     *os.Root
	set      *Set
	deleted  map[string]bool // paths the set removes (renamed-from included)
	addedDir map[string]bool
}

// lstat looks p up, refusing a symlink or non-directory on the way.
func (a *applier) lstat(p string) (fs.FileInfo, string) {
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		fi, err := a.root.Lstat(dir)
		if err != nil {
			if a.addedDir[dir] {
				return nil, ""
			}
			if os.IsNotExist(err) {
				return nil, "parent directory " + dir + " does not exist"
			}
			return nil, err.Error()
		}
		if !fi.IsDir() {
			if a.deleted[dir] && a.addedDir[dir] {
				return nil, "" // replaced by a directory in this set
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				return nil, "parent " + dir + " is a symlink"
			}
			return nil, "parent " + dir + " is not a directory"
		}
	}
	fi, err := a.root.Lstat(p)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, ""
		}
		return nil, err.Error()
	}
	return fi, ""
}

// current reads what p holds now: a file's bytes or a symlink's target.
func (a *applier) current(p string, fi fs.FileInfo) ([]byte, error) {
	if fi.Mode()&fs.ModeSymlink != 0 {
		t, err := a.root.Readlink(p)
		return []byte(t), err
	}
	f, err := a.root.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// matchesBase checks that p holds the kind and content the entry was made
// against; it returns the conflict's reason, or "".
func (a *applier) matchesBase(p, typ, oldSHA string) string {
	fi, reason := a.lstat(p)
	if reason != "" {
		return reason
	}
	if fi == nil {
		return "no longer exists"
	}
	if got := typeOf(fi.Mode()); got != typ {
		return fmt.Sprintf("is now a %s, was a %s", got, typ)
	}
	if typ == TypeDir {
		return ""
	}
	data, err := a.current(p, fi)
	if err != nil {
		return err.Error()
	}
	if got := sum(data); got != oldSHA {
		return fmt.Sprintf("changed since the change set was made (sha256 %s, expected %s)", short(got), short(oldSHA))
	}
	return ""
}

func short(h string) string { return h[:min(12, len(h))] }

func (a *applier) check(e *Entry) string {
	switch e.Op {
	case OpDeleted:
		if r := a.matchesBase(e.Path, e.Type, e.OldSHA256); r != "" {
			return r
		}
		if e.Type == TypeDir {
			entries, err := a.readDir(e.Path)
			if err != nil {
				return err.Error()
			}
			for _, name := range entries {
				if !a.deleted[e.Path+"/"+name] {
					return "directory holds " + e.Path + "/" + name + ", which the change set does not delete"
				}
			}
		}
		return ""
	case OpModified, OpMode:
		return a.matchesBase(e.Path, e.Type, e.OldSHA256)
	case OpRenamed:
		if r := a.matchesBase(e.OldPath, e.Type, e.OldSHA256); r != "" {
			return "renamed from " + e.OldPath + ", which " + r
		}
	}
	// Added, or the target of a rename: the path must be free.
	fi, reason := a.lstat(e.Path)
	if reason != "" {
		return reason
	}
	if fi != nil && !a.deleted[e.Path] {
		if e.Type == TypeDir && fi.IsDir() {
			return "" // a directory that is already there is fine
		}
		return "already exists"
	}
	return ""
}

func (a *applier) readDir(p string) ([]string, error) {
	f, err := a.root.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// apply makes the changes: removals (deepest first, as the set is
// ordered), then additions in path order, then modes, deepest first, so
// that a directory made read-only does not stop what goes into it.
func (a *applier) apply() error {
	type chmod struct {
		path string
		mode fs.FileMode
	}
	var chmods []chmod
	// Rename sources go first: a directory the set deletes may hold one.
	for _, op := range []Op{OpRenamed, OpDeleted} {
		for i := range a.set.Entries {
			e := &a.set.Entries[i]
			if e.Op != op {
				continue
			}
			p := e.Path
			if op == OpRenamed {
				p = e.OldPath
			}
			if err := a.root.Remove(p); err != nil {
				return err
			}
		}
	}
	for i := range a.set.Entries {
		e := &a.set.Entries[i]
		if e.Op == OpDeleted {
			continue
		}
		mode, _ := parseMode(e.NewMode)
		mode &^= fs.ModeSetuid | fs.ModeSetgid // see safeMode
		switch {
		case e.Type == TypeDir:
			if e.Op == OpAdded {
				if err := a.root.Mkdir(e.Path, 0o700); err != nil && !os.IsExist(err) {
					return err
				}
			}
			chmods = append(chmods, chmod{e.Path, mode})
		case e.Op == OpMode:
			chmods = append(chmods, chmod{e.Path, mode})
		case e.Type == TypeSymlink:
			if e.Op == OpModified {
				if err := a.root.Remove(e.Path); err != nil {
					return err
				}
			}
			if err := a.root.Symlink(string(e.new), e.Path); err != nil {
				return err
			}
		default:
			if err := a.writeFile(e.Path, e.new, mode); err != nil {
				return err
			}
		}
	}
	sort.SliceStable(chmods, func(i, j int) bool { return chmods[i].path > chmods[j].path })
	for _, c := range chmods {
		if err := a.root.Chmod(c.path, c.mode); err != nil {
			return err
		}
	}
	return nil
}

// The set-user-ID and set-group-ID bits are never applied: a change set is
// the script's output, and an operator applying it as root would otherwise
// install a setuid program the script chose. (The tar members drop them
// too; the manifest and the JSON list still report them.)

// writeFile replaces p atomically: a temporary file beside it, renamed
// over it once complete.
func (a *applier) writeFile(p string, data []byte, mode fs.FileMode) error {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := path.Join(path.Dir(p), ".bashbox-apply-"+hex.EncodeToString(rnd[:]))
	f, err := a.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = a.root.Chmod(tmp, mode)
	}
	if err == nil {
		err = a.root.Rename(tmp, p)
	}
	if err != nil {
		a.root.Remove(tmp)
	}
	return err
}
