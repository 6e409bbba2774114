package diff_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/diff"
)

// gnuDiff runs the machine's diff on two files holding a and b.
func gnuDiff(t *testing.T, dir string, a, b string, args ...string) (string, int) {
	t.Helper()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(pa, []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, []byte(b), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/diff", append(append([]string{}, args...), "a", "b")...)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "TZ=UTC"}
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return out.String(), code
}

func ourDiff(a, b string, args ...string) (string, int) {
	env := cmdtest.Env{Files: map[string]string{"a": a, "b": b}}
	r := env.Run(diff.Run, append(append([]string{"diff"}, args...), "a", "b")...)
	return r.Stdout, r.Code
}

// randomText makes a file of up to n lines drawn from a small alphabet,
// so that lines repeat (which exercises GNU's discarding and sliding).
func randomText(r *rand.Rand, n int, alphabet []string) string {
	var b strings.Builder
	k := r.Intn(n + 1)
	for i := 0; i < k; i++ {
		b.WriteString(alphabet[r.Intn(len(alphabet))])
		b.WriteByte('\n')
	}
	s := b.String()
	if len(s) > 0 && r.Intn(8) == 0 {
		s = s[:len(s)-1]
	}
	return s
}

// mutate derives a second file from a by random edits.
func mutate(r *rand.Rand, a string, alphabet []string) string {
	lines := strings.SplitAfter(a, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	edits := r.Intn(6)
	for e := 0; e < edits; e++ {
		pos := 0
		if len(lines) > 0 {
			pos = r.Intn(len(lines) + 1)
		}
		switch r.Intn(3) {
		case 0: // insert
			n := 1 + r.Intn(3)
			var ins []string
			for i := 0; i < n; i++ {
				ins = append(ins, alphabet[r.Intn(len(alphabet))]+"\n")
			}
			lines = append(lines[:pos], append(ins, lines[pos:]...)...)
		case 1: // delete
			if pos < len(lines) {
				n := min(1+r.Intn(3), len(lines)-pos)
				lines = append(lines[:pos], lines[pos+n:]...)
			}
		case 2: // replace
			if pos < len(lines) {
				lines[pos] = alphabet[r.Intn(len(alphabet))] + "\n"
			}
		}
	}
	s := strings.Join(lines, "")
	if len(s) > 0 && r.Intn(8) == 0 && strings.HasSuffix(s, "\n") {
		s = s[:len(s)-1]
	}
	return s
}

func requireGNU(t *testing.T) {
	if _, err := os.Stat("/usr/bin/diff"); err != nil {
		t.Skip("no /usr/bin/diff")
	}
}

func TestRandomAgainstGNU(t *testing.T) { testRandom(t, 1) }
func TestRandomAgainstGNUSeeds(t *testing.T) {
	if os.Getenv("DIFF_SEEDS") == "" {
		t.Skip()
	}
	for s := 2; s < 40; s++ {
		testRandom(t, s)
	}
}
func testRandom(t *testing.T, seed int) {
	requireGNU(t)
	dir := t.TempDir()
	r := rand.New(rand.NewSource(int64(seed)))
	alphabets := [][]string{
		{"a", "b", "c"},
		{"a", "b", "c", "d", "e", "f", "g", "h"},
		{"x", "x", "x", "y", ""},
		{"alpha", "beta", "gamma", "delta", "", "  alpha", "Alpha", "beta\t", "a b", "a  b"},
		{"int f()", "{", "}", "\tx = 1;", "\ty = 2;", "a\tb\tc\td", "long line with many words in it, more than forty columns wide", "ünïcödé ✓ 漢字", ""},
	}
	argSets := [][]string{{}, {"-u"}, {"-U1"}, {"-c"}, {"-U0"}, {"-e"}, {"-n"}, {"-U5"}, {"-f"},
		{"-y"}, {"-y", "-W", "37"}, {"-y", "--suppress-common-lines", "-t"}, {"-D", "X"}, {"-c", "-p"}, {"-t", "-T"},
		{"--old-line-format=<%l>%c'\\n'", "--new-line-format=>%dn %L"},
		{"-u", "-T"}, {"-c", "-T", "--suppress-blank-empty"}, {"-u", "--suppress-blank-empty"},
		{"--color=always", "-u"}, {"--color=always", "-c"}, {"--color=always"}}
	wsSets := [][]string{{"-b"}, {"-w"}, {"-i"}, {"-B"}, {"-u", "-b"}, {"-u", "-w", "-B"}, {"-Z"}, {"-E"}, {"-u", "-I", "^a"}}
	iters := 400
	if testing.Short() {
		iters = 150
	}
	fails := 0
	for it := 0; it < iters && fails < 5; it++ {
		alpha := alphabets[r.Intn(len(alphabets))]
		n := []int{5, 12, 40, 120}[r.Intn(4)]
		a := randomText(r, n, alpha)
		var b string
		if r.Intn(4) == 0 {
			b = randomText(r, n, alpha)
		} else {
			b = mutate(r, a, alpha)
		}
		args := argSets[r.Intn(len(argSets))]
		if r.Intn(3) == 0 {
			args = wsSets[r.Intn(len(wsSets))]
		}
		if strings.Contains(strings.Join(args, " "), "-u") || strings.Contains(strings.Join(args, " "), "-c") || strings.Contains(strings.Join(args, " "), "-U") {
			args = append([]string{"--label", "A", "--label", "B"}, args...)
		}
		want, wcode := gnuDiff(t, dir, a, b, args...)
		got, gcode := ourDiff(a, b, args...)
		if want != got || wcode != gcode {
			fails++
			t.Errorf("diff %v\na=%q\nb=%q\nwant (%d):\n%s\ngot (%d):\n%s", args, a, b, wcode, want, gcode, got)
		}
	}
}

func TestLargeRandomAgainstGNU(t *testing.T) {
	requireGNU(t)
	dir := t.TempDir()
	r := rand.New(rand.NewSource(7))
	for it := 0; it < 8; it++ {
		alpha := make([]string, 3+r.Intn(200))
		for i := range alpha {
			alpha[i] = fmt.Sprintf("line %d", i)
		}
		a := randomText(r, 3000, alpha)
		b := a
		for k := 0; k < 1+r.Intn(30); k++ {
			b = mutate(r, b, alpha)
		}
		if r.Intn(3) == 0 {
			b = randomText(r, 3000, alpha)
		}
		for _, args := range [][]string{{}, {"-u", "--label", "A", "--label", "B"}, {"-H"}} {
			want, wcode := gnuDiff(t, dir, a, b, args...)
			got, gcode := ourDiff(a, b, args...)
			if want != got || wcode != gcode {
				t.Fatalf("large diff %v iteration %d differs (%d lines vs %d): want %d bytes, got %d bytes", args, it,
					strings.Count(a, "\n"), strings.Count(b, "\n"), len(want), len(got))
			}
		}
	}
}
