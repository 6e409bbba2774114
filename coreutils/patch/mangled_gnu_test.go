package patch_test

import (
	"math/rand"
	"os"
	"strconv"
	"testing"
)

func TestMangledAgainstGNU(t *testing.T) {
	requireGNU(t)
	if os.Getenv("PATCH_MANGLED") == "" {
		t.Skip()
	}
	seeds := []string{
		"--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
		"*** f\n--- f\n***************\n*** 1,3 ****\n  a\n! b\n  c\n--- 1,3 ----\n  a\n! B\n  c\n",
		"2c2\n< b\n---\n> B\n",
		"diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
		"*** f\n--- f\n***************\n*** 1,3 ****\n--- 1,3 ----\n  a\n! B\n  c\n",
		"--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n",
	}
	pieces := []string{"\n", "@@", " ", "-", "+", "!", "*", "***", "---", "\\", "0", "9", ",", "\t", "c", "a", "d", ".", "--- /dev/null\n"}
	seed := int64(3)
	if v, err := strconv.Atoi(os.Getenv("PATCH_MANGLED")); err == nil {
		seed = int64(v)
	}
	r := rand.New(rand.NewSource(seed))
	fails := 0
	for it := 0; it < 1500 && fails < 8; it++ {
		p := mangle(r, seeds[r.Intn(len(seeds))], pieces, 3)
		args := [][]string{{}, {"f"}, {"-R"}, {"-N"}}[r.Intn(4)]
		sc := scenario{files: map[string]string{"f": "a\nb\nc\n"}, args: args, stdin: string(p)}
		wo, we, wc, wt := runGNU(t, sc)
		if wc == gnuHung {
			t.Logf("GNU patch hangs on %q", p)
			runOurs(sc) // must end
			continue
		}
		go_, ge, gc, gt := runOurs(sc)
		if wo != go_ || we != ge || wc != gc || wt != gt {
			fails++
			t.Errorf("patch %q\npatch: %q\nwant (%d):\n%s\nstderr: %s\ntree:\n%s\ngot (%d):\n%s\nstderr: %s\ntree:\n%s",
				args, p, wc, wo, we, wt, gc, go_, ge, gt)
		}
	}
}
