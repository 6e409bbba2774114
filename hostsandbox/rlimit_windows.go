//go:build windows

package hostsandbox

import "errors"

// applyRlimits: Windows limits come from the AppContainer job object.
func applyRlimits(memBytes, cpuSecs uint64) error {
	if memBytes > 0 || cpuSecs > 0 {
		return errors.New("resource limits are set by the job object on Windows")
	}
	return nil
}
