package printf

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzPrintf checks that no arguments make printf panic or hang.
func FuzzPrintf(f *testing.F) {
	for _, s := range []string{"%s|%5.2f|%-*d 3 abc 1.5", "%b \\0101\\c", "%q a", "%a %e 1e300 -0", "%*.*f 5 2 3.14159", "%.99999d 1", "%.3a 0x1.fffffffffffffffep0"} {
		f.Add(s)
	}
	fsys := (&cmdtest.Env{}).NewFS()
	f.Fuzz(func(t *testing.T, s string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		var out, errb bytes.Buffer
		args := append([]string{"printf"}, strings.Split(s, " ")...)
		c := &builtins.Call{Args: args, Stdin: strings.NewReader(s), Stdout: &out, Stderr: &errb, FS: fsys, Dir: "/work", Env: []string{"LC_ALL=C.UTF-8"}}
		Run(ctx, c)
	})
}
