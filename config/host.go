package config

import (
	"io"
	"log/slog"

	"github.com/bashbox/bashbox/fallback"
	"github.com/bashbox/bashbox/hostsandbox"
)

// Host is how host processes are confined: the program that loads the file
// sets it (cmd/bashbox from BASHBOX_SANDBOX, BASHBOX_ALLOW_NO_SANDBOX,
// DOCKER_HOST and BASHBOX_BASH_ALLOW_NETWORK); the zero value is the
// strongest sandbox, failing closed, with no network for the Bash tool.
type Host struct {
	Sandbox     hostsandbox.Policy
	BashNetwork hostsandbox.NetworkMode
	backend     hostsandbox.Backend // chosen once, on first use
}

// Backend returns the host sandbox backend Sandbox selects.
func (f *File) Backend() hostsandbox.Backend {
	if f.Host.backend == nil {
		f.Host.backend = hostsandbox.Select(f.Host.Sandbox)
	}
	return f.Host.backend
}

// fallbackConfig is the fallback runner's configuration for a profile's
// fallback section; log nil means the runner's default (stderr). The
// runner made only to validate the file (log discardLog) does not fix the
// backend, which the program may still set through Host after loading.
func (f *File) fallbackConfig(fb Fallback, log *slog.Logger) fallback.Config {
	cfg := fallback.Config{Commands: fb.Commands, Env: fb.Env, Network: fb.Network, Logger: log}
	if log != discardLog {
		cfg.Backend = f.Backend()
	}
	return cfg
}

// discardLog silences the runner made only to validate a profile.
var discardLog = slog.New(slog.NewTextHandler(io.Discard, nil))
