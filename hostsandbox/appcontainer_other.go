//go:build !windows

package hostsandbox

import "errors"

func newAppContainer() (Backend, error) {
	return nil, errors.New("AppContainer exists only on Windows")
}
