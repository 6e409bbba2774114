package column

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Helpers shared by this package's tests: run the real tool on the same
// input in a temporary directory.

type tcase struct {
	name  string
	args  []string
	files map[string]string
	stdin string
	want  string // expected stdout when the real tool is missing ("" = skip)
}

func runReal(t *testing.T, tool string, tc tcase) (string, string, int, bool) {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		return "", "", 0, false
	}
	dir := t.TempDir()
	for name, content := range tc.files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(path, tc.args...)
	cmd.Args[0] = tool
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
	cmd.Stdin = bytes.NewReader([]byte(tc.stdin))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return out.String(), errb.String(), code, true
}
