package bc

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzBC checks that no program makes bc panic or hang.
func FuzzBC(f *testing.F) {
	for _, s := range []string{
		"1+2\n", "define f(x) { return x*2 }\nf(3)\n", "{ ) }\n5\n", "a[1]=2; a[1]++\n",
		"obase=16; ibase=2; 101.1\n", "for (;;) break\n", "print \"a\\n\", 1\n", "scale=5; sqrt(2)^3 % 1.1\n",
		"define f(a[], *b[]) { auto c[]; c[0] = a[0]; b[0] = c[0] }\nx[0]=1; f(x[], x[])\n", "ibase=16; 1.\n",
	} {
		f.Add(s)
	}
	fsys := (&cmdtest.Env{}).NewFS()
	f.Fuzz(func(t *testing.T, prog string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		var out, errb bytes.Buffer
		c := &builtins.Call{Args: []string{"bc", "-l"}, Stdin: strings.NewReader(prog), Stdout: &out, Stderr: &errb, FS: fsys, Dir: "/work"}
		Run(ctx, c)
	})
}
