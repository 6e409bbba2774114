package sed_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/sed"
)

// FuzzScript runs arbitrary scripts over a small input: sed must never
// panic, whatever the script.
func FuzzScript(f *testing.F) {
	for _, s := range []string{"p", "s/a/b/g", "1{N;P;D}", "y/ab/ba/", "a\\\nfoo", "/x/,+2!d", `s/\(a\)\|b/\U\1/2g`,
		":a;N;$!ba", "0,/a/c\\\nX", "l 3;=;F;z", "s/[[:alpha:]]*/<&>/gw /dev/stdout", "$!{h;d};x;G"} {
		f.Add(s, "a\nb\nab\n", false)
	}
	f.Fuzz(func(t *testing.T, script, input string, ere bool) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		env := cmdtest.Env{}
		args := []string{"sed", "-s", "-e", script}
		if ere {
			args = []string{"sed", "-E", "-e", script}
		}
		var out, errb strings.Builder
		c := &builtins.Call{Args: args, Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errb,
			Dir: "/work", FS: env.NewFS(), Env: []string{"LANG=C.UTF-8"}}
		sed.Run(ctx, c)
	})
}
