package conformance

import (
	"os"
	"path/filepath"
	"time"
)

// FixtureTime is every fixture entry's mtime.
var FixtureTime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// fixtureFiles is a small, realistic tree: nested sources, names with
// spaces and UTF-8, CRLF text, a file without a final newline, a binary.
var fixtureFiles = map[string]string{
	"README.md":                  "# Project\n\nA small project used by the conformance suite.\nTODO: write docs\n",
	"src/main.go":                "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n\nfunc helper(x int) int {\n\treturn x * 2 // TODO: overflow\n}\n",
	"src/util/strings.go":        "package util\n\nfunc Reverse(s string) string {\n\tr := []rune(s)\n\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {\n\t\tr[i], r[j] = r[j], r[i]\n\t}\n\treturn string(r)\n}\n",
	"src/util/strings_test.go":   "package util\n\nimport \"testing\"\n\nfunc TestReverse(t *testing.T) {\n\tif Reverse(\"ab\") != \"ba\" {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n",
	"src/lib/data.json":          "{\"name\": \"demo\", \"version\": 3, \"tags\": [\"a\", \"b\"]}\n",
	"docs/guide.txt":             "Line one\nline two\nLINE THREE\n\nlast line\n",
	"docs/notes with spaces.txt": "spaces are fine\n",
	"docs/ünïcödé.txt":           "héllo wörld\n",
	"data/crlf.txt":              "first\r\nsecond\r\nthird\r\n",
	"data/no-newline.txt":        "no trailing newline",
	"data/numbers.txt":           "10\n2\n33\n-4\n5.5\n2\n",
	"data/table.csv":             "name,dept,salary\nalice,eng,120\nbob,ops,90\ncarol,eng,110\ndave,ops,95\n",
	"data/words.txt":             "apple\nbanana\napple\ncherry\nbanana\napple\n",
	"data/empty.txt":             "",
	"data/binary.bin":            "\x00\x01\x02binary\x00data\xff\xfe\n",
	"scripts/run.sh":             "#!/bin/bash\necho \"run.sh: $*\"\n",
	".hidden/config":             "key=value\n",
}

// MakeFixture writes the fixture at dir (which must not exist).
func MakeFixture(dir string) error {
	for name, content := range fixtureFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	os.Chmod(filepath.Join(dir, "scripts/run.sh"), 0o755)
	os.MkdirAll(filepath.Join(dir, "empty-dir"), 0o755)
	links := map[string]string{
		"link-to-readme":     "README.md",
		"src/link-to-util":   "util",
		"docs/abs-link":      filepath.Join(dir, "docs/guide.txt"),
		"data/dangling-link": "does-not-exist",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode()&os.ModeSymlink == 0 {
			os.Chtimes(p, FixtureTime, FixtureTime)
		}
		return nil
	})
}
