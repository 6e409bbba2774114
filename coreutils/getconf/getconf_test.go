package getconf

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestGetconf(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		out, err string
		code     int
	}{
		{[]string{"PAGESIZE"}, "4096\n", "", 0},
		{[]string{"_NPROCESSORS_ONLN"}, "2\n", "", 0},
		{[]string{"ARG_MAX"}, "2097152\n", "", 0},
		{[]string{"PATH_MAX", "/"}, "4096\n", "", 0},
		{[]string{"FOO"}, "", "getconf: Unrecognized variable `FOO'\n", 2},
		{[]string{"PATH_MAX"}, "", usage, 2},
		{[]string{"PAGESIZE", "/"}, "", usage, 2},
		{nil, "", usage, 2},
	} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"getconf"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.err || r.Code != tc.code {
			t.Errorf("getconf %q: %+v", tc.args, r)
		}
	}
	r := (&cmdtest.Env{}).Run(Run, "getconf", "-a")
	if r.Code != 0 || !strings.Contains(r.Stdout, "PAGESIZE                           4096\n") {
		t.Errorf("-a: %+v", r)
	}
}
