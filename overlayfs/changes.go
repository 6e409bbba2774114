package overlayfs

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// ChangeOp is what happened to one path of an overlay relative to its base.
type ChangeOp int

const (
	// Added: the path is new (it was absent from the base, or the base had
	// an entry of another kind there, which is then also Deleted).
	Added ChangeOp = iota + 1
	// Deleted: the base entry at the path is gone.
	Deleted
	// Changed: the base entry and the upper entry are of the same kind
	// (file, symlink or directory); content or mode may differ, or may
	// not (an entry copied up and written back unchanged).
	Changed
	// Renamed: the base entry at OldPath was moved to Path (and may have
	// been changed there). Only files and symlinks; a moved directory
	// shows as the renames of what it holds.
	Renamed
)

// Change is one entry of an overlay's change list. Old describes the base
// entry (nil for Added), New the entry now (nil for Deleted).
type Change struct {
	Op      ChangeOp
	Path    string
	OldPath string // Renamed: the base path it came from
	Old     fs.FileInfo
	New     fs.FileInfo
}

// originOf returns the base path the upper entry at name was renamed
// from: its own record, or its nearest renamed ancestor's plus the rest of
// the path; name itself when nothing on its path was moved.
func (o *Overlay) originOf(name string) string {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return originIn(o.origins, name)
}

func originIn(origins map[string]string, name string) string {
	if len(origins) == 0 {
		return name
	}
	for p := name; ; p = path.Dir(p) {
		if src, ok := origins[p]; ok {
			if p == name {
				return src
			}
			return path.Join(src, name[len(p):])
		}
		if p == "/" {
			return name
		}
	}
}

// moveOrigin records that oldname (whose origin was src) now lives at
// newname; records below a moved directory move with it.
func (o *Overlay) moveOrigin(oldname, newname, src string, isDir bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if isDir && len(o.origins) > 0 {
		for k, v := range o.origins {
			if strings.HasPrefix(k, oldname+"/") {
				delete(o.origins, k)
				o.origins[newname+k[len(oldname):]] = v
			}
		}
	}
	delete(o.origins, oldname)
	if src == newname {
		delete(o.origins, newname)
	} else {
		o.origins[newname] = src
	}
}

// forgetOrigin drops the rename record of a removed entry.
func (o *Overlay) forgetOrigin(name string) {
	o.mu.Lock()
	delete(o.origins, name)
	o.mu.Unlock()
}

// sameKind reports whether two entries are both files, both symlinks or
// both directories.
func sameKind(a, b fs.FileInfo) bool {
	return a.Mode().Type() == b.Mode().Type()
}

// Changes lists how the overlay differs from its base, computed from the
// overlay's own records: the upper layer (what was written, copied up,
// created or moved), the whiteouts (what was removed) and the rename
// records. The base is consulted only at those paths, and listed only
// below whiteouts (to name what a removed directory held), so the cost
// grows with what changed, not with the size of the base.
//
// The list is sorted by path. Changed entries are candidates: the caller
// compares content and mode to drop those that ended up identical.
func (o *Overlay) Changes() ([]Change, error) {
	o.mu.RLock()
	whiteouts := make([]string, 0, len(o.whiteouts))
	for w := range o.whiteouts {
		whiteouts = append(whiteouts, w)
	}
	origins := make(map[string]string, len(o.origins))
	for k, v := range o.origins {
		origins[k] = v
	}
	o.mu.RUnlock()

	var out []Change
	claimed := map[string]bool{} // base paths taken as rename sources
	baseInfo := func(p string) fs.FileInfo {
		fi, _, err := o.base.LstatIfPossible(p)
		if err != nil {
			return nil
		}
		return fi
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := o.upper.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			bi := baseInfo(p)
			if e.IsDir() {
				if bi != nil && bi.IsDir() {
					out = append(out, Change{Op: Changed, Path: p, Old: bi, New: e})
				} else {
					out = append(out, Change{Op: Added, Path: p, New: e})
				}
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			if src := originIn(origins, p); src != p && bi == nil && !claimed[src] {
				// A rename only when its source is gone: an entry
				// still (or again) at the source makes this a copy.
				if si := baseInfo(src); si != nil && sameKind(si, e) {
					if _, _, err := o.LstatIfPossible(src); err != nil {
						claimed[src] = true
						out = append(out, Change{Op: Renamed, Path: p, OldPath: src, Old: si, New: e})
						continue
					}
				}
			}
			if bi != nil && sameKind(bi, e) {
				out = append(out, Change{Op: Changed, Path: p, Old: bi, New: e})
			} else {
				out = append(out, Change{Op: Added, Path: p, New: e})
			}
		}
		return nil
	}
	// The root itself is listed only when its mode changed (chmod of
	// the volume's directory): it is always in the upper layer.
	if ui, _, err := o.upper.LstatIfPossible("/"); err == nil {
		if bi := baseInfo("/"); bi != nil && bi.Mode() != ui.Mode() {
			out = append(out, Change{Op: Changed, Path: "/", Old: bi, New: ui})
		}
	}
	if err := walk("/"); err != nil {
		return nil, err
	}

	// What the whiteouts removed: each base entry below an outermost
	// whiteout that was neither moved away nor replaced by an entry of
	// the same kind (those are listed above).
	sort.Strings(whiteouts)
	var tops []string
	for _, w := range whiteouts {
		if len(tops) > 0 && under(w, tops[len(tops)-1]) {
			continue
		}
		tops = append(tops, w)
	}
	var removed func(p string, bi fs.FileInfo) error
	removed = func(p string, bi fs.FileInfo) error {
		if bi.IsDir() {
			entries, err := ReadDir(o.base, p)
			if err != nil {
				return err
			}
			for _, e := range entries {
				if err := removed(path.Join(p, e.Name()), e); err != nil {
					return err
				}
			}
		}
		if claimed[p] {
			return nil
		}
		if ui, _, err := o.upper.LstatIfPossible(p); err == nil && sameKind(ui, bi) {
			return nil
		}
		out = append(out, Change{Op: Deleted, Path: p, Old: RenamedInfo(bi, path.Base(p))})
		return nil
	}
	for _, w := range tops {
		if bi := baseInfo(w); bi != nil {
			if err := removed(w, bi); err != nil {
				return nil, err
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
