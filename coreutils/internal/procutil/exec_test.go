package procutil

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestExecQuietsDispatcherMessages(t *testing.T) {
	exec := func(ctx context.Context, c *builtins.Call) int {
		switch c.Args[0] {
		case "nosuch":
			fmt.Fprintf(c.Stderr, "bash: %s: command not found\n", c.Args[0])
			return 127
		case "./dir":
			fmt.Fprintf(c.Stderr, "bash: %s: Is a directory\n", c.Args[0])
			return 126
		case "script":
			// a command that fails with 127 itself, after other output
			fmt.Fprintf(c.Stderr, "bash: script: command not found\n")
			fmt.Fprintf(c.Stderr, "more\n")
			return 127
		case "ok":
			fmt.Fprintf(c.Stderr, "bash: ok: Permission denied\n")
			return 0
		}
		return 0
	}
	fsys := (&cmdtest.Env{Files: map[string]string{"script": ""}}).NewFS()
	for _, tc := range []struct {
		name    string
		status  int
		failure ExecFailure
		stderr  string
	}{
		{"nosuch", 127, NotFound, ""},
		{"./dir", 126, NotRunnable, ""},
		{"script", 127, NotFound, "bash: script: command not found\nmore\n"},
		{"ok", 0, Ran, "bash: ok: Permission denied\n"},
	} {
		var errb bytes.Buffer
		c := &builtins.Call{Args: []string{"x"}, Stderr: &errb, Dir: "/work", FS: fsys, Exec: exec, Env: []string{"PATH=/bin"}}
		status, failure := Exec(context.Background(), c, c.Sub([]string{tc.name}))
		if status != tc.status || failure != tc.failure || errb.String() != tc.stderr {
			t.Errorf("%s: %d %v %q", tc.name, status, failure, errb.String())
		}
	}
}
