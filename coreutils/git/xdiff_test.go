package git

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gitHunks runs real git's diff on two files and returns the output from
// the first hunk header on.
func gitHunks(t *testing.T, dir string, a, b []byte, extra ...string) string {
	t.Helper()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(pa, a, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-c", "core.quotepath=false", "diff", "--no-index", "--no-color", "--no-ext-diff"}, extra...)
	args = append(args, "a", "b")
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "PATH=/usr/bin:/bin"}
	out, _ := cmd.Output()
	s := string(out)
	if i := strings.Index(s, "\n@@ "); i >= 0 {
		return s[i+1:]
	}
	return ""
}

func ourHunks(a, b []byte) string {
	var w bytes.Buffer
	emitUnified(&w, xdiff(a, b), emitOpts{ctx: 3, funcNames: true})
	return w.String()
}

var wordPool = []string{
	"", "", "}", "{", "\treturn x", "\tif x {", "\t}", "func f() {", "int main() {", "  a = 1;",
	"    b = 2;", "foo", "bar", "baz", "// comment", "x", "y", "z", "\t\tnested", "end",
	"$var", "_under", "  ", "\t",
}

func randomFile(r *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		if r.Intn(4) == 0 {
			lines[i] = fmt.Sprintf("line %d", r.Intn(30))
		} else {
			lines[i] = wordPool[r.Intn(len(wordPool))]
		}
	}
	return lines
}

func mutate(r *rand.Rand, lines []string) []string {
	out := append([]string(nil), lines...)
	edits := 1 + r.Intn(6)
	for e := 0; e < edits; e++ {
		switch r.Intn(4) {
		case 0: // insert block
			pos := r.Intn(len(out) + 1)
			ins := randomFile(r, 1+r.Intn(5))
			out = append(out[:pos], append(ins, out[pos:]...)...)
		case 1: // delete block
			if len(out) == 0 {
				continue
			}
			pos := r.Intn(len(out))
			n := 1 + r.Intn(5)
			if pos+n > len(out) {
				n = len(out) - pos
			}
			out = append(out[:pos], out[pos+n:]...)
		case 2: // change a line
			if len(out) == 0 {
				continue
			}
			out[r.Intn(len(out))] = wordPool[r.Intn(len(wordPool))]
		case 3: // duplicate a block
			if len(out) < 2 {
				continue
			}
			pos := r.Intn(len(out) - 1)
			n := 1 + r.Intn(min(4, len(out)-pos))
			blk := append([]string(nil), out[pos:pos+n]...)
			at := r.Intn(len(out) + 1)
			out = append(out[:at], append(blk, out[at:]...)...)
		}
	}
	return out
}

func join(lines []string, finalNL bool) []byte {
	s := strings.Join(lines, "\n")
	if finalNL && len(lines) > 0 {
		s += "\n"
	}
	return []byte(s)
}

// TestXdiffMatchesGit compares hunks with real git on random edits.
func TestXdiffMatchesGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(1))
	n := 150
	if testing.Short() {
		n = 40
	}
	if v, err := strconv.Atoi(os.Getenv("BASHBOX_GIT_FUZZ")); err == nil {
		n = v * 100
	}
	nonEmpty := 0
	defer func() {
		if nonEmpty < n/2 {
			t.Errorf("only %d of %d cases had differences", nonEmpty, n)
		}
	}()
	for i := 0; i < n; i++ {
		size := r.Intn(40)
		if i%10 == 0 {
			size = 100 + r.Intn(400)
		}
		a := randomFile(r, size)
		b := mutate(r, a)
		fa := join(a, r.Intn(5) != 0)
		fb := join(b, r.Intn(5) != 0)
		want := gitHunks(t, dir, fa, fb)
		got := ourHunks(fa, fb)
		if want != "" {
			nonEmpty++
		}
		if got != want {
			t.Fatalf("case %d differs\n--- a\n%q\n--- b\n%q\n--- git\n%s\n--- ours\n%s", i, fa, fb, want, got)
		}
	}
}

// TestXdiffLargeRandom checks big, very different inputs, where git's cost
// heuristics kick in.
func TestXdiffLargeRandom(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 3; i++ {
		a := make([]string, 3000)
		b := make([]string, 3000)
		for k := range a {
			a[k] = fmt.Sprintf("l%d", r.Intn(200))
			b[k] = fmt.Sprintf("l%d", r.Intn(200))
		}
		if i%2 == 1 {
			copy(b[1000:1500], a[1000:1500])
		}
		fa, fb := join(a, true), join(b, true)
		want := gitHunks(t, dir, fa, fb)
		got := ourHunks(fa, fb)
		if want == "" {
			t.Fatalf("large case %d: git printed no hunks", i)
		}
		if got != want {
			t.Fatalf("large case %d differs (len %d vs %d)", i, len(got), len(want))
		}
	}
}

// TestXdiffWhitespaceFlags compares -w, -b and --ignore-space-at-eol hunks
// with git on random whitespace edits.
func TestXdiffWhitespaceFlags(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(3))
	flags := []struct {
		arg string
		ws  int
	}{{"-w", wsIgnoreAll}, {"-b", wsIgnoreChange}, {"--ignore-space-at-eol", wsIgnoreAtEOL}}
	spaces := []string{"", " ", "  ", "\t", " \t"}
	for i := 0; i < 60; i++ {
		a := randomFile(r, 5+r.Intn(30))
		b := mutate(r, a)
		for k := range b {
			if r.Intn(3) == 0 {
				b[k] = spaces[r.Intn(len(spaces))] + strings.ReplaceAll(b[k], " ", spaces[r.Intn(len(spaces))]) + spaces[r.Intn(len(spaces))]
			}
		}
		fa, fb := join(a, true), join(b, r.Intn(4) != 0)
		for _, f := range flags {
			want := gitHunks(t, dir, fa, fb, f.arg)
			var w bytes.Buffer
			emitUnified(&w, xdiffWS(fa, fb, f.ws), emitOpts{ctx: 3, funcNames: true})
			if w.String() != want {
				t.Fatalf("case %d %s differs\n--- a\n%q\n--- b\n%q\n--- git\n%s\n--- ours\n%s", i, f.arg, fa, fb, want, w.String())
			}
		}
	}
}
