//go:build !unix

package overlayfs

// oNoFollow: os.Root still refuses links that leave the root.
const oNoFollow = 0

const (
	oNonBlock  = 0
	oDirectory = 0
)
