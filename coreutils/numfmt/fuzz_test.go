package numfmt

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzNumfmt checks that no arguments make numfmt panic or hang.
func FuzzNumfmt(f *testing.F) {
	for _, s := range []string{"--to=si 1000", "--from=auto 1Ki", "--format=%08.2f 3.1", "--field=2- a 1", "--round=up --to=iec 1536", "--padding=-9 5", "--invalid=warn x 1"} {
		f.Add(s)
	}
	fsys := (&cmdtest.Env{}).NewFS()
	f.Fuzz(func(t *testing.T, s string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		var out, errb bytes.Buffer
		args := append([]string{"numfmt"}, strings.Split(s, " ")...)
		c := &builtins.Call{Args: args, Stdin: strings.NewReader(s), Stdout: &out, Stderr: &errb, FS: fsys, Dir: "/work", Env: []string{"LC_ALL=C.UTF-8"}}
		Run(ctx, c)
	})
}
