package split

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/internal/gnutest"
)

func seqLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("\n")
	}
	return b.String()
}

// outputs lists the files split made (everything but "in"), as
// "name=content" lines.
func outputs(names []string, read func(string) string) string {
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		if n == "in" {
			continue
		}
		b.WriteString(n + "=" + read(n) + "\n")
	}
	return b.String()
}

func TestSplitAgainstReal(t *testing.T) {
	in5 := "1\n2\n3\n4\n5\n"
	cases := []struct {
		name  string
		args  []string
		input string
		want  string // expected file listing
	}{
		{name: "lines", args: []string{"-l", "2", "in"}, input: in5, want: "xaa=1\n2\n\nxab=3\n4\n\nxac=5\n\n"},
		{name: "numeric prefix", args: []string{"-l", "2", "-d", "in", "p_"}, input: in5, want: "p_00=1\n2\n\np_01=3\n4\n\np_02=5\n\n"},
		{name: "default 1000 lines", args: []string{"in"}, input: seqLines(2100)},
		{name: "auto widening suffixes", args: []string{"-l", "1", "in"}, input: seqLines(700)},
		{name: "bytes", args: []string{"-b", "7", "in"}, input: in5 + in5},
		{name: "bytes unit", args: []string{"-b", "1K", "in"}, input: strings.Repeat("y", 2500)},
		{name: "line bytes", args: []string{"-C", "5", "in"}, input: "abcdefgh\nij\nk\nlmnopqrstuvwxyz\n"},
		{name: "chunks", args: []string{"-n", "3", "in"}, input: in5},
		{name: "more chunks than bytes", args: []string{"-n", "20", "in"}, input: in5},
		{name: "line chunks", args: []string{"-n", "l/8", "in"}, input: in5},
		{name: "elide empty", args: []string{"-e", "-n", "l/8", "in"}, input: in5},
		{name: "round robin", args: []string{"-n", "r/2", "in"}, input: in5},
		{name: "long suffix for many chunks", args: []string{"-n", "1000", "in"}, input: in5},
		{name: "additional suffix", args: []string{"-l", "1", "-a", "3", "--additional-suffix=.txt", "in", "out"}, input: "a\nb\n"},
		{name: "hex", args: []string{"-x", "-l", "1", "in"}, input: seqLines(20)},
		{name: "nul separator", args: []string{"-t", `\0`, "-l", "1", "in"}, input: "a\x00bb\x00ccc\x00"},
		{name: "exhausted", args: []string{"-l", "1", "-a", "1", "-d", "in"}, input: seqLines(12)},
		{name: "empty input", args: []string{"in"}, input: ""},
		{name: "no final newline", args: []string{"-l", "2", "in"}, input: "a\nb\nc"},
	}
	realSplit, err := exec.LookPath("split")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := cmdtest.Env{Files: map[string]string{"in": tc.input}}
			got := env.Run(Run, append([]string{"split"}, tc.args...)...)
			entries, _ := got.FS.ReadDir("/work")
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			gotFiles := outputs(names, func(n string) string {
				f, err := got.FS.Open("/work/" + n)
				if err != nil {
					return "<" + err.Error() + ">"
				}
				defer f.Close()
				data, _ := io.ReadAll(f)
				return string(data)
			})
			if tc.want != "" && gotFiles != tc.want {
				t.Errorf("files:\n%s\nwant:\n%s", gotFiles, tc.want)
			}
			if err != nil {
				return
			}
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "in"), []byte(tc.input), 0o644)
			cmd := exec.Command(realSplit, tc.args...)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C.UTF-8"}
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			code := 0
			if err := cmd.Run(); err != nil {
				code = err.(*exec.ExitError).ExitCode()
			}
			des, _ := os.ReadDir(dir)
			var realNames []string
			for _, d := range des {
				realNames = append(realNames, d.Name())
			}
			realFiles := outputs(realNames, func(n string) string {
				data, _ := os.ReadFile(filepath.Join(dir, n))
				return string(data)
			})
			if gotFiles != realFiles {
				t.Errorf("files differ from real split:\n%s\nreal:\n%s", gotFiles, realFiles)
			}
			if got.Stdout != out.String() || got.Stderr != strings.ReplaceAll(errb.String(), realSplit, "split") || got.Code != code {
				t.Errorf("got (%q, %q, %d), real (%q, %q, %d)", got.Stdout, got.Stderr, got.Code, out.String(), errb.String(), code)
			}
		})
	}
}

func TestSplitStdoutAndErrors(t *testing.T) {
	cases := []gnutest.Case{
		{Name: "kth chunk", Args: []string{"-n", "2/3", "in"}, Files: map[string]string{"in": "1\n2\n3\n4\n5\n6\n"}, Want: "3\n4\n"},
		{Name: "kth line chunk", Args: []string{"-n", "l/2/3", "in"}, Files: map[string]string{"in": "1\n2\n3\n4\n5\n6\n"}, Want: "3\n4\n"},
		{Name: "kth round robin", Args: []string{"-n", "r/2/3", "in"}, Files: map[string]string{"in": "1\n2\n3\n4\n5\n6\n"}, Want: "2\n5\n"},
		{Name: "verbose", Args: []string{"--verbose", "-l", "1", "in"}, Files: map[string]string{"in": "a\nb\n"}, Want: "creating file 'xaa'\ncreating file 'xab'\n"},
		{Name: "zero lines", Args: []string{"-l", "0", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "bad bytes", Args: []string{"-b", "1Q", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "bad chunks", Args: []string{"-n", "x", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "bad chunk number", Args: []string{"-n", "4/3", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "two ways", Args: []string{"-l", "2", "-b", "3", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "extra operand", Args: []string{"in", "a", "b"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "missing", Args: []string{"nope"}, Fails: true},
		{Name: "bad start", Args: []string{"--numeric-suffixes=x", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "multichar separator", Args: []string{"-t", "ab", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
		{Name: "suffix too short", Args: []string{"-a", "2", "-n", "700", "in"}, Files: map[string]string{"in": "a\n"}, Fails: true},
	}
	gnutest.CheckCases(t, "split", Run, cases)
}
