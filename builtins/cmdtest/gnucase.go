package cmdtest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
)

// GNUCase is one differential case: the same command line is run by the
// real GNU tool in a temporary directory and by the sandbox command, and
// stdout, stderr and the exit status must match.
type GNUCase struct {
	Files map[string]string
	Stdin string
	Args  []string
	Env   []string
}

var gnuBaseEnv = []string{"LANG=C.UTF-8", "PATH=/usr/bin:/bin"}

// runGNU runs gc with the host tool in base plus gc.Env; ok is false when
// it is not installed.
func runGNU(t testing.TB, base []string, gc GNUCase) (stdout, stderr string, code int, ok bool) {
	t.Helper()
	bin, err := exec.LookPath(gc.Args[0])
	if err != nil {
		return "", "", 0, false
	}
	dir := t.TempDir()
	for name, content := range gc.Files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			os.MkdirAll(p, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, gc.Args[1:]...)
	cmd.Args[0] = gc.Args[0]
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), base...), gc.Env...)
	cmd.Stdin = strings.NewReader(gc.Stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, true
}

// CheckGNU runs every case on both sides and reports differences; the test
// is skipped when the host tool is missing.
func CheckGNU(t testing.TB, run builtins.Command, cases []GNUCase) {
	t.Helper()
	for _, gc := range cases {
		env := Env{Files: gc.Files, Stdin: gc.Stdin}
		if gc.Env != nil {
			env.Env = append(append([]string(nil), gnuBaseEnv...), gc.Env...)
		}
		checkOne(t, run, gnuBaseEnv, env, gc)
	}
}

// CheckGNUWith is CheckGNU with base as the environment of both sides
// (plus each case's Env), for commands that depend on TZ or the locale.
func CheckGNUWith(t testing.TB, run builtins.Command, base []string, cases []GNUCase) {
	t.Helper()
	for _, gc := range cases {
		env := Env{Files: gc.Files, Stdin: gc.Stdin, Env: append(append([]string(nil), base...), gc.Env...)}
		checkOne(t, run, base, env, gc)
	}
}

func checkOne(t testing.TB, run builtins.Command, base []string, env Env, gc GNUCase) {
	t.Helper()
	{
		wantOut, wantErr, wantCode, ok := runGNU(t, base, gc)
		if !ok {
			t.Skipf("%s not installed", gc.Args[0])
		}
		got := env.Run(run, gc.Args...)
		if got.Stdout != wantOut || got.Stderr != wantErr || got.Code != wantCode {
			t.Errorf("%q:\n got stdout %q stderr %q code %d\nwant stdout %q stderr %q code %d",
				gc.Args, got.Stdout, got.Stderr, got.Code, wantOut, wantErr, wantCode)
		}
	}
}
