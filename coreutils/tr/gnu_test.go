package tr

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// gnuCase is one differential case: the same command line is run by the
// real GNU tool in a temporary directory and by our implementation in the
// sandbox, and stdout, stderr and the exit status must match.
type gnuCase struct {
	files map[string]string
	stdin string
	args  []string
	env   []string
}

func runGNU(t *testing.T, gc gnuCase) (string, string, int, bool) {
	t.Helper()
	bin, err := exec.LookPath(gc.args[0])
	if err != nil {
		return "", "", 0, false
	}
	dir := t.TempDir()
	for name, content := range gc.files {
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
	cmd := exec.Command(bin, gc.args[1:]...)
	cmd.Args[0] = gc.args[0]
	cmd.Dir = dir
	cmd.Env = append([]string{"LANG=C.UTF-8", "PATH=/usr/bin:/bin"}, gc.env...)
	cmd.Stdin = strings.NewReader(gc.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code, true
}

func checkGNU(t *testing.T, run builtins.Command, cases []gnuCase) {
	t.Helper()
	for _, gc := range cases {
		wantOut, wantErr, wantCode, ok := runGNU(t, gc)
		if !ok {
			t.Skipf("%s not installed", gc.args[0])
		}
		env := cmdtest.Env{Files: gc.files, Stdin: gc.stdin}
		if gc.env != nil {
			env.Env = append([]string{"LANG=C.UTF-8", "PATH=/usr/bin:/bin"}, gc.env...)
		}
		got := env.Run(run, gc.args...)
		if got.Stdout != wantOut || got.Stderr != wantErr || got.Code != wantCode {
			t.Errorf("%q:\n got stdout %q stderr %q code %d\nwant stdout %q stderr %q code %d",
				gc.args, got.Stdout, got.Stderr, got.Code, wantOut, wantErr, wantCode)
		}
	}
}
