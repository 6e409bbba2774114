package id

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestID(t *testing.T) {
	env := []string{"USER=alice", "LC_ALL=C.UTF-8"}
	for _, tc := range []struct {
		args     []string
		out, err string
		code     int
	}{
		{nil, "uid=1000(alice) gid=1000(alice) groups=1000(alice)\n", "", 0},
		{[]string{"-u"}, "1000\n", "", 0},
		{[]string{"-un"}, "alice\n", "", 0},
		{[]string{"-Gn"}, "alice\n", "", 0},
		{[]string{"-gr"}, "1000\n", "", 0},
		{[]string{"-uz"}, "1000\x00", "", 0},
		{[]string{"root"}, "uid=0(root) gid=0(root) groups=0(root)\n", "", 0},
		{[]string{"-n"}, "", "id: cannot print only names or real IDs in default format\n", 1},
		{[]string{"-u", "-g"}, "", "id: cannot print \"only\" of more than one choice\n", 1},
		{[]string{"-z"}, "", "id: option --zero not permitted in default format\n", 1},
		{[]string{"nobody-x"}, "", "id: \u2018nobody-x\u2019: no such user\n", 1},
		{[]string{"-Z"}, "", "id: --context (-Z) works only on an SELinux-enabled kernel\n", 1},
	} {
		r := (&cmdtest.Env{Env: env}).Run(Run, append([]string{"id"}, tc.args...)...)
		if r.Stdout != tc.out || r.Stderr != tc.err || r.Code != tc.code {
			t.Errorf("id %q: %+v", tc.args, r)
		}
	}
}
