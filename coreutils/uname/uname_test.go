package uname

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestUname(t *testing.T) {
	for _, tc := range []struct {
		args []string
		out  string
	}{
		{nil, "Linux\n"},
		{[]string{"-a"}, "Linux bashbox 6.1.0-bashbox #1 SMP PREEMPT_DYNAMIC bashbox x86_64 GNU/Linux\n"},
		{[]string{"-snrvmpio"}, "Linux bashbox 6.1.0-bashbox #1 SMP PREEMPT_DYNAMIC bashbox x86_64 unknown unknown GNU/Linux\n"},
		{[]string{"-m"}, "x86_64\n"},
		{[]string{"-o", "-s"}, "Linux GNU/Linux\n"},
	} {
		r := (&cmdtest.Env{}).Run(Run, append([]string{"uname"}, tc.args...)...)
		if r.Stdout != tc.out || r.Code != 0 {
			t.Errorf("uname %q: %+v", tc.args, r)
		}
	}
	r := (&cmdtest.Env{Env: []string{"LC_ALL=C.UTF-8"}}).Run(Run, "uname", "x")
	if r.Code != 1 || r.Stderr != "uname: extra operand \u2018x\u2019\nTry 'uname --help' for more information.\n" {
		t.Errorf("extra operand: %+v", r)
	}
	r = (&cmdtest.Env{}).Run(Arch, "arch")
	if r.Stdout != "x86_64\n" {
		t.Errorf("arch: %+v", r)
	}
}
