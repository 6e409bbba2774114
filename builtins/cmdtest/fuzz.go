package cmdtest

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
)

// Fuzz checks that no input makes run panic or outlive a 200 ms deadline's
// cancellation: each input is the command's standard input, and args makes
// its command line from it (SplitArgs for commands fuzzed by their
// arguments). Calls share one in-memory sandbox at /work, in a UTF-8
// locale; what they print is not checked.
func Fuzz(f *testing.F, run builtins.Command, seeds []string, args func(input string) []string) {
	for _, s := range seeds {
		f.Add(s)
	}
	fsys := (&Env{}).NewFS()
	f.Fuzz(func(t *testing.T, s string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		var out, errb bytes.Buffer
		c := &builtins.Call{Args: args(s), Stdin: strings.NewReader(s), Stdout: &out, Stderr: &errb,
			FS: fsys, Dir: "/work", Env: []string{"LC_ALL=C.UTF-8"}}
		run(ctx, c)
	})
}

// SplitArgs is Fuzz's args for a command fuzzed by its arguments: name,
// then the input split at spaces.
func SplitArgs(name string) func(string) []string {
	return func(s string) []string { return append([]string{name}, strings.Split(s, " ")...) }
}
