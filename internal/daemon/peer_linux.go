package daemon

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// checkPeer admits only a process of this daemon's user and group that
// sees the same mounts: the daemon resolves the launcher's paths in its
// own mount namespace, so a launcher in a container sharing the socket
// would otherwise get the daemon's files under its paths.
func checkPeer(c *net.UnixConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if int(cred.Uid) != os.Geteuid() || int(cred.Gid) != os.Getegid() {
		return fmt.Errorf("peer uid %d gid %d is not this daemon's %d/%d", cred.Uid, cred.Gid, os.Geteuid(), os.Getegid())
	}
	mine, err := ownMountNS()
	if err != nil {
		return err
	}
	theirs, err := os.Readlink("/proc/" + strconv.Itoa(int(cred.Pid)) + "/ns/mnt")
	if err != nil {
		return fmt.Errorf("peer pid %d: %v", cred.Pid, err)
	}
	if theirs != mine {
		return fmt.Errorf("peer pid %d is in another mount namespace", cred.Pid)
	}
	return nil
}

// ownMountNS is this process's mount namespace, read once: a process
// cannot change it once it has threads, and a Go program always has.
var ownMountNS = sync.OnceValues(func() (string, error) { return os.Readlink("/proc/self/ns/mnt") })
