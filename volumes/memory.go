package volumes

import "github.com/bashbox/bashbox/overlayfs"

// MemoryLayer is one of a namespace's in-memory layers: what a session
// holds beyond its host directories, and so what a saved session carries.
type MemoryLayer struct {
	Guest string // where it is mounted; "/" for the namespace's own root
	// Exactly one is set: Mem for the root and ephemeral volumes, Overlay
	// for a read-only volume (its upper layer and whiteouts over the host).
	Mem     *overlayfs.MemFs
	Overlay *overlayfs.Overlay
}

// MemoryLayers lists the in-memory layers, outermost first. Read-write
// volumes are absent: their files are the host's.
func (ns *Namespace) MemoryLayers() []MemoryLayer {
	var out []MemoryLayer
	for i := len(ns.mounts) - 1; i >= 0; i-- {
		m := ns.mounts[i]
		switch l := m.layer.(type) {
		case *overlayfs.MemFs:
			out = append(out, MemoryLayer{Guest: m.guest, Mem: l})
		case *overlayfs.Overlay:
			out = append(out, MemoryLayer{Guest: m.guest, Overlay: l})
		}
	}
	return out
}
