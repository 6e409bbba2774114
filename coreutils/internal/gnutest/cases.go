package gnutest

import (
	"os/exec"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// Case is one command line checked in the sandbox against a fixed
// expectation and, where the host has the real tool, against its output.
// The fixed part keeps the case meaningful on machines without the tool.
type Case struct {
	Name  string
	Args  []string // after the command's name
	Files map[string]string
	Stdin string
	Want  string // the stdout the sandbox must print; "" checks none
	Fails bool   // the sandbox must exit non-zero
}

// CheckCases runs each case as a subtest of t for the command name.
func CheckCases(t *testing.T, name string, run builtins.Command, cases []Case) {
	t.Helper()
	_, err := exec.LookPath(name)
	installed := err == nil
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			args := append([]string{name}, c.Args...)
			env := cmdtest.Env{Files: c.Files, Stdin: c.Stdin, Env: Env}
			got := env.Run(run, args...)
			if c.Want != "" && got.Stdout != c.Want {
				t.Errorf("stdout = %q, want %q", got.Stdout, c.Want)
			}
			if c.Fails && got.Code == 0 {
				t.Errorf("expected a failure, got %+v", got)
			}
			if installed {
				Check(t, run, []cmdtest.GNUCase{{Files: c.Files, Stdin: c.Stdin, Args: args}})
			}
		})
	}
}
