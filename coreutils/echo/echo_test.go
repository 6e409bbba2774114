package echo

import (
	"os/exec"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestEchoMatchesGNU(t *testing.T) {
	cases := [][]string{
		{"a", "b"}, {"-n", "x"}, {"-e", `a\tb\nc`}, {"-E", `a\tb`}, {"-ne", `x\c`, "y"}, {"-en", `\x41\0101`},
		{"-x", "y"}, {"--", "z"}, {"-e", `back\\slash`, `\q`}, {}, {"-n"}, {"-neX"},
	}
	for _, args := range cases {
		got := (&cmdtest.Env{}).Run(Run, append([]string{"echo"}, args...)...)
		out, err := exec.Command("/bin/echo", args...).Output()
		if err != nil {
			t.Skip("no /bin/echo")
		}
		if got.Stdout != string(out) || got.Code != 0 {
			t.Errorf("echo %q: got %q want %q", args, got.Stdout, out)
		}
	}
}
