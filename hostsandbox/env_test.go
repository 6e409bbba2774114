package hostsandbox

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLibrariesReadNoConfigurationFromEnvironment: the host sandbox, the
// Bash tool and the fallback runner take their policy as arguments
// (cmd/bashbox maps BASHBOX_* onto them), so a program embedding them is
// never configured by its process environment. The only environment reads
// allowed are data the caller asked to pass through: the variables the
// operator lists for commands, and the sandboxed helper's own environment
// handed to the command it execs.
func TestLibrariesReadNoConfigurationFromEnvironment(t *testing.T) {
	allowed := map[string]string{
		"helper.go":               "syscall.Exec(bin, command, os.Environ())",
		"bashtool/tool.go":        "hostEnv = os.Environ()",
		"../fallback/fallback.go": "lookup = os.LookupEnv",
	}
	read := regexp.MustCompile(`os\.(Getenv|LookupEnv|Environ)\b|syscall\.(Getenv|Environ)\b`)
	seen := 0
	for _, root := range []string{".", "../fallback"} {
		files, _ := filepath.Glob(filepath.Join(root, "*.go"))
		more, _ := filepath.Glob(filepath.Join(root, "*", "*.go"))
		for _, f := range append(files, more...) {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			seen++
			for i, line := range strings.Split(string(data), "\n") {
				code, _, _ := strings.Cut(line, "//")
				if !read.MatchString(code) {
					continue
				}
				if ok := allowed[filepath.ToSlash(f)]; ok == "" || !strings.Contains(code, ok) {
					t.Errorf("%s:%d reads the process environment: %s", f, i+1, strings.TrimSpace(line))
				}
			}
		}
	}
	if seen < 20 {
		t.Fatalf("only %d source files found", seen)
	}
}
