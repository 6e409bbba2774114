package bashbox

import (
	"os/exec"
	"testing"
)

// TestSessionStateReplayInBash holds the capture and replay to real bash:
// state introspected in one bash, filtered by replayable and run in a
// fresh bash gives the same variables, functions, aliases, options and
// traps. (The engine's own round trip is TestSessionStateShellRoundTrip.)
func TestSessionStateReplayInBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed: ", err)
	}
	cases := []struct{ setup, check, want string }{
		{`plain='a b'; export EXP="x'y\"z"`, `echo "$plain|$EXP"; env | grep -c '^EXP='`, "a b|x'y\"z\n1\n"},
		{`nl=$'one\ntwo'`, `echo "$nl"`, "one\ntwo\n"},
		{`arr=(1 "two x" 3); arr[7]=sparse`, `echo "${#arr[@]} ${arr[1]} ${!arr[@]}"`, "4 two x 0 1 2 7\n"},
		{`declare -A m=([k]=v ["a b"]="w x")`, `echo "${m[k]} ${m[a b]}"`, "v w x\n"},
		{`declare -i n=5; declare -l low=ABC; declare -x -r rox=1`, `n+=2; echo $n $low $rox; (rox=2) 2>/dev/null || echo readonly`, "7 abc 1\nreadonly\n"},
		{`f() { local x="$1"; echo "f:$x"; }`, `f arg`, "f:arg\n"},
		{`alias hi='echo hello'`, "shopt -s expand_aliases\nhi", "hello\n"},
		{`set -o pipefail -o nounset`, `false | true; echo $?; echo ${unset_var-ok}`, "1\nok\n"},
		{`shopt -s nullglob extglob`, `echo /nonexistent/*; shopt -q extglob && echo on`, "\non\n"},
		{`trap 'echo caught' USR1`, `trap -p USR1`, "trap -- 'echo caught' SIGUSR1\n"},
		{`set -e`, `false; echo not reached`, ""},
	}
	for _, c := range cases {
		out, err := exec.Command(bash, "-c", c.setup+"\n"+captureScript).Output()
		if err != nil {
			t.Fatalf("%s: capture: %v", c.setup, err)
		}
		replay, err := replayable(string(out))
		if err != nil {
			t.Fatalf("%s: %v", c.setup, err)
		}
		got, _ := exec.Command(bash, "-c", replay+"\n"+c.check).Output()
		if string(got) != c.want {
			t.Errorf("%s: restored bash gives %q, want %q\nreplay:\n%s", c.setup, got, c.want, replay)
		}
	}
}
