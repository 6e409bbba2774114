package bashbox_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bashbox/bashbox"
)

// TestEveryCommandAnswersHelpAndVersion: each registered command prints
// help and version text with status 0, and refuses an unknown long option
// GNU-style, with a message naming it.
func TestEveryCommandAnswersHelpAndVersion(t *testing.T) {
	b := newBox(t, bashbox.Config{})
	// Shell builtins in bash (which the script's name reaches first) treat
	// --help as an operand; xxd, zip and unzip are not GNU tools and answer
	// in their own ways. Debian's which (a shell script) answers every
	// option but -a with its usage and status 2, as the sandbox's does
	// (conformance cases cover it).
	shellBuiltin := map[string]bool{"test": true, "[": true, "true": true, "false": true, "echo": true, "printf": true, "pwd": true, "kill": true, "which": true}
	operandLike := map[string]bool{"expr": true, "xxd": true, "zip": true, "unzip": true}
	// Tools whose real versions have no --help/--version: bzip2's wrapper
	// scripts print their usage with a failure, cal/ncal refuse long
	// options (64), sponge warns and goes on (conformance cases cover
	// them). The gzip and xz wrappers answer both but hand other options
	// to grep, cmp or diff, which then miss their operands.
	noHelp := map[string]bool{"bzgrep": true, "bzegrep": true, "bzfgrep": true, "bzcmp": true, "bzdiff": true, "cal": true, "ncal": true, "sponge": true}
	passesOptionsOn := map[string]bool{"sponge": true}
	for _, w := range []string{"grep", "egrep", "fgrep", "cmp", "diff"} {
		for _, z := range []string{"z", "bz", "xz"} {
			passesOptionsOn[z+w] = true
		}
	}
	for _, name := range b.Commands() {
		if name == "bash" || name == "sh" {
			continue
		}
		name := name
		if shellBuiltin[name] {
			continue
		}
		t.Run(name, func(t *testing.T) {
			for _, flag := range []string{"--help", "--version"} {
				if noHelp[name] {
					break
				}
				res, err := b.Run(context.Background(), bashbox.Request{Script: name + " " + flag + " </dev/null"})
				if err != nil {
					t.Fatal(err)
				}
				if res.ExitCode != 0 || strings.TrimSpace(res.Stdout) == "" {
					t.Errorf("%s %s: exit %d, stdout %q, stderr %q", name, flag, res.ExitCode, res.Stdout, res.Stderr)
				}
			}
			if operandLike[name] || passesOptionsOn[name] {
				return
			}
			res, _ := b.Run(context.Background(), bashbox.Request{Script: name + " --frobnicate-xyz </dev/null"})
			if res.ExitCode == 0 || !strings.Contains(res.Stderr, "frobnicate-xyz") || strings.Contains(res.Stderr, "panic") || strings.Contains(res.Stderr, "internal error") {
				t.Errorf("%s --frobnicate-xyz: exit %d, stderr %q", name, res.ExitCode, res.Stderr)
			}
		})
	}
}
