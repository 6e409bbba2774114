//go:build linux

package hostsandbox

import (
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// landlockABI returns the kernel's Landlock ABI version, 0 when Landlock is
// missing or disabled.
func landlockABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// applyLandlock restricts this process (all its threads) to the rules; it
// degrades to what the running kernel supports (best effort), as a missing
// layer must not make every command fail on older kernels.
func applyLandlock(r landlockRules) error {
	var rules []landlock.Rule
	// Directory rights cannot be granted on a file, so files get the file
	// subset; paths missing here are skipped (nothing to grant).
	for _, p := range r.Read {
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				rules = append(rules, landlock.RODirs(p))
			} else {
				rules = append(rules, landlock.ROFiles(p))
			}
		}
	}
	if len(r.ListOnly) > 0 {
		rules = append(rules, landlock.PathAccess(llsys.AccessFSReadDir, r.ListOnly...))
	}
	for _, p := range r.Write {
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				rules = append(rules, landlock.RWDirs(p).WithIoctlDev().WithRefer())
			} else {
				rules = append(rules, landlock.RWFiles(p).WithIoctlDev())
			}
		}
	}
	cfg := landlock.V11.BestEffort()
	if r.DenyTCP {
		// No port rules: every TCP bind and connect is denied, plus the
		// scoped IPC restrictions (abstract sockets, signals).
		return cfg.Restrict(rules...)
	}
	if err := cfg.RestrictPaths(rules...); err != nil {
		return err
	}
	return cfg.RestrictScoped()
}
