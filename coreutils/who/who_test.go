package who

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestWho(t *testing.T) {
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{nil, ""},
		{[]string{"-q"}, "\n# users=0\n"},
		{[]string{"-H"}, "NAME     LINE         TIME             COMMENT\n"},
		{[]string{"-Hu"}, "NAME     LINE         TIME             IDLE          PID COMMENT\n"},
		{[]string{"-Ha"}, "NAME       LINE         TIME             IDLE          PID COMMENT  EXIT\n"},
		{[]string{"-HT"}, "NAME       LINE         TIME             COMMENT\n"},
	} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"who"}, tc.args...)...)
		if r.Stdout != tc.out || r.Code != 0 {
			t.Errorf("who %q: %q", tc.args, r.Stdout)
		}
	}
}
