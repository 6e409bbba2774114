package patch_test

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/patch"
)

// TestMangledPatchesDoNotPanic feeds damaged patches to patch: each must
// end with a message and a status, never a crash.
func TestMangledPatchesDoNotPanic(t *testing.T) {
	seeds := []string{
		"--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
		"*** f\n--- f\n***************\n*** 1,3 ****\n  a\n! b\n  c\n--- 1,3 ----\n  a\n! B\n  c\n",
		"2c2\n< b\n---\n> B\n",
		"diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
		"2c\nB\n.\n",
		"*** f\n--- f\n***************\n*** 1,3 ****\n--- 1,3 ----\n  a\n! B\n  c\n",
		"--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n",
	}
	pieces := []string{"\n", "@@", " ", "-", "+", "!", "*", "***", "---", "\\", "0", "9", ",", "\t", "c", "a", "d", ".", "--- /dev/null\n", "diff --git ", "999999999999999999999"}
	r := rand.New(rand.NewSource(2))
	iters := 3000
	if testing.Short() {
		iters = 500
	}
	for it := 0; it < iters; it++ {
		p := mangle(r, seeds[r.Intn(len(seeds))], pieces, 4)
		args := [][]string{{}, {"f"}, {"-R"}, {"-p1"}, {"-N"}}[r.Intn(5)]
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("panic %v on patch %q args %q", e, p, args)
				}
			}()
			env := cmdtest.Env{Files: map[string]string{"f": "a\nb\nc\n"}, Stdin: string(p)}
			r := env.Run(patch.Run, append([]string{"patch"}, args...)...)
			if r.Code < 0 || r.Code > 2 || strings.Contains(r.Stderr, "runtime error") {
				t.Fatalf("bad result %d %q on %q", r.Code, r.Stderr, p)
			}
		}()
	}
}

// TestNoEndlessLoop: GNU patch goes round some damaged patches forever
// ("patching file f" again and again); patch stops after one round.
func TestNoEndlessLoop(t *testing.T) {
	env := cmdtest.Env{Files: map[string]string{"f": "a\nb\nc\n"}, Stdin: "\t2c2\n< --\n> B\n"}
	r := env.Run(patch.Run, "patch", "f")
	if r.Stdout != "patching file f\n" || r.Code != 0 {
		t.Errorf("got (%d) %q %q", r.Code, r.Stdout, r.Stderr)
	}
}

// mangle makes 1 to maxEdits random edits to the patch seed: an insertion
// of one of pieces, a deletion of a few bytes, or a byte replaced.
func mangle(r *rand.Rand, seed string, pieces []string, maxEdits int) []byte {
	p := []byte(seed)
	for k := 1 + r.Intn(maxEdits); k > 0; k-- {
		pos := r.Intn(len(p) + 1)
		switch r.Intn(3) {
		case 0:
			ins := pieces[r.Intn(len(pieces))]
			p = append(p[:pos], append([]byte(ins), p[pos:]...)...)
		case 1:
			if pos < len(p) {
				end := min(len(p), pos+1+r.Intn(5))
				p = append(p[:pos], p[end:]...)
			}
		case 2:
			if pos < len(p) {
				const repl = "ab-+ !*@\n\\0123"
				p[pos] = repl[r.Intn(len(repl))]
			}
		}
	}
	return p
}
