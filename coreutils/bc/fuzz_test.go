package bc

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzBC checks that no program makes bc panic or hang.
func FuzzBC(f *testing.F) {
	cmdtest.FuzzCall(f, Run, []string{
		"1+2\n", "define f(x) { return x*2 }\nf(3)\n", "{ ) }\n5\n", "a[1]=2; a[1]++\n",
		"obase=16; ibase=2; 101.1\n", "for (;;) break\n", "print \"a\\n\", 1\n", "scale=5; sqrt(2)^3 % 1.1\n",
		"define f(a[], *b[]) { auto c[]; c[0] = a[0]; b[0] = c[0] }\nx[0]=1; f(x[], x[])\n", "ibase=16; 1.\n",
	}, func(string) []string { return []string{"bc", "-l"} })
}
