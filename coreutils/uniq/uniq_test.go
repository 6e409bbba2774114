package uniq

import (
	"io"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestUniq(t *testing.T) {
	files := map[string]string{"f": "a\na\nb\nA\nc\nc\nc"}
	tests := []cmdtest.Expectation{
		{Args: []string{"uniq", "f"}, Stdout: "a\nb\nA\nc\n", Code: 0},
		{Args: []string{"uniq", "-c", "f"}, Stdout: "      2 a\n      1 b\n      1 A\n      3 c\n", Code: 0},
		{Args: []string{"uniq", "-d", "f"}, Stdout: "a\nc\n", Code: 0},
		{Args: []string{"uniq", "-u", "f"}, Stdout: "b\nA\n", Code: 0},
		{Args: []string{"uniq", "-i", "f"}, Stdout: "a\nb\nA\nc\n", Code: 0},
		{Args: []string{"uniq", "-D", "f"}, Stdout: "a\na\nc\nc\nc\n", Code: 0},
		{Args: []string{"uniq", "-cD", "f"}, Stdout: "", Code: 1},
	}
	cmdtest.Expect(t, Run, files, tests)
	env := cmdtest.Env{Files: files}
	r := env.Run(Run, "uniq", "f", "out")
	f, err := r.FS.Open("/work/out")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	if string(b) != "a\nb\nA\nc\n" || r.Stdout != "" {
		t.Errorf("output file: %q, stdout %q", b, r.Stdout)
	}
}

func TestUniqGNU(t *testing.T) {
	files := map[string]string{
		"f":     "a\na\nb\nA\nc\nc\nc",
		"fld":   "1 x\n2 x\n3  y\n\t4 y\n5 z\nfoo bar\nfoo  bar\n",
		"caps":  "Hello\nhello\nHELLO\nworld\nWorld\n",
		"z":     "a\x00a\x00b\x00",
		"one":   "only\n",
		"blank": "\n\n\nx\n\n",
		"dir/":  "",
	}
	var cases []cmdtest.GNUCase
	flagsets := [][]string{{}, {"-c"}, {"-d"}, {"-u"}, {"-D"}, {"-cd"}, {"-cu"}, {"-du"}, {"-i"}, {"-ic"}, {"-f", "1"}, {"-f1", "-c"},
		{"-s", "2"}, {"-s1", "-w1"}, {"-w", "2"}, {"-w0"}, {"-1"}, {"-2"}, {"-f", "1", "-2"}, {"-1", "-f", "0"},
		{"--all-repeated=separate"}, {"--all-repeated=prepend"}, {"--all-repeated=none"}, {"--all-repeated"},
		{"--group"}, {"--group=prepend"}, {"--group=append"}, {"--group=both"}, {"--group=separate"}, {"-iD"},
		{"--skip-fields=1", "--check-chars=1"}, {"-c", "-s", "99999999999999999999999"}}
	for _, f := range flagsets {
		for _, in := range []string{"f", "fld", "caps", "one", "blank"} {
			cases = append(cases, cmdtest.GNUCase{Files: files, Args: append(append([]string{"uniq"}, f...), in)})
		}
	}
	for _, a := range [][]string{
		{"-z", "z"}, {"-zc", "z"}, {}, {"-"}, {"nosuch"}, {"dir"}, {"f", "nodir/out"}, {"a", "b", "c"},
		{"-cD", "f"}, {"--group", "-c", "f"}, {"--group=x", "f"}, {"--all-repeated=x", "f"}, {"--group=", "f"},
		{"-f", "x", "f"}, {"-s", "-1", "f"}, {"-w", "1k", "f"}, {"--frob"}, {"-x"}, {"+1", "f"}, {"+x", "f"}, {"f", "+2"},
	} {
		cases = append(cases, cmdtest.GNUCase{Files: files, Args: append([]string{"uniq"}, a...), Stdin: "x\nx\ny\n"})
	}
	cmdtest.CheckGNU(t, Run, cases)
}
