//go:build !unix

package overlayfs

import (
	"io/fs"
	"os"
)

// listTypes lists the open directory d (stating each entry: there is no
// d_type to read here).
func listTypes(d *os.File) ([]fs.DirEntry, error) { return d.ReadDir(-1) }
