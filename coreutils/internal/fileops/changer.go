package fileops

import (
	"context"
	"io/fs"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
)

// Changer is what chmod, chown and chgrp share: their common options and
// the run over the operands, recursive or not, with GNU's messages for a
// file that cannot be reached.
type Changer struct {
	Ctx context.Context
	C   *builtins.Call
	Q   quote.Quoter

	Changes, Quiet, Verbose, Recursive, PreserveRoot bool
	Reference                                        string
	HasRef                                           bool

	Failed bool
}

// ChangerOptions returns the options the three commands share followed
// by extra (a new slice each time).
func ChangerOptions(extra ...builtins.Option) []builtins.Option {
	return append([]builtins.Option{
		{Short: 'c', Long: "changes"},
		{Short: 'f', Long: "silent"},
		{Long: "quiet"},
		{Short: 'v', Long: "verbose"},
		{Long: "no-preserve-root"},
		{Long: "preserve-root"},
		{Long: "reference", Arg: builtins.RequiredArg},
		{Short: 'R', Long: "recursive"},
	}, extra...)
}

// Option takes one of ChangerOptions(); false means o is another option.
func (ch *Changer) Option(o builtins.Opt) bool {
	switch o.Key {
	case "changes":
		ch.Changes = true
	case "silent", "quiet":
		ch.Quiet = true
	case "verbose":
		ch.Verbose = true
	case "no-preserve-root":
		ch.PreserveRoot = false
	case "preserve-root":
		ch.PreserveRoot = true
	case "reference":
		ch.Reference, ch.HasRef = o.Value, true
	case "recursive":
		ch.Recursive = true
	default:
		return false
	}
	return true
}

// Errorf reports a failure with a file (silent with -f) and marks the run
// failed.
func (ch *Changer) Errorf(format string, a ...any) {
	if !ch.Quiet {
		ch.C.Errorf(format, a...)
	}
	ch.Failed = true
}

// Run visits each operand: stat finds it, apply changes it, and with -R
// visit is called for each file below a directory (true to descend). It
// returns the exit status.
func (ch *Changer) Run(operands []string, stat func(string) (fs.FileInfo, error), apply func(string, fs.FileInfo), visit func(string, fs.FileInfo) bool) int {
	for _, name := range operands {
		if ch.Ctx.Err() != nil {
			return 130
		}
		fi, err := stat(name)
		if err != nil {
			ch.Errorf("cannot access %s: %s", ch.Q.AF(name), builtins.ErrText(err))
			continue
		}
		if ch.Recursive && ch.PreserveRoot && RefuseRoot(ch.C, ch.Q, name) {
			ch.Failed = true
			continue
		}
		apply(name, fi)
		if ch.Recursive && fi.IsDir() {
			WalkTree(ch.Ctx, ch.C, name, visit, func(dir string, err error) {
				ch.Errorf("cannot read directory %s: %s", ch.Q.AF(dir), builtins.ErrText(err))
			})
		}
	}
	if ch.Failed {
		return 1
	}
	return 0
}
