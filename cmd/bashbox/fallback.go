package main

import (
	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/interp"
)

// fallbackConfig resolves the named host commands once, at start.
func fallbackConfig(names, env []string) (interp.Fallback, error) {
	r, err := fallback.New(fallback.Config{Commands: names, Env: env})
	if err != nil || r == nil {
		return nil, err
	}
	return r.Run, nil
}
