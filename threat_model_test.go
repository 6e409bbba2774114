package bashbox_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestThreatModel checks that every threat in THREAT_MODEL.md names tests
// that exist in the repository.
func TestThreatModel(t *testing.T) {
	data, err := os.ReadFile("THREAT_MODEL.md")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "_test.go") {
			b, _ := os.ReadFile(p)
			src.Write(b)
		}
		return nil
	})
	line := regexp.MustCompile(`(?m)^- (TM-[A-Z]+-\d{3}) .*$`)
	testName := regexp.MustCompile(`\b(Test|Fuzz)[A-Za-z0-9_]+`)
	ids := line.FindAllStringSubmatch(string(data), -1)
	if len(ids) < 10 {
		t.Fatalf("only %d threats found", len(ids))
	}
	seen := map[string]bool{}
	for _, m := range ids {
		id := m[1]
		if seen[id] {
			t.Errorf("%s listed twice", id)
		}
		seen[id] = true
		_, testPart, ok := strings.Cut(m[0], "test: ")
		if !ok {
			t.Errorf("%s names no test", id)
			continue
		}
		for _, name := range testName.FindAllString(testPart, -1) {
			if !regexp.MustCompile(`func ` + name + `\(`).MatchString(src.String()) {
				t.Errorf("%s: test %s does not exist", id, name)
			}
		}
	}
}
