package truecmd

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestTrue(t *testing.T) {
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{nil, ""},
		{[]string{"--help", "x"}, ""},
		{[]string{"-x", "--bogus"}, ""},
		{[]string{"--he"}, ""},
		{[]string{"--version"}, "true (bashbox) 0.1.0\n"},
	} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"true"}, tc.args...)...)
		if r.Code != 0 || r.Stdout != tc.out || r.Stderr != "" {
			t.Errorf("true %q: %+v", tc.args, r)
		}
	}
	r := (&cmdtest.Env{}).Run(Run, "true", "--help")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "Usage: true [ignored command line arguments]\n") {
		t.Errorf("--help: %+v", r)
	}
}
