//go:build !bashbox_front

package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/pflag"
)

// versionCommand prints the module version, the commit and the Go version
// the binary was built with, from the build information Go stamps into it.
func versionCommand(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("bashbox version", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashbox version\n\nPrints the module version, the commit and the Go version of this binary.\n")
	}
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, fs, "unexpected argument %q", fs.Arg(0))
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionText(info))
	return 0
}

// versionText is "bashbox VERSION (commit REV[, modified], DATE) GOVERSION".
// A binary built by `go install ...@vX` has the module version; one built
// in a checkout has a pseudo-version or "(devel)" and the VCS stamp.
func versionText(info *debug.BuildInfo) string {
	if info == nil {
		return "bashbox (unknown version: built without module information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	commit := "commit unknown"
	if rev != "" {
		commit = "commit " + rev[:min(12, len(rev))]
		if modified {
			commit += ", modified"
		}
		if when != "" {
			commit += ", " + when
		}
	}
	return fmt.Sprintf("bashbox %s (%s) %s", version, commit, info.GoVersion)
}
