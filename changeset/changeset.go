// Package changeset turns what a script wrote over a read-only volume into
// a change set an operator can review and apply: a git-style diff, a tar of
// the changed files with a manifest, or a JSON list. The set is computed
// from the copy-on-write overlay's own records (see overlayfs.Changes), so
// its cost grows with what changed, not with the volume's size. Apply
// carries a tar or JSON change set onto a host directory, checking that each
// file it touches is still what the set was made from.
package changeset

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/overlayfs"
)

// Op is what happened to a path.
type Op string

const (
	OpAdded    Op = "added"
	OpModified Op = "modified" // content changed (the mode may have too)
	OpDeleted  Op = "deleted"
	OpRenamed  Op = "renamed" // moved from OldPath (content and mode may have changed too)
	OpMode     Op = "mode"    // only the mode changed
)

// Entry types.
const (
	TypeFile    = "file"
	TypeSymlink = "symlink"
	TypeDir     = "dir"
)

// Entry is one change: the JSON format's list element and the tar
// manifest's. Modes are octal with the file type, as git writes them
// ("100644", "100755", "120000", "40755"). SHA256 is of the content now
// (a symlink's content is its target), OldSHA256 of the content the change
// was made against: Apply refuses a file whose content no longer has it.
type Entry struct {
	Path      string `json:"path"`
	Op        Op     `json:"op"`
	Type      string `json:"type"`
	OldPath   string `json:"old_path,omitempty"`
	OldMode   string `json:"old_mode,omitempty"`
	NewMode   string `json:"new_mode,omitempty"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256,omitempty"`
	OldSHA256 string `json:"old_sha256,omitempty"`
	// Target is a symlink's target now.
	Target string `json:"target,omitempty"`
	// Data is the file's content now, in the JSON format only (the tar
	// format carries it as the member's data).
	Data []byte `json:"data,omitempty"`

	old, new []byte // content before and after (symlinks: targets)
	hasNew   bool
	mtime    time.Time // the entry's now, for tar members
}

// Set is a change set: entries in apply order (see sortEntries).
type Set struct {
	Entries []Entry
}

// New reports whether the entry's content now is needed to apply it.
func (e *Entry) needsContent() bool {
	return e.Type != TypeDir && (e.Op == OpAdded || e.Op == OpModified || e.Op == OpRenamed)
}

// modeString renders a mode git's way: type bits then permissions, octal.
func modeString(m fs.FileMode) string {
	var t uint32
	switch {
	case m.IsDir():
		t = 0o40000
	case m&fs.ModeSymlink != 0:
		return "120000"
	default:
		t = 0o100000
	}
	perm := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		perm |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		perm |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		perm |= 0o1000
	}
	return strconv.FormatUint(uint64(t|perm), 8)
}

// parseMode reads modeString's form back into the permission bits.
func parseMode(s string) (fs.FileMode, error) {
	n, err := strconv.ParseUint(s, 8, 32)
	if err != nil {
		return 0, fmt.Errorf("invalid mode %q", s)
	}
	m := fs.FileMode(n & 0o777)
	if n&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if n&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if n&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m, nil
}

func typeOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return TypeDir
	case m&fs.ModeSymlink != 0:
		return TypeSymlink
	}
	return TypeFile
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// FromOverlay computes the change set of an overlay relative to its base.
func FromOverlay(o *overlayfs.Overlay) (*Set, error) {
	changes, err := o.Changes()
	if err != nil {
		return nil, err
	}
	base, _ := o.Base()
	set := &Set{}
	for _, c := range changes {
		var info fs.FileInfo = c.New
		if info == nil {
			info = c.Old
		}
		e := Entry{Path: relPath(c.Path), Type: typeOf(info.Mode())}
		if c.Old != nil {
			e.OldMode = modeString(c.Old.Mode())
			if e.Type != TypeDir {
				from := c.Path
				if c.Op == overlayfs.Renamed {
					from = c.OldPath
				}
				if e.old, err = content(base, from, c.Old); err != nil {
					return nil, err
				}
				e.OldSHA256 = sum(e.old)
			}
		}
		if c.New != nil {
			e.NewMode = modeString(c.New.Mode())
			e.mtime = c.New.ModTime()
			if e.Type != TypeDir {
				if e.new, err = content(o, c.Path, c.New); err != nil {
					return nil, err
				}
				e.hasNew = true
				e.SHA256 = sum(e.new)
				e.Size = int64(len(e.new))
				if e.Type == TypeSymlink {
					e.Target = string(e.new)
				}
			}
		}
		switch c.Op {
		case overlayfs.Added:
			e.Op = OpAdded
		case overlayfs.Deleted:
			e.Op = OpDeleted
		case overlayfs.Renamed:
			e.Op, e.OldPath = OpRenamed, relPath(c.OldPath)
		case overlayfs.Changed:
			switch {
			case e.Type != TypeDir && !bytes.Equal(e.old, e.new):
				e.Op = OpModified
			case e.OldMode != e.NewMode && e.Type != TypeSymlink:
				e.Op = OpMode
			default:
				continue // copied up, but ended up as it was
			}
		}
		set.Entries = append(set.Entries, e)
	}
	sortEntries(set.Entries)
	return set, nil
}

// relPath turns a layer path into the set's form: relative, with "." for
// the volume's root (whose mode alone can change).
func relPath(p string) string {
	if p == "/" {
		return "."
	}
	return strings.TrimPrefix(p, "/")
}

// content reads a file's bytes or a symlink's target.
func content(fsys overlayfs.Layer, name string, fi fs.FileInfo) ([]byte, error) {
	if fi.Mode()&fs.ModeSymlink != 0 {
		t, err := fsys.ReadlinkIfPossible(name)
		return []byte(t), err
	}
	if fi.Mode()&fs.ModeNamedPipe != 0 {
		return nil, nil // a FIFO holds no content, and is never opened here
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// sortEntries puts a set in apply order: deletions first, deepest first
// (a directory after what it held), then everything else by path (a
// directory before what it holds). A path whose kind changed is deleted
// before it is added again, and a file that replaces a directory comes
// after the directory's contents are gone, so a tool that applies the
// entries one by one never meets an entry in its way.
func sortEntries(es []Entry) {
	sort.SliceStable(es, func(i, j int) bool {
		di, dj := es[i].Op == OpDeleted, es[j].Op == OpDeleted
		if di != dj {
			return di
		}
		if di {
			return es[i].Path > es[j].Path
		}
		return es[i].Path < es[j].Path
	})
}
