package dircolors

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestDircolors(t *testing.T) {
	db := "DIR 01;34\nTERM x*\n.tar 31\nTERM vt*\nLINK 36 # comment\n"
	for _, tc := range []struct {
		env            []string
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"TERM=xterm"}, []string{"-b", "db"}, 0, "LS_COLORS='di=01;34:*.tar=31:';\nexport LS_COLORS\n", ""},
		{[]string{"TERM=vt100"}, []string{"-c", "db"}, 0, "setenv LS_COLORS 'di=01;34:ln=36:'\n", ""},
		{nil, []string{"-b"}, 0, "LS_COLORS='';\nexport LS_COLORS\n", ""},
		{[]string{"SHELL=/bin/tcsh", "TERM=xterm"}, []string{"db"}, 0, "setenv LS_COLORS 'di=01;34:*.tar=31:'\n", ""},
		{nil, []string{"db"}, 1, "", "dircolors: no SHELL environment variable, and no shell type option given\n"},
		{[]string{"TERM=xterm"}, []string{"-b", "bad"}, 1, "", "dircolors: bad:2: unrecognized keyword ZZ\ndircolors: bad:3: invalid line;  missing second token\n"},
		{nil, []string{"-b", "nosuch"}, 1, "", "dircolors: nosuch: No such file or directory\n"},
	} {
		e := cmdtest.Env{Files: map[string]string{"db": db, "bad": "TERM xterm\nZZ 1\nfoo\n"}, Env: tc.env}
		r := e.Run(Run, append([]string{"dircolors"}, tc.args...)...)
		if r.Code != tc.code || r.Stdout != tc.stdout || r.Stderr != tc.stderr {
			t.Errorf("%v dircolors %q: %d %q %q", tc.env, tc.args, r.Code, r.Stdout, r.Stderr)
		}
	}
}

func TestQuoting(t *testing.T) {
	got := join([][2]string{{"*a'b", "1"}, {"*x:y", "2=3"}, {`*a\:b`, "4"}, {`*a\\:b`, "^="}})
	want := `*a'\''b=1:*x\:y=2\=3:*a\:b=4:*a\\\:b=^=:`
	if got != want {
		t.Errorf("join = %s, want %s", got, want)
	}
}

func TestPrintDatabase(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "dircolors", "-p")
	if r.Code != 0 || r.Stdout != defaultDB || !strings.HasPrefix(r.Stdout, "# Configuration file for dircolors") {
		t.Errorf("-p: %d %.80q", r.Code, r.Stdout)
	}
}
