package env

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/printenv"
)

func testExec(ctx context.Context, c *builtins.Call) int {
	switch c.Args[0] {
	case "printenv":
		return printenv.Run(ctx, c)
	case "args":
		for _, a := range c.Args[1:] {
			fmt.Fprintf(c.Stdout, "[%s]", a)
		}
		fmt.Fprintln(c.Stdout)
		return 0
	case "pwd":
		fmt.Fprintln(c.Stdout, c.Dir)
		return 0
	case "exit7":
		return 7
	}
	return 127
}

func TestEnv(t *testing.T) {
	base := []string{"A=1", "B=2", "LANG=C.UTF-8"}
	for _, tc := range []struct {
		args   []string
		out    string
		errOut string
		code   int
	}{
		{nil, "A=1\nB=2\nLANG=C.UTF-8\n", "", 0},
		{[]string{"-i", "X=1", "Y=2"}, "X=1\nY=2\n", "", 0},
		{[]string{"-i", "X=1", "-0"}, "", "env: ‘-0’: No such file or directory\n", 127},
		{[]string{"-0", "-u", "A", "-u", "LANG"}, "B=2\x00", "", 0},
		{[]string{"A=changed", "C=new"}, "A=changed\nB=2\nLANG=C.UTF-8\nC=new\n", "", 0},
		{[]string{"-", "Z=9"}, "Z=9\n", "", 0},
		{[]string{"-i", "A=1", "printenv", "A"}, "1\n", "", 0},
		{[]string{"-u", "A", "printenv", "A"}, "", "", 1},
		{[]string{"nosuch"}, "", "env: ‘nosuch’: No such file or directory\n", 127},
		{[]string{"exit7"}, "", "", 7},
		{[]string{"-u"}, "", "env: option requires an argument -- 'u'\nTry 'env --help' for more information.\n", 125},
		{[]string{"-x"}, "", "env: invalid option -- 'x'\nTry 'env --help' for more information.\n", 125},
		{[]string{"-u", "=x"}, "", "env: cannot unset ‘=x’: Invalid argument\n", 125},
		{[]string{"-C", "/nonexist", "pwd"}, "", "env: cannot change directory to '/nonexist': No such file or directory\n", 125},
		{[]string{"-C", "sub", "pwd"}, "/work/sub\n", "", 0},
		{[]string{"-C", "sub"}, "", "env: must specify command with --chdir (-C)\nTry 'env --help' for more information.\n", 125},
		{[]string{"-0", "args"}, "", "env: cannot specify --null (-0) with command\nTry 'env --help' for more information.\n", 125},
		{[]string{"-S", `args "a b" 'c\'d' e\_f ${A}x #no`}, "[a b][c'd][e][f][1x]\n", "", 0},
		{[]string{"-S", "args a", "b"}, "[a][b]\n", "", 0},
		{[]string{"-S", `"a`}, "", "env: no terminating quote in -S string\n", 125},
		{[]string{"-S", `a\q`}, "", "env: invalid sequence '\\q' in -S\n", 125},
		{[]string{"-S", `$A`}, "", "env: only ${VARNAME} expansion is supported, error at: $A\n", 125},
		{[]string{"-i", "-v", "A=1", "args", "x"}, "[x]\n", "cleaning environ\nsetenv:   A=1\nexecuting: args\n   arg[0]= ‘args’\n   arg[1]= ‘x’\n", 0},
		{[]string{"--", "args", "-i"}, "[-i]\n", "", 0},
	} {
		e := cmdtest.Env{Env: append([]string(nil), base...), Exec: testExec, Files: map[string]string{"sub/": ""}}
		r := e.Run(Run, append([]string{"env"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.errOut || r.Code != tc.code {
			t.Errorf("env %q:\ngot  %q %q %d\nwant %q %q %d", tc.args, r.Stdout, r.Stderr, r.Code, tc.out, tc.errOut, tc.code)
		}
	}
}

func TestEnvHelp(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "env", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]\n") {
		t.Errorf("%+v", r)
	}
}
