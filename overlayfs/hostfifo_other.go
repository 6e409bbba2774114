//go:build !unix

package overlayfs

import "io/fs"

func fifoKey(fs.FileInfo) ([2]uint64, bool) { return [2]uint64{}, false }
