package bashbox_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeBlock is a fenced code block of README.md.
type readmeBlock struct {
	lang, code string
	line       int
	name       string // from a preceding <!-- example: NAME --> line
	needs      string // from "(needs: WHAT)" in that line
}

var exampleMarker = regexp.MustCompile(`^<!-- example: ([a-z0-9-]+)(?: \(needs: ([a-z0-9-]+)\))? -->$`)

func readmeBlocks(t *testing.T) []readmeBlock {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []readmeBlock
	var cur *readmeBlock
	var marker []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.code += line + "\n"
		case strings.HasPrefix(line, "```"):
			cur = &readmeBlock{lang: strings.TrimPrefix(line, "```"), line: n}
			if marker != nil {
				cur.name, cur.needs = marker[1], marker[2]
			}
			marker = nil
		case strings.HasPrefix(line, "<!-- example"):
			if marker = exampleMarker.FindStringSubmatch(line); marker == nil {
				t.Fatalf("README.md:%d: malformed example marker %q; want <!-- example: NAME --> or <!-- example: NAME (needs: WHAT) -->", n, line)
			}
		case strings.TrimSpace(line) != "":
			marker = nil // a marker belongs to the block right after it
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// TestReadmeGoCompiles: every Go block of the README is a whole program
// that compiles as shown.
func TestReadmeGoCompiles(t *testing.T) {
	goBin := goTool(t)
	n := 0
	for _, b := range readmeBlocks(t) {
		if b.lang != "go" {
			continue
		}
		n++
		file := filepath.Join(t.TempDir(), "main.go")
		if err := os.WriteFile(file, []byte(b.code), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(goBin, "vet", file).CombinedOutput(); err != nil {
			t.Errorf("README.md:%d: the Go block does not compile: %v\n%s", b.line, err, out)
		}
	}
	if n == 0 {
		t.Fatal("no Go block found in README.md")
	}
}

// unavailable says why a test run cannot give an example what it needs, or
// "" when it can.
func unavailable(needs string) string {
	switch needs {
	case "":
		return ""
	case "network":
		return "tests do not use the network"
	case "long":
		return "it runs for many minutes"
	case "server":
		return "it starts a server that does not exit"
	case "bwrap":
		if _, err := exec.LookPath("bwrap"); err != nil {
			return "bubblewrap is not installed"
		}
		return ""
	}
	return "unknown need " + needs
}

// TestReadmeExamples runs every shell block of the README marked as an
// example, in a scratch copy of the repository with the bashbox binary
// first on PATH, under bash -e -o pipefail: each must exit 0.
func TestReadmeExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and runs go commands")
	}
	goBin := goTool(t)
	var examples []readmeBlock
	for _, b := range readmeBlocks(t) {
		if b.name != "" {
			if b.lang != "sh" {
				t.Fatalf("README.md:%d: example %s is a %q block; examples are sh", b.line, b.name, b.lang)
			}
			examples = append(examples, b)
		}
	}
	if len(examples) < 5 {
		t.Fatalf("only %d marked examples in README.md", len(examples))
	}
	// -trimpath keeps the source directory out of the build cache's keys,
	// so the examples' go commands in the scratch copy reuse this build.
	goEnv := append(os.Environ(), "GOFLAGS=-trimpath")
	bin := t.TempDir()
	build := exec.Command(goBin, "build", "-o", filepath.Join(bin, "bashbox"), "./cmd/bashbox")
	build.Env = goEnv
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			if why := unavailable(ex.needs); why != "" {
				if strings.HasPrefix(why, "unknown need") {
					t.Fatalf("README.md:%d: %s", ex.line, why)
				}
				t.Skipf("README.md:%d: needs %s: %s", ex.line, ex.needs, why)
			}
			dir := scratchCopy(t)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", ex.code)
			cmd.Dir = dir
			cmd.Env = append(goEnv, "PATH="+bin+string(os.PathListSeparator)+filepath.Dir(goBin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("README.md:%d: example %s failed: %v\n%s\n--- output:\n%s", ex.line, ex.name, err, ex.code, out)
			}
		})
	}
}

// TestDocsNameNoOutsideFile: the repository's text stands alone: no file
// refers to a design document that is not in it.
func TestDocsNameNoOutsideFile(t *testing.T) {
	for _, f := range trackedFiles(t) {
		if !strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, ".md") && !strings.HasSuffix(f, ".yaml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "DESIGN"+".md") || strings.Contains(string(data), "DESIGN"+" §") {
			t.Errorf("%s refers to a DESIGN document that is not in the repository", f)
		}
	}
}

func goTool(t *testing.T) string {
	t.Helper()
	p := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to check the README: %v", err)
	}
	return p
}

// trackedFiles lists the repository's files as git would commit them.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("listing the repository's files: %v", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	return files
}

// scratchCopy copies the repository's files into a temporary directory, so
// examples may write without touching the checkout.
func scratchCopy(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, f := range trackedFiles(t) {
		if err := copyFile(f, filepath.Join(dst, f)); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

var generatedRE = regexp.MustCompile(`(?m)^// Code generated by (\S+) .*DO NOT EDIT\.$`)

// TestGeneratedFiles: a generated Go file says so in the standard form
// before its package clause, and names its generator, which is in the
// repository next to it.
func TestGeneratedFiles(t *testing.T) {
	for _, f := range trackedFiles(t) {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		if !strings.Contains(src, "Code generated") {
			continue
		}
		pkg := regexp.MustCompile(`(?m)^package `).FindStringIndex(src)
		m := generatedRE.FindStringSubmatchIndex(src)
		if m == nil || pkg == nil || m[0] > pkg[0] {
			if strings.Contains(src[:max(0, min(len(src), 400))], "Code generated") {
				t.Errorf("%s: the generated-code header must be one line, \"// Code generated by GENERATOR ... DO NOT EDIT.\", before package", f)
			}
			continue
		}
		gen := filepath.Join(filepath.Dir(f), src[m[2]:m[3]])
		if _, err := os.Stat(gen); err != nil {
			t.Errorf("%s: its generator %s is not in the repository", f, gen)
		}
	}
}
