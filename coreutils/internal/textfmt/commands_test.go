package textfmt_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/column"
	"github.com/bashbox/bashbox/coreutils/expand"
	fmtcmd "github.com/bashbox/bashbox/coreutils/fmt"
	"github.com/bashbox/bashbox/coreutils/fold"
	"github.com/bashbox/bashbox/coreutils/hexdump"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"
	"github.com/bashbox/bashbox/coreutils/nl"
	"github.com/bashbox/bashbox/coreutils/od"
	"github.com/bashbox/bashbox/coreutils/rev"
	"github.com/bashbox/bashbox/coreutils/split"
	stringscmd "github.com/bashbox/bashbox/coreutils/strings"
	"github.com/bashbox/bashbox/coreutils/tac"
	"github.com/bashbox/bashbox/coreutils/unexpand"
	"github.com/bashbox/bashbox/coreutils/xxd"
)

var commands = map[string]builtins.Command{
	"column": column.Run, "expand": expand.Run, "fmt": fmtcmd.Run, "fold": fold.Run,
	"hexdump": hexdump.Run, "nl": nl.Run, "od": od.Run, "rev": rev.Run, "split": split.Run,
	"strings": stringscmd.Run, "tac": tac.Run, "unexpand": unexpand.Run, "xxd": xxd.Run,
}

func TestHelpAndVersion(t *testing.T) {
	for name, cmd := range commands {
		env := cmdtest.Env{}
		r := env.Run(cmd, name, "--help")
		if r.Code != 0 || !strings.Contains(r.Stdout, "Usage") || !strings.Contains(r.Stdout, name) {
			t.Errorf("%s --help: code %d, stdout %q", name, r.Code, r.Stdout)
		}
		r = env.Run(cmd, name, "--version")
		if r.Code != 0 || !strings.HasPrefix(r.Stdout, name+" (bashbox) ") {
			t.Errorf("%s --version: code %d, stdout %q", name, r.Code, r.Stdout)
		}
	}
}

// brokenPipe fails every write as a closed pipe does.
type brokenPipe struct{}

func (brokenPipe) Write(p []byte) (int, error) { return 0, builtins.ErrPipeClosed }

// failing fails every write with another error.
type failing struct{}

func (failing) Write(p []byte) (int, error) { return 0, errors.New("no space left on device") }

func run(cmd builtins.Command, out io.Writer, stdin string, args ...string) (int, string) {
	fsys := (&cmdtest.Env{}).NewFS()
	var errb bytes.Buffer
	c := &builtins.Call{Args: args, Stdin: strings.NewReader(stdin), Stdout: out, Stderr: &errb,
		Env: []string{"LANG=C.UTF-8"}, Dir: "/work", FS: fsys}
	return cmd(context.Background(), c), errb.String()
}

func TestBrokenPipeAndWriteErrors(t *testing.T) {
	input := strings.Repeat("some words here\tand\tthere  \n", 20000)
	args := map[string][]string{
		"column": {"column"}, "expand": {"expand"}, "fmt": {"fmt"}, "fold": {"fold", "-w", "5"},
		"hexdump": {"hexdump", "-C"}, "nl": {"nl"}, "od": {"od", "-c"}, "rev": {"rev"},
		"split": {"split", "-n", "1/2"}, "strings": {"strings"}, "tac": {"tac"},
		"unexpand": {"unexpand", "-a"}, "xxd": {"xxd"},
	}
	for name, cmd := range commands {
		code, stderr := run(cmd, brokenPipe{}, input, args[name]...)
		if code != 141 || stderr != "" {
			t.Errorf("%s on a broken pipe: code %d, stderr %q", name, code, stderr)
		}
		code, stderr = run(cmd, failing{}, input, args[name]...)
		if code == 0 || !strings.Contains(stderr, "write error") {
			t.Errorf("%s on a failing stdout: code %d, stderr %q", name, code, stderr)
		}
	}
}

func TestCancelledContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	input := strings.Repeat("line of text\n", 100000)
	for name, cmd := range commands {
		fsys := (&cmdtest.Env{}).NewFS()
		var out bytes.Buffer
		c := &builtins.Call{Args: []string{name}, Stdin: strings.NewReader(input), Stdout: &out, Stderr: io.Discard,
			Env: []string{"LANG=C.UTF-8"}, Dir: "/work", FS: fsys}
		cmd(ctx, c)
		if out.Len() >= len(input) && name != "column" {
			t.Errorf("%s ignored the cancelled context (%d bytes out)", name, out.Len())
		}
	}
}

func TestTabStops(t *testing.T) {
	quote := func(s string) string { return "'" + s + "'" }
	var ts textfmt.TabStops
	if err := ts.Parse("2,5", quote); err != nil {
		t.Fatal(err)
	}
	if err := ts.Finish(); err != nil {
		t.Fatal(err)
	}
	idx := 0
	for _, c := range []struct {
		col, next uint64
		last      bool
	}{{0, 2, false}, {2, 5, false}, {5, 0, true}} {
		n, last := ts.Next(c.col, &idx)
		if n != c.next || last != c.last {
			t.Errorf("Next(%d) = %d, %v; want %d, %v", c.col, n, last, c.next, c.last)
		}
	}
	for spec, msg := range map[string]string{
		"0": "tab size cannot be 0", "4,2": "tab sizes must be ascending",
		"x": "tab size contains invalid character(s): 'x'", "/2,/3": "'/' specifier only allowed with the last value",
	} {
		var ts textfmt.TabStops
		err := ts.Parse(spec, quote)
		if err == nil {
			err = ts.Finish()
		}
		if err == nil || err.Error() != msg {
			t.Errorf("%q: error %v, want %q", spec, err, msg)
		}
	}
}

func TestRegexTranslation(t *testing.T) {
	cases := []struct {
		pat    string
		syn    textfmt.Syntax
		match  string
		nomatc string
	}{
		{`a\+b`, textfmt.BRE, "aab", "a+b"},
		{`a+b`, textfmt.BRE, "a+b", "aab"},
		{`a+b`, textfmt.Emacs, "aab", "a+b"},
		{`x\{2\}`, textfmt.BRE, "xx", "x"},
		{`b\|c`, textfmt.BRE, "c", "a"},
		{`[[:digit:]]`, textfmt.BRE, "5", "a"},
		{`^*a`, textfmt.BRE, "*a", "a"},
		{`(a)`, textfmt.BRE, "(a)", "a"},
	}
	for _, c := range cases {
		re, err := textfmt.CompileRegex(c.pat, c.syn)
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		if !re.MatchString(c.match) || re.MatchString(c.nomatc) {
			t.Errorf("%q: match %q=%v, %q=%v", c.pat, c.match, re.MatchString(c.match), c.nomatc, re.MatchString(c.nomatc))
		}
	}
	for _, bad := range []string{`\(`, `a\)`, `[a`, `a\{1`} {
		if _, err := textfmt.CompileRegex(bad, textfmt.BRE); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}

func TestStringWidth(t *testing.T) {
	for s, w := range map[string]int{"abc": 3, "héllo": 5, "日本": 4, "a\tb": 2, "e\u0301": 1} {
		if got := wcwidth.StringWidth(s); got != w {
			t.Errorf("StringWidth(%q) = %d, want %d", s, got, w)
		}
	}
}
