//go:build !bashbox_front

package main

import (
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/hostsandbox"
	"github.com/bashbox/bashbox/interp"
)

// fallbackConfig resolves the named host commands once, at start; they run
// in the host sandbox BASHBOX_SANDBOX and BASHBOX_ALLOW_NO_SANDBOX select,
// with the network only for the commands in network.
func fallbackConfig(names, network, env []string) (interp.Fallback, error) {
	if len(names) == 0 {
		// Selecting a backend probes bubblewrap (three host processes):
		// a run that names no fallback command must not pay for it.
		return nil, nil
	}
	r, err := fallback.New(fallback.Config{Commands: names, Network: network, Env: env, Backend: hostsandbox.Select(sandboxPolicy())})
	if err != nil || r == nil {
		return nil, err
	}
	return r.Run, nil
}
