package yes

import (
	"strings"
	"testing"
	"time"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestYes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		line string
	}{
		{nil, "y\n"},
		{[]string{"a", "b"}, "a b\n"},
		{[]string{"--", "-x"}, "-x\n"},
		{[]string{""}, "\n"},
		{[]string{strings.Repeat("z", 100000)}, strings.Repeat("z", 100000) + "\n"},
	} {
		r := (&cmdtest.Env{PipeAfter: 300000}).Run(Run, append([]string{"yes"}, tc.args...)...)
		if r.Code != 141 || r.Stderr != "" {
			t.Errorf("yes %q: code %d stderr %q", tc.args, r.Code, r.Stderr)
		}
		want := strings.Repeat(tc.line, 300000/len(tc.line)+1)[:300000]
		if r.Stdout != want {
			t.Errorf("yes %q: wrong output", tc.args)
		}
	}
}

func TestYesCancel(t *testing.T) {
	(&cmdtest.Env{}).RunCancelled(t, 20*time.Millisecond, Run, "yes")
}

func TestYesOptions(t *testing.T) {
	r := (&cmdtest.Env{}).Run(Run, "yes", "-x")
	if r.Code != 1 || r.Stderr != "yes: invalid option -- 'x'\nTry 'yes --help' for more information.\n" {
		t.Errorf("-x: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Run, "yes", "a", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: yes [STRING]...\n") {
		t.Errorf("--help: %+v", r)
	}
}
