//go:build unix

package overlayfs

import "syscall"

const oNoFollow = syscall.O_NOFOLLOW

// oNonBlock makes opening a FIFO or device return at once (see
// refuseSpecial); oDirectory makes a listing fail on anything else.
const (
	oNonBlock  = syscall.O_NONBLOCK
	oDirectory = syscall.O_DIRECTORY
)
