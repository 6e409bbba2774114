package date

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// FuzzDate checks that no arguments make date panic or hang.
func FuzzDate(f *testing.F) {
	for _, s := range []string{"-d @0", "-d 2024-01-02 +%F", "-u -d @1700000000 +%a%N%:::z", "-Ins -d @1.5", "-d next monday", "+%-10Y%_5j%^B"} {
		f.Add(s)
	}
	fsys := (&cmdtest.Env{}).NewFS()
	f.Fuzz(func(t *testing.T, s string) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		var out, errb bytes.Buffer
		args := append([]string{"date"}, strings.Split(s, " ")...)
		c := &builtins.Call{Args: args, Stdin: strings.NewReader(s), Stdout: &out, Stderr: &errb, FS: fsys, Dir: "/work", Env: []string{"LC_ALL=C.UTF-8"}}
		Run(ctx, c)
	})
}
