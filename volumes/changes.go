package volumes

import (
	"fmt"
	"path"

	"github.com/bashbox/bashbox/overlayfs"
)

// ChangesVolume resolves the volume a change set is asked of: guest, or
// with guest empty the first volume. Only a read-only volume has one: its
// writes stay in the overlay instead of reaching the host.
func (t *Table) ChangesVolume(guest string) (string, error) {
	if guest == "" && len(t.vols) > 0 {
		guest = t.vols[0].GuestPath
	}
	guest = path.Clean(guest)
	for _, v := range t.vols {
		if v.GuestPath == guest {
			if v.Mode != ReadOnly {
				return "", fmt.Errorf("volume %s is %s: changes are reported for read-only volumes only", guest, v.Mode)
			}
			return guest, nil
		}
	}
	return "", fmt.Errorf("no volume is bound at %s", guest)
}

// Overlay returns the copy-on-write overlay of the read-only volume bound
// at guest (see Table.ChangesVolume): the layer whose records a change set
// is computed from.
func (ns *Namespace) Overlay(guest string) (*overlayfs.Overlay, error) {
	for _, m := range ns.mounts {
		if m.vol == nil || m.guest != guest {
			continue
		}
		if o, ok := m.layer.(*overlayfs.Overlay); ok {
			return o, nil
		}
		return nil, fmt.Errorf("volume %s is %s: changes are reported for read-only volumes only", guest, m.vol.Mode)
	}
	return nil, fmt.Errorf("no volume is bound at %s", guest)
}
