//go:build !bashbox_front

package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/bashbox/bashbox"
	"github.com/bashbox/bashbox/config"
)

// config turns the flags into a box configuration.
func (f *sandboxFlags) config() (bashbox.Config, error) {
	cfg, err := f.baseConfig()
	if err != nil {
		return cfg, err
	}
	for _, s := range []struct {
		flag, val string
		dst       *int64
	}{
		{"--max-output", f.maxOutput, &cfg.Limits.MaxOutputBytes},
		{"--max-memory", f.maxMemory, &cfg.Limits.MaxMemoryBytes},
		{"--max-overlay-bytes", f.maxOvlBytes, &cfg.Limits.MaxOverlayBytes},
		{"--max-write-bytes", f.maxWrBytes, &cfg.Limits.MaxWriteBytes},
	} {
		if s.val == "" {
			continue
		}
		n, err := parseSize(s.val)
		if err != nil {
			return cfg, fmt.Errorf("%s: %v", s.flag, err)
		}
		*s.dst = n
	}
	for _, kv := range f.env {
		if name, _, ok := strings.Cut(kv, "="); !ok || name == "" {
			return cfg, fmt.Errorf("--env %q: want NAME=VALUE", kv)
		}
	}
	cfg.Env = f.env
	fb, err := fallbackConfig(f.fallback, f.fallbackNet, f.fallbackEnv)
	if err != nil {
		return cfg, err
	}
	cfg.Fallback = fb
	return cfg, nil
}

// parseSize reads 1024, 10k, 10KiB, 5M, 5MB, 1GiB (config's syntax).
func parseSize(s string) (int64, error) { return config.ParseSize(s) }

// runHeadroom is what bashbox run lets the process hold beyond the
// call's memory budget before the garbage collector works harder.
const runHeadroom = 32 << 20

func runCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs, rf := newRunFlags(stderr)
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	return runParsed(cliContext, fs, rf, stdin, stdout, stderr)
}

// runParsed runs what run's parsed flags ask for, under the context
// within gives for the run's budgets: the whole process's (cliContext) or
// one the daemon's launcher controls.
func runParsed(within func(bashbox.Limits) (context.Context, func()), fs *pflag.FlagSet, rf *runFlags, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, err := rf.sandbox.config()
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	changes, err := rf.changes.request(*rf.asJSON)
	if err != nil {
		fmt.Fprintf(stderr, "bashbox: %v\n", err)
		return 2
	}
	req, fromStdin, err := readScript(fs, rf, stdin)
	if err != nil {
		if fromStdin {
			fmt.Fprintf(stderr, "bashbox: reading the script from stdin: %s\n", errText(err))
			return exitUsage
		}
		return usageError(stderr, fs, "%v", err)
	}
	req.Changes = changes
	box, err := bashbox.New(cfg)
	if err != nil {
		return usageError(stderr, fs, "%v", err)
	}
	defer box.Close()
	ctx, release := within(cfg.Limits)
	defer release()
	return runBox(ctx, fs, box, req, rf, stdout, stderr)
}
