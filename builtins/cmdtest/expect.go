package cmdtest

import (
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

// Expectation is a command line (with the command's name) and the stdout
// and exit status it must give.
type Expectation struct {
	Args   []string
	Stdout string
	Code   int
}

// Expect runs each command line over a fresh sandbox holding files and
// reports every one whose stdout or status differs.
func Expect(t testing.TB, run builtins.Command, files map[string]string, cases []Expectation) {
	t.Helper()
	for _, e := range cases {
		env := Env{Files: files}
		r := env.Run(run, e.Args...)
		if r.Stdout != e.Stdout || r.Code != e.Code {
			t.Errorf("%q: got %q %d (%q), want %q %d", e.Args, r.Stdout, r.Code, r.Stderr, e.Stdout, e.Code)
		}
	}
}
