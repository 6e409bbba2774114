//go:build !linux && !darwin

package hostsandbox

import "errors"

// applyRlimits: Windows limits come from the AppContainer job object; other
// systems are not supported targets.
func applyRlimits(memBytes, cpuSecs, fileBytes uint64) error {
	if memBytes > 0 || cpuSecs > 0 || fileBytes > 0 {
		return errors.New("resource limits via setrlimit are supported on Linux and macOS only")
	}
	return nil
}
