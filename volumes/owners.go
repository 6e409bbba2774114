package volumes

import (
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"syscall"

	"github.com/bashbox/bashbox/overlayfs"
)

// owners records the ownership chown gives files, for the call (or
// session) the namespace serves. Ownership is the sandbox's own: it is
// never written to the host, whose files keep their owners; the table
// maps physical guest paths to the owner and group they were given, and
// follows renames and removals.
type owners struct {
	mu sync.RWMutex
	m  map[string][2]int
}

// Owner reports the owner and group chown recorded for name (not
// following a final symlink), if any.
func (ns *Namespace) Owner(name string) (uid, gid int, ok bool) {
	ns.owners.mu.RLock()
	empty := len(ns.owners.m) == 0
	ns.owners.mu.RUnlock()
	if empty {
		return 0, 0, false
	}
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, false)
	if err != nil {
		return 0, 0, false
	}
	ns.owners.mu.RLock()
	defer ns.owners.mu.RUnlock()
	o, found := ns.owners.m[p]
	return o[0], o[1], found
}

// Chown records a file's owner and group (-1 keeps one as it is),
// following a final symlink.
func (ns *Namespace) Chown(name string, uid, gid int) error {
	return ns.chown("chown", name, uid, gid, true)
}

// Lchown is Chown on a symlink itself.
func (ns *Namespace) Lchown(name string, uid, gid int) error {
	return ns.chown("lchown", name, uid, gid, false)
}

func (ns *Namespace) chown(op, name string, uid, gid int, follow bool) error {
	p, err := overlayfs.ResolveIn(rawNS{ns}, name, follow)
	if err == nil {
		_, err = ns.lstatRaw(p)
	}
	if err == nil {
		if _, synth := ns.synthetic(p); synth || p == "/" || p == "/usr" {
			err = syscall.EPERM
		}
	}
	if err != nil {
		return pathErr(op, name, err)
	}
	cur := [2]int{-1, -1}
	ns.owners.mu.Lock()
	defer ns.owners.mu.Unlock()
	if ns.owners.m == nil {
		ns.owners.m = map[string][2]int{}
	}
	if o, found := ns.owners.m[p]; found {
		cur = o
	}
	if uid >= 0 {
		cur[0] = uid
	}
	if gid >= 0 {
		cur[1] = gid
	}
	ns.owners.m[p] = cur
	return nil
}

// forgetOwner drops what was recorded for p and below (a removal).
func (ns *Namespace) forgetOwner(p string) {
	ns.owners.mu.Lock()
	defer ns.owners.mu.Unlock()
	for k := range ns.owners.m {
		if k == p || strings.HasPrefix(k, p+"/") {
			delete(ns.owners.m, k)
		}
	}
}

// moveOwner carries what was recorded for op and below to np (a rename).
func (ns *Namespace) moveOwner(op, np string) {
	if op == np {
		return
	}
	ns.owners.mu.Lock()
	defer ns.owners.mu.Unlock()
	for k := range ns.owners.m {
		if k == np || strings.HasPrefix(k, np+"/") {
			delete(ns.owners.m, k)
		}
	}
	for k, v := range ns.owners.m {
		if k == op || strings.HasPrefix(k, op+"/") {
			delete(ns.owners.m, k)
			ns.owners.m[np+k[len(op):]] = v
		}
	}
}

// Link makes newname a hard link to oldname (a symlink is linked itself,
// not followed), within one volume: across volumes it fails with EXDEV,
// as across filesystems.
func (ns *Namespace) Link(oldname, newname string) error {
	op, err := overlayfs.ResolveIn(rawNS{ns}, oldname, false)
	var np string
	if err == nil {
		np, err = overlayfs.ResolveIn(rawNS{ns}, newname, false)
	}
	if err == nil {
		var ofi fs.FileInfo
		ofi, err = ns.lstatRaw(op)
		switch {
		case err != nil:
		case ofi.IsDir():
			err = syscall.EPERM
		case ns.isMountPoint(np):
			err = syscall.EEXIST
		}
	}
	if err == nil {
		if _, lerr := ns.lstatRaw(np); lerr == nil {
			err = syscall.EEXIST
		} else if _, derr := ns.lstatRaw(path.Dir(np)); derr != nil {
			err = derr
		} else if ns.writableRaw(np) != nil {
			err = syscall.EACCES
		}
	}
	if err == nil {
		om, orel := ns.find(op)
		nm, nrel := ns.find(np)
		switch l, ok := om.layer.(overlayfs.Linker); {
		case om != nm:
			err = syscall.EXDEV
		case !ok:
			err = syscall.EPERM
		default:
			err = underlying(l.Link(orel, nrel))
		}
	}
	if err != nil {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: err}
	}
	return nil
}
