// Package interp is bashbox's shell engine: it executes the syntax trees
// of mvdan.cc/sh/v3/syntax (bash dialect) itself, inside the sandbox. Files
// are reached through the guest namespace, commands through the registry,
// and every budget is enforced where the work happens (see THREAT_MODEL.md).
package interp

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/interp/arith"
	"github.com/bashbox/bashbox/volumes"
)

// Fallback runs an operator-named host command. handled is false when name
// is not a fallback command.
type Fallback func(ctx context.Context, c *builtins.Call) (status int, handled bool)

// Shell is one call's interpreter setup: the filesystem, the commands and
// the budget. Nested shells (bash -c, sh script.sh, ./script.sh) share it.
type Shell struct {
	Registry *builtins.Registry
	FS       *volumes.Namespace
	Budget   *Budget
	Fallback Fallback // may be nil
	// Workers is handed to every command as builtins.Call.Workers: how
	// many goroutines one command may search with (0: its own pick).
	Workers int

	braceMu    sync.Mutex
	braceCache map[*syntax.Word][]*syntax.Word
	arithMu    sync.Mutex
	arithTexts map[syntax.ArithmExpr]*arith.Expr // nil: the expression has expansions
	arithBytes int                               // text compiled in arithTexts
	arithCache arith.Cache                       // compiled expressions by text
}

// Invocation describes one script run.
type Invocation struct {
	Script string
	// Name is $0 and the prefix of error messages ("bash").
	Name   string
	Params []string
	// Opts are shell options such as "-e" or "-o", "pipefail".
	Opts []string
	// Source names where the script came from in errors: "-c" for inline
	// scripts, else the script's path.
	Source string
	Env    []string
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// umask, when set, is the parent's (a nested bash or script inherits
	// it, as a child process does); else the shell starts with 022.
	umask *fs.FileMode
}

// Run parses and runs a script, returning its exit status.
func (sh *Shell) Run(ctx context.Context, inv Invocation) int {
	return sh.runNative(ctx, inv)
}

func (sh *Shell) readFile(p string) ([]byte, error) {
	f, err := sh.FS.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: p, Err: errIsDir}
	}
	return io.ReadAll(f)
}

var errIsDir = errors.New("is a directory")
