package hostname

import (
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestHostname(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		out, err string
		code     int
	}{
		{nil, "bashbox\n", "", 0},
		{[]string{"-s"}, "bashbox\n", "", 0},
		{[]string{"-f"}, "bashbox\n", "", 0},
		{[]string{"-d"}, "", "", 0},
		{[]string{"-i"}, "127.0.0.1\n", "", 0},
		{[]string{"newname"}, "", "hostname: you must be root to change the host name\n", 1},
		{[]string{"-y"}, "hostname: Local domain name not set\n", "", 1},
	} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"hostname"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.err || r.Code != tc.code {
			t.Errorf("hostname %q: %+v", tc.args, r)
		}
	}
	r := (&cmdtest.Env{}).Run(Run, "hostname", "-x")
	if r.Code != 255 || r.Stderr != "hostname: invalid option -- 'x'\n" || !strings.HasPrefix(r.Stdout, "Usage: hostname") {
		t.Errorf("-x: %+v", r)
	}
	// A name to set with a form to show is a usage error, as net-tools has it.
	r = (&cmdtest.Env{}).Run(Run, "hostname", "-f", "x")
	if r.Code != 255 || r.Stdout != "" || !strings.HasPrefix(r.Stderr, "Usage: hostname") {
		t.Errorf("-f x: %+v", r)
	}
}
