//go:build !linux

package hostsandbox

import "errors"

func landlockABI() int { return 0 }

func applyLandlock(landlockRules) error {
	return errors.New("Landlock exists only on Linux")
}
