package mktemp_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins/cmdtest"
	"github.com/bashbox/bashbox/coreutils/mktemp"
)

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     []string
		args    []string
		pattern string
		create  string // "file", "dir" or "" (dry run)
	}{
		{"default", nil, []string{"mktemp"}, `^/tmp/tmp\.[A-Za-z0-9]{10}$`, "file"},
		{"TMPDIR", []string{"TMPDIR=/work"}, []string{"mktemp"}, `^/work/tmp\.[A-Za-z0-9]{10}$`, "file"},
		{"empty TMPDIR", []string{"TMPDIR="}, []string{"mktemp", "-d"}, `^/tmp/tmp\.[A-Za-z0-9]{10}$`, "dir"},
		{"template", nil, []string{"mktemp", "fooXXX"}, `^foo[A-Za-z0-9]{3}$`, "file"},
		{"suffix in template", nil, []string{"mktemp", "-u", "fooXXXXbar"}, `^foo[A-Za-z0-9]{4}bar$`, ""},
		{"suffix option", nil, []string{"mktemp", "--suffix=.txt", "aXXX"}, `^a[A-Za-z0-9]{3}\.txt$`, "file"},
		{"p", nil, []string{"mktemp", "-p", "/work", "-d", "x.XXXX"}, `^/work/x\.[A-Za-z0-9]{4}$`, "dir"},
		{"p slash", nil, []string{"mktemp", "-u", "-p", "/work", "a/bXXX"}, `^/work/a/b[A-Za-z0-9]{3}$`, ""},
		{"tmpdir", []string{"TMPDIR=/work"}, []string{"mktemp", "--tmpdir", "qXXX"}, `^/work/q[A-Za-z0-9]{3}$`, "file"},
		{"t prefers TMPDIR", []string{"TMPDIR=/home/user"}, []string{"mktemp", "-t", "-p", "/work", "qXXX"}, `^/home/user/q[A-Za-z0-9]{3}$`, "file"},
		{"dry run", nil, []string{"mktemp", "-u"}, `^/tmp/tmp\.[A-Za-z0-9]{10}$`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := &cmdtest.Env{Env: tc.env}
			res := env.Run(mktemp.Run, tc.args...)
			name := strings.TrimSuffix(res.Stdout, "\n")
			if res.Code != 0 || !regexp.MustCompile(tc.pattern).MatchString(name) {
				t.Fatalf("got %q %q %d, want %s", res.Stdout, res.Stderr, res.Code, tc.pattern)
			}
			abs := name
			if !strings.HasPrefix(abs, "/") {
				abs = "/work/" + abs
			}
			fi, err := res.FS.Stat(abs)
			switch tc.create {
			case "":
				if err == nil {
					t.Error("dry run created", abs)
				}
			case "file":
				if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
					t.Errorf("file %v %v", fi, err)
				}
			case "dir":
				if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
					t.Errorf("dir %v %v", fi, err)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"mktemp", "XX"}, "mktemp: too few X's in template ‘XX’\n"},
		{[]string{"mktemp", "-t", "a/XXX"}, "mktemp: invalid template, ‘a/XXX’, contains directory separator\n"},
		{[]string{"mktemp", "-p", "/work", "/abs/XXX"}, "mktemp: invalid template, ‘/abs/XXX’; with --tmpdir, it may not be absolute\n"},
		{[]string{"mktemp", "--suffix=x", "aXXXb"}, "mktemp: with --suffix, template ‘aXXXb’ must end in X\n"},
		{[]string{"mktemp", "--suffix=a/b", "XXX"}, "mktemp: invalid suffix ‘a/b’, contains directory separator\n"},
		{[]string{"mktemp", "-p", "/nope"}, "mktemp: failed to create file via template ‘/nope/tmp.XXXXXXXXXX’: No such file or directory\n"},
		{[]string{"mktemp", "-d", "-p", "/nope"}, "mktemp: failed to create directory via template ‘/nope/tmp.XXXXXXXXXX’: No such file or directory\n"},
		{[]string{"mktemp", "-q", "-p", "/nope"}, ""},
		{[]string{"mktemp", "a", "b"}, "mktemp: too many templates\nTry 'mktemp --help' for more information.\n"},
	} {
		res := (&cmdtest.Env{}).Run(mktemp.Run, tc.args...)
		if res.Code != 1 || res.Stderr != tc.stderr || res.Stdout != "" {
			t.Errorf("%q: got %q %q %d, want %q", tc.args, res.Stdout, res.Stderr, res.Code, tc.stderr)
		}
	}
}
