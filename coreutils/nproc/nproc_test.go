package nproc

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestNproc(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		args []string
		out  string
	}{
		{nil, nil, "2\n"},
		{[]string{"OMP_NUM_THREADS=7"}, nil, "7\n"},
		{[]string{"OMP_NUM_THREADS=7", "OMP_THREAD_LIMIT=3"}, nil, "3\n"},
		{[]string{"OMP_NUM_THREADS= 5 ,3"}, nil, "5\n"},
		{[]string{"OMP_NUM_THREADS=x"}, nil, "2\n"},
		{[]string{"OMP_NUM_THREADS=7"}, []string{"--all"}, "2\n"},
		{nil, []string{"--ignore=1"}, "1\n"},
		{nil, []string{"--ignore=100"}, "1\n"},
	} {
		r := (&cmdtest.Env{Env: tc.env}).Run(Run, append([]string{"nproc"}, tc.args...)...)
		if r.Stdout != tc.out || r.Code != 0 {
			t.Errorf("nproc %v %q: %+v", tc.env, tc.args, r)
		}
	}
	r := (&cmdtest.Env{Env: []string{"LC_ALL=C.UTF-8"}}).Run(Run, "nproc", "--ignore=x")
	if r.Code != 1 || r.Stderr != "nproc: invalid number: \u2018x\u2019\n" {
		t.Errorf("--ignore=x: %+v", r)
	}
}
