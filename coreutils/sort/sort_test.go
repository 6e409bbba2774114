package sort

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestSort(t *testing.T) {
	files := map[string]string{"f": "b\na\nc\n", "n": "10\n9\n-1\n2.5\n"}
	tests := []cmdtest.Expectation{
		{Args: []string{"sort", "f"}, Stdout: "a\nb\nc\n", Code: 0},
		{Args: []string{"sort", "-r", "f"}, Stdout: "c\nb\na\n", Code: 0},
		{Args: []string{"sort", "-n", "n"}, Stdout: "-1\n2.5\n9\n10\n", Code: 0},
		{Args: []string{"sort", "-c", "f"}, Stdout: "", Code: 1},
		{Args: []string{"sort", "nosuch"}, Stdout: "", Code: 2},
		{Args: []string{"sort", "-k0", "f"}, Stdout: "", Code: 2},
	}
	cmdtest.Expect(t, Run, files, tests)
	// -o may name an input file.
	env := cmdtest.Env{Files: files}
	r := env.Run(Run, "sort", "-o", "f", "f")
	fh, err := r.FS.Open("/work/f")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(fh)
	if string(b) != "a\nb\nc\n" || r.Code != 0 {
		t.Errorf("-o f f: %q %d %q", b, r.Code, r.Stderr)
	}
}

func genLines(n int, seed int64) string {
	rng := rand.New(rand.NewSource(seed))
	words := []string{"apple", "Banana", "cherry", "date", "Elder", "fig", "grape", "10", "9", "-3", "1e3", "2K", "1M", "Jan", "feb", "DEC", "1.2.10", "1.2.9", "a1b", "  lead", "\ttab", "", "x y z", "same", "same", "0.5", "-0", "+4", "inf"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		k := rng.Intn(3) + 1
		for j := 0; j < k; j++ {
			if j > 0 {
				if rng.Intn(4) == 0 {
					b.WriteString(":")
				} else {
					b.WriteString(" ")
				}
			}
			b.WriteString(words[rng.Intn(len(words))])
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestSortGNU(t *testing.T) {
	data := genLines(400, 1)
	files := map[string]string{
		"data":   data,
		"data2":  genLines(200, 2),
		"sorted": "a\nb\nb\nc\n",
		"s1":     "a 1\nc 3\ne 5\n",
		"s2":     "b 2\nc 0\nd 4\n",
		"nonl":   "z\ny",
		"z":      "b\x00a\x00c",
		"nums":   "10\n9\n-1\n2.5\n-2.5\n0\n-0\n.5\n-.5\n1e2\n0x10\nabc\n\n 7\n+3\n1,000\n007\n",
		"human":  "1K\n2M\n1G\n500\n-1K\n0K\n1.5K\n1k\n3T\n",
		"months": "Feb\njan\n  MAR\nfoo\nDecember\nsep\n",
		"vers":   "a1.10\na1.9\na1.9~\n.a\n..\n.\nb\n1.0.tar.gz\n1.0\nfile10.txt\nfile9.txt\nfile1.txt\n",
		"rs":     "0123456789abcdef0123456789",
		"short":  "abc",
		"list":   "s1\x00s2\x00",
		"dir/":   "",
	}
	var cases []cmdtest.GNUCase
	flagsets := [][]string{
		{}, {"-r"}, {"-f"}, {"-d"}, {"-i"}, {"-b"}, {"-n"}, {"-g"}, {"-h"}, {"-M"}, {"-V"}, {"-u"}, {"-s"}, {"-fu"}, {"-nr"}, {"-nu"}, {"-rs"},
		{"-k2"}, {"-k2,2"}, {"-k2,2n"}, {"-k2n,2"}, {"-k3r"}, {"-k2,2", "-k1,1r"}, {"-k1.2,1.3"}, {"-k2.2b"}, {"-k2b,2"}, {"-b", "-k2,2"}, {"-k1,1", "-u"},
		{"-t:", "-k2"}, {"-t:", "-k2,2"}, {"-t", ":", "-k1,1", "-k2n"}, {"-t", " ", "-k2,2"}, {"-k2,2", "-s"}, {"-k2,2", "-r"}, {"-r", "-k2,2n"},
		{"-k1,1f", "-k2,2"}, {"-k1d"}, {"-k1i,1"}, {"-n", "-k2"}, {"--sort=numeric"}, {"--sort=month"}, {"-k2,1"}, {"-k1.3"}, {"-k1.10,1.1"},
		{"--stable", "--key=2,2"}, {"-R", "--random-source=rs"}, {"-R", "--random-source=rs", "-k2,2"}, {"-Ru", "--random-source=rs"}, {"+1"}, {"+1", "-2"}, {"+0.2", "-1.1"}, {"+1n"},
		{"-k2,2V"}, {"-k2h"}, {"-k2M"}, {"-k2g"}, {"-z"}, {"-bf", "-k1"}, {"-k1b,1b"}, {"-t", "\\0"},
	}
	for _, f := range flagsets {
		for _, in := range []string{"data"} {
			cases = append(cases, cmdtest.GNUCase{Files: files, Args: append(append([]string{"sort"}, f...), in)})
			cases = append(cases, cmdtest.GNUCase{Files: files, Args: append(append([]string{"sort"}, f...), in), Env: []string{"LC_ALL=C"}})
		}
	}
	for _, a := range [][]string{
		{"-n", "nums"}, {"-g", "nums"}, {"-h", "nums"}, {"-nr", "nums"}, {"-gu", "nums"}, {"-nu", "nums"}, {"-h", "human"}, {"-hr", "human"}, {"-M", "months"},
		{"-Mr", "months"}, {"-V", "vers"}, {"-Vr", "vers"}, {"-k1.2V", "vers"}, {"-c", "sorted"}, {"-cu", "sorted"}, {"-C", "sorted"}, {"-c", "data"}, {"-C", "data"},
		{"--check=quiet", "data"}, {"--check=silent", "sorted"}, {"--check=diagnose-first", "data"}, {"-c", "-"}, {"-c", "sorted", "data"}, {"-co", "out", "sorted"},
		{"-m", "s1", "s2"}, {"-m", "-k2n", "s1", "s2"}, {"-mu", "-k1,1", "s1", "s2", "s1"}, {"-m", "data", "data2"}, {"-m", "-r", "s2", "s1"},
		{"data", "data2"}, {"nonl", "short", "nonl"}, {"-z", "z"}, {"-z", "-r", "z"}, {"-cz", "z"}, {"--files0-from=list"}, {"--files0-from=nosuch"},
		{"--files0-from=list", "s1"}, {"-k0", "s1"}, {"-k1.0", "s1"}, {"-k1,0", "s1"}, {"-k1.x", "s1"}, {"-k1,x", "s1"}, {"-k1x", "s1"}, {"-k", "x"},
		{"-t", "ab", "s1"}, {"-t", "", "s1"}, {"-t", "a", "-t", "b", "s1"}, {"-nM", "s1"}, {"-nr", "-g", "s1"}, {"-Rn", "s1"}, {"-dn", "s1"}, {"-in", "s1"},
		{"-fn", "s1"}, {"-bn", "s1"}, {"-S", "x", "s1"}, {"-S", "10M", "s1"}, {"--parallel=0", "s1"}, {"--parallel=x", "s1"}, {"--parallel=2", "s1"},
		{"-o", "s1", "-o", "s2", "s1"}, {"--sort=foo", "s1"}, {"-m", "nosuch"}, {"--batch-size=1", "s1"}, {"--random-source=nosuch", "-R", "s1"},
		{"--random-source=short", "-R", "s1"}, {"-T", "/nonexist", "s1"}, {"--check=foo", "s1"}, {"-y", "s1"}, {"-y", "10", "s1"}, {"--frob", "s1"},
		{"-x"}, {"nosuch"}, {"dir"}, {"s1", "nosuch"}, {"-o", "nodir/x", "s1"}, {"-u", "-", "s1"}, {"-k2,2", "-k1,1", "-u", "s1", "s2"},
		{"-s", "-u", "s1"}, {"-cC", "s1"}, {"-Cc", "s1"}, {"--files0-from=-"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"sort"}, a...), Stdin: "q 9\nb 1\na 1\n"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}

// BenchmarkSort1M sorts one million random lines of about 16 bytes.
func BenchmarkSort1M(b *testing.B) {
	rng := rand.New(rand.NewSource(42))
	var in bytes.Buffer
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for i := 0; i < 1_000_000; i++ {
		n := 8 + rng.Intn(16)
		for j := 0; j < n; j++ {
			in.WriteByte(letters[rng.Intn(len(letters))])
		}
		in.WriteByte('\n')
	}
	data := in.Bytes()
	env := cmdtest.Env{}
	fsys := env.NewFS()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out bytes.Buffer
		out.Grow(len(data))
		c := &builtins.Call{Args: []string{"sort"}, Stdin: bytes.NewReader(data), Stdout: &out, Stderr: io.Discard, Dir: "/work", FS: fsys}
		if code := Run(context.Background(), c); code != 0 {
			b.Fatal(code)
		}
		if out.Len() != len(data) {
			b.Fatal(fmt.Sprint("bad output size ", out.Len()))
		}
	}
}
