package cmp_test

import (
	"bytes"
	"context"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/cmp"
)

type scenario struct {
	name  string
	files map[string]string
	args  []string
	stdin string
	env   []string
}

// check compares sc with GNU cmp, in LC_ALL=C.UTF-8 unless sc sets its
// own environment.
func check(t *testing.T, sc scenario) {
	t.Helper()
	env := sc.env
	if env == nil {
		env = []string{"LC_ALL=C.UTF-8"}
	}
	cmdtest.CheckGNUWith(t, cmp.Run, env, []cmdtest.GNUCase{{Files: sc.files, Stdin: sc.stdin, Args: append([]string{"cmp"}, sc.args...)}})
}

func requireGNU(t *testing.T) {
	if _, err := os.Stat("/usr/bin/cmp"); err != nil {
		t.Skip("no /usr/bin/cmp")
	}
}

func TestAgainstGNU(t *testing.T) {
	requireGNU(t)
	f := map[string]string{
		"c1": "abc\ndef\n", "c2": "abc\ndxf\n", "c3": "abc\n", "c4": "abc", "e": "",
		"b1": "\x01\xff\x7f a", "b2": "\x02\xfe\x7f b", "d/": "",
		"big1": strings.Repeat("line of text\n", 20000) + "x", "big2": strings.Repeat("line of text\n", 20000) + "y",
	}
	scenarios := []scenario{
		{name: "differ", args: []string{"c1", "c2"}},
		{name: "same", args: []string{"c1", "c1"}},
		{name: "eof line", args: []string{"c1", "c3"}},
		{name: "eof reversed", args: []string{"c3", "c1"}},
		{name: "eof in line", args: []string{"c4", "c1"}},
		{name: "empty", args: []string{"e", "c1"}},
		{name: "verbose", args: []string{"-l", "c1", "c2"}},
		{name: "verbose eof", args: []string{"-l", "c1", "c3"}},
		{name: "verbose bytes", args: []string{"-bl", "b1", "b2"}},
		{name: "verbose nonprint", args: []string{"-l", "b1", "b2"}},
		{name: "print bytes", args: []string{"-b", "b1", "b2"}},
		{name: "print chars", args: []string{"--print-chars", "c1", "c2"}},
		{name: "silent", args: []string{"-s", "c1", "c2"}},
		{name: "quiet eof", args: []string{"--quiet", "c1", "c3"}},
		{name: "silent same", args: []string{"--silent", "c1", "c1"}},
		{name: "limit", args: []string{"-n", "5", "c1", "c2"}},
		{name: "limit hex", args: []string{"-n", "0x3", "c1", "c2"}},
		{name: "limit suffix", args: []string{"--bytes=1K", "c1", "c2"}},
		{name: "bad limit", args: []string{"-n", "-1", "c1", "c2"}},
		{name: "skip", args: []string{"-i", "6", "c1", "c2"}},
		{name: "skip pair", args: []string{"-i", "4:4", "c1", "c2"}},
		{name: "skip pair differ", args: []string{"--ignore-initial=2:1", "c1", "c2"}},
		{name: "skip bad", args: []string{"-i", "1:2:3", "c1", "c2"}},
		{name: "skip suffix", args: []string{"-i", "1kB", "c1", "c2"}},
		{name: "skip operands", args: []string{"c1", "c2", "1", "1"}},
		{name: "skip octal operand", args: []string{"c1", "c2", "010", "1"}},
		{name: "skip bad operand", args: []string{"c1", "c2", "c3"}},
		{name: "extra operand", args: []string{"c1", "c2", "1", "2", "3"}},
		{name: "missing operand", args: []string{}},
		{name: "stdin", args: []string{"-", "c1"}, stdin: "abc\ndeX"},
		{name: "stdin implicit", args: []string{"c1"}, stdin: "abc\ndef\n"},
		{name: "missing file", args: []string{"c1", "nosuch"}},
		{name: "missing file silent", args: []string{"-s", "nosuch", "c1"}},
		{name: "same name missing", args: []string{"nosuch", "nosuch"}},
		{name: "l and s", args: []string{"-l", "-s", "c1", "c2"}},
		{name: "bad option", args: []string{"-x", "c1", "c2"}},
		{name: "directory", args: []string{"d", "c1"}},
		{name: "big", args: []string{"big1", "big2"}},
		{name: "big verbose", args: []string{"-l", "big1", "big2"}},
		{name: "big limit", args: []string{"-l", "-n", "300000", "big1", "big2"}},
		{name: "c locale", args: []string{"c1", "c2"}, env: []string{"LC_ALL=C"}},
		{name: "help", args: []string{"--help"}},
	}
	for _, sc := range scenarios {
		sc.files = f
		t.Run(sc.name, func(t *testing.T) { check(t, sc) })
	}
}

func TestRandomAgainstGNU(t *testing.T) {
	requireGNU(t)
	r := rand.New(rand.NewSource(3))
	alphabet := "ab\n\x00\xff"
	gen := func() string {
		b := make([]byte, r.Intn(40))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	argSets := [][]string{{}, {"-l"}, {"-b"}, {"-bl"}, {"-s"}, {"-n", "7"}, {"-i", "3"}, {"-i", "2:5", "-l"}}
	for it := 0; it < 300; it++ {
		a := gen()
		b := a
		if r.Intn(3) > 0 {
			b = gen()
		} else if len(a) > 0 {
			bb := []byte(a)
			bb[r.Intn(len(bb))] = 'z'
			b = string(bb)
			if r.Intn(2) == 0 {
				b = b[:r.Intn(len(b)+1)]
			}
		}
		sc := scenario{files: map[string]string{"a": a, "b": b}, args: append(append([]string{}, argSets[r.Intn(len(argSets))]...), "a", "b")}
		check(t, sc)
		if t.Failed() {
			t.Fatalf("files: a=%q b=%q", a, b)
		}
	}
}

// TestStreamOrder checks the EOF message's place among the output when
// both go to the same stream, as with 2>&1.
func TestStreamOrder(t *testing.T) {
	requireGNU(t)
	long := strings.Repeat("abcdefghij", 900)
	for _, files := range []map[string]string{
		{"a": "abcdef\n", "b": "aXc"},
		{"a": long + "x", "b": strings.ToUpper(long)},
	} {
		dir := t.TempDir()
		for k, v := range files {
			if err := os.WriteFile(filepath.Join(dir, k), []byte(v), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("/usr/bin/cmp", "-l", "a", "b")
		cmd.Args[0] = "cmp"
		cmd.Dir = dir
		var both bytes.Buffer
		cmd.Stdout, cmd.Stderr = &both, &both
		cmd.Run()
		env := cmdtest.Env{Files: files}
		var ours bytes.Buffer
		fsys := env.NewFS()
		c := &builtins.Call{Args: []string{"cmp", "-l", "a", "b"}, Dir: "/work", FS: fsys, Stdout: &ours, Stderr: &ours,
			Stdin: strings.NewReader("")}
		cmp.Run(context.Background(), c)
		if both.String() != ours.String() {
			t.Errorf("interleaving differs:\nwant %q\ngot  %q", both.String(), ours.String())
		}
	}
}
