package main

import (
	"github.com/bashbox/bashbox/interp"
)

// fallbackConfig builds the fallback hook for the named host commands.
func fallbackConfig(names, env []string) (interp.Fallback, error) {
	if len(names) == 0 {
		return nil, nil
	}
	return nil, errFallbackUnavailable
}

var errFallbackUnavailable = fallbackError("fallback commands are not available in this build")

type fallbackError string

func (e fallbackError) Error() string { return string(e) }
