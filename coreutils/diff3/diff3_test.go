package diff3

import (
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestMerge(t *testing.T) {
	e := cmdtest.Env{Files: map[string]string{
		"older": "a\nb\nc\n", "mine": "A\nb\nc\n", "yours": "a\nb\nC\n", "other": "X\nb\nc\n",
	}}
	r := e.Run(Run, "diff3", "-m", "mine", "older", "yours")
	if r.Stdout != "A\nb\nC\n" || r.Code != 0 {
		t.Fatalf("clean merge = %q %d", r.Stdout, r.Code)
	}
	r = e.Run(Run, "diff3", "-m", "mine", "older", "other")
	want := "<<<<<<< mine\nA\n||||||| older\na\n=======\nX\n>>>>>>> other\nb\nc\n"
	if r.Stdout != want || r.Code != 1 {
		t.Fatalf("conflict = %q %d", r.Stdout, r.Code)
	}
}
