package digest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

// gnuCase runs args both in the sandbox and with the real GNU tool (in a
// temporary directory holding the same files) and compares the output.
type gnuCase struct {
	files map[string]string
	stdin string
	args  []string
	env   []string
}

func runGNU(t *testing.T, gc gnuCase) (string, string, int, bool) {
	t.Helper()
	path, err := exec.LookPath(gc.args[0])
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
	cmd := exec.Command(path, gc.args[1:]...)
	cmd.Args[0] = gc.args[0]
	cmd.Dir = dir
	cmd.Env = append([]string{"LC_ALL=C.UTF-8", "TZ=UTC", "PATH=/usr/bin:/bin"}, gc.env...)
	cmd.Stdin = strings.NewReader(gc.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		return "", "", 0, false
	}
	return out.String(), errb.String(), code, true
}

func compareGNU(t *testing.T, run builtins.Command, cases []gnuCase) {
	t.Helper()
	for _, gc := range cases {
		wantOut, wantErr, wantCode, ok := runGNU(t, gc)
		if !ok {
			t.Skipf("%s not available", gc.args[0])
		}
		env := append([]string{"LC_ALL=C.UTF-8", "TZ=UTC"}, gc.env...)
		r := (&cmdtest.Env{Files: gc.files, Stdin: gc.stdin, Env: env}).Run(run, gc.args...)
		if r.Stdout != wantOut || r.Stderr != wantErr || r.Code != wantCode {
			t.Errorf("%q:\n got  %q %q %d\n want %q %q %d", gc.args, r.Stdout, r.Stderr, r.Code, wantOut, wantErr, wantCode)
		}
	}
}
