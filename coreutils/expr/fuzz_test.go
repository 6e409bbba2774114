package expr

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzExpr checks that no arguments make expr panic or hang.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"1 + 2", "( 1 + 2 ) * 3", "abc : a\\(b\\)", "substr hello 2 3", "length héllo", "index abc b", "1 / 0", "99999999999999999999 * 99999999999999999999"} {
		f.Add(s)
	}
	fsys := (&cmdtest.Env{}).NewFS()
	f.Fuzz(func(t *testing.T, s string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		var out, errb bytes.Buffer
		args := append([]string{"expr"}, strings.Split(s, " ")...)
		c := &builtins.Call{Args: args, Stdin: strings.NewReader(s), Stdout: &out, Stderr: &errb, FS: fsys, Dir: "/work", Env: []string{"LC_ALL=C.UTF-8"}}
		Run(ctx, c)
	})
}
