//go:build unix

package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// SocketEnv names the variable that points the launcher and the daemon at
// another socket than DefaultSocket's.
const SocketEnv = "BASHBOX_SOCKET"

// DefaultSocket is where the launcher looks for the daemon: $BASHBOX_SOCKET
// when set, else /tmp/bashbox-UID/daemon.sock. One rule with no other
// variable in it, so that an agent runtime that starts the launcher with a
// bare environment finds the daemon its operator started.
func DefaultSocket(getenv func(string) string) string {
	if p := getenv(SocketEnv); p != "" {
		return p
	}
	return filepath.Join("/tmp", "bashbox-"+strconv.Itoa(os.Geteuid()), "daemon.sock")
}

// Listen makes the socket at path, mode 0600, in a directory only this
// user may enter: created with mode 0700 when missing, refused when it is
// a symlink, another user's, or open to the group or others, since the
// launcher hands its descriptors to whatever listens there. A socket file
// left by a daemon that is gone is replaced; one a daemon answers on is
// an error.
func Listen(path string) (*net.UnixListener, error) {
	dir := filepath.Dir(path)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	if err := CheckDir(dir); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("%s: a daemon already listens there", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, err
		}
	}
	old := syscall.Umask(0o177)
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	syscall.Umask(old)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// CheckDir refuses a socket directory that another user could put a
// socket into or swap: it must be a real directory, owned by this user,
// with no access for group or others.
func CheckDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s: not a directory", dir)
	case !ok || int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%s: not owned by this user", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s: mode %04o lets others in (want 0700)", dir, fi.Mode().Perm())
	}
	return nil
}
