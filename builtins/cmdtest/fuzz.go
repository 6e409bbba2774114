package cmdtest

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
)

// FuzzTimeout is how long one fuzz run has before its context ends; a
// command that ignores the end shows as a hung fuzzer.
const FuzzTimeout = 200 * time.Millisecond

// FuzzArgs fuzzes run with command lines: each input, split at spaces,
// is the arguments after name, and is standard input too. No input may
// make the command panic; seeds start the corpus.
func FuzzArgs(f *testing.F, name string, run builtins.Command, seeds []string) {
	f.Helper()
	FuzzCall(f, run, seeds, func(s string) []string {
		return append([]string{name}, strings.Split(s, " ")...)
	})
}

// FuzzCall is FuzzArgs with the command line made from the input by args.
func FuzzCall(f *testing.F, run builtins.Command, seeds []string, args func(input string) []string) {
	f.Helper()
	for _, s := range seeds {
		f.Add(s)
	}
	fsys := (&Env{}).NewFS()
	f.Fuzz(func(t *testing.T, s string) {
		ctx, cancel := context.WithTimeout(context.Background(), FuzzTimeout)
		defer cancel()
		var out, errb bytes.Buffer
		c := &builtins.Call{Args: args(s), Stdin: strings.NewReader(s), Stdout: &out, Stderr: &errb,
			FS: fsys, Dir: "/work", Env: []string{"LC_ALL=C.UTF-8"}}
		run(ctx, c)
	})
}
