package git

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func TestParseDate(t *testing.T) {
	// Expected values are what git 2.39 stores for GIT_AUTHOR_DATE (TZ=UTC).
	cases := []struct {
		in   string
		when int64
		tz   string
		ok   bool
	}{
		{"2024-01-01T00:00:00Z", 1704067200, "+0000", true},
		{"2024-01-01 12:34:56 +0530", 1704092696, "+0530", true},
		{"@1704067200 +0100", 1704067200, "+0100", true},
		{"1704067200 -0700", 1704067200, "-0700", true},
		{"Mon, 1 Jan 2024 10:00:00 +0200", 1704096000, "+0200", true},
		{"Mon Jan 1 10:00:00 2024 +0300", 1704092400, "+0300", true},
		{"2024-01-01T00:00:00", 1704067200, "+0000", true},
		{"2024-01-01T00:00:00.123+01:00", 1704063600, "+0100", true},
		{"2024-01-01", 0, "", false},
		{"garbage", 0, "", false},
	}
	g := &cmd{c: &builtins.Call{Env: []string{"TZ=UTC"}}}
	for _, c := range cases {
		when, tz, ok := g.parseDate(c.in)
		if ok != c.ok || (ok && (when != c.when || tz != c.tz)) {
			t.Errorf("parseDate(%q) = %d %s %v, want %d %s %v", c.in, when, tz, ok, c.when, c.tz, c.ok)
		}
	}
}

func TestWildmatch(t *testing.T) {
	cases := []struct {
		pat, text string
		pathname  bool
		want      bool
	}{
		{"*.c", "a.c", true, true},
		{"*.c", "d/a.c", true, false},
		{"*.c", "d/a.c", false, true},
		{"a/**/b", "a/b", true, true},
		{"a/**/b", "a/x/y/b", true, true},
		{"**/tmp", "tmp", true, true},
		{"**/tmp", "x/y/tmp", true, true},
		{"a/**", "a/b/c", true, true},
		{"a/**", "a", true, false},
		{"[ab].c", "b.c", true, true},
		{"[!ab].c", "b.c", true, false},
		{"[a-c]x", "bx", true, true},
		{"[[:digit:]]*", "7up", true, true},
		{"x?", "xy", true, true},
		{"x?", "x/", true, false},
		{"\\#hash", "#hash", true, true},
		{"foo*bar", "foo/bar", true, false},
		{"foo**bar", "fooxbar", true, true},
	}
	for _, c := range cases {
		if got := wildmatch(c.pat, c.text, c.pathname); got != c.want {
			t.Errorf("wildmatch(%q, %q, %v) = %v", c.pat, c.text, c.pathname, got)
		}
	}
}

func TestQuoting(t *testing.T) {
	cases := map[string]string{
		"plain.txt":  "plain.txt",
		"sp ace":     "sp ace",
		"ü.txt":      `"\303\274.txt"`,
		"tab\tname":  `"tab\tname"`,
		`q"uote`:     `"q\"uote"`,
		`back\slash`: `"back\\slash"`,
	}
	for in, want := range cases {
		if got := quoteC(in, true); got != want {
			t.Errorf("quoteC(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestBillyAdapter(t *testing.T) {
	env := &cmdtest.Env{Files: map[string]string{"repo/a": "x", "repo/link": "->a"}}
	fsys := env.NewFS()
	b := newBillyFS(fsys, "/work/repo")
	f, err := b.Create("sub/dir/new")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("hello"))
	if f.Name() != "sub/dir/new" {
		t.Errorf("name %q", f.Name())
	}
	f.Close()
	r, err := b.Open("/sub/dir/new")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(r)
	r.Close()
	if string(data) != "hello" {
		t.Errorf("read %q", data)
	}
	if err := b.Rename("sub/dir/new", "other/renamed"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Stat("other/renamed"); err != nil {
		t.Error(err)
	}
	tmp, err := b.TempFile("tmpdir", "pre_")
	if err != nil || !strings.HasPrefix(tmp.Name(), "tmpdir/pre_") {
		t.Fatalf("tempfile %v %v", tmp, err)
	}
	tmp.Close()
	if target, err := b.Readlink("link"); err != nil || target != "a" {
		t.Errorf("readlink %q %v", target, err)
	}
	if fi, err := b.Lstat("link"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("lstat %v %v", fi, err)
	}
	sub, err := b.Chroot("other")
	if err != nil || sub.Root() != "/work/repo/other" {
		t.Fatalf("chroot %v %v", sub, err)
	}
	entries, err := sub.ReadDir("/")
	if err != nil || len(entries) != 1 || entries[0].Name() != "renamed" {
		t.Errorf("readdir %v %v", entries, err)
	}
	if _, err := b.Open("../escape"); err == nil {
		t.Error("opened a path above the root")
	}
	if err := b.Remove("other/renamed"); err != nil {
		t.Error(err)
	}
}

func TestConfigEditing(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	p.git("init", "-q", "-b", "main")
	steps := [][]string{
		{"config", "user.name", "X Y"},
		{"config", "User.Email", "e@x"},
		{"config", "core.foo", " lead"},
		{"config", "a.b.c", "has;semi"},
		{"config", "Sect.Sub.Key", "v"},
		{"config", "--add", "m.v", "1"},
		{"config", "--add", "m.v", "2"},
		{"config", "m.v", "3"},
		{"config", "--replace-all", "m.v", "4"},
		{"config", "x.y", "tab\there"},
		{"config", "--unset", "core.foo"},
		{"config", "--rename-section", "a.b", "a.c"},
		{"config", "--list", "--local"},
		{"config", "--get-regexp", "^(m|x)\\."},
		{"config", "--bool", "core.bare"},
		{"config", "--remove-section", "sect.Sub"},
		{"config", "--remove-section", "nothing"},
	}
	for _, s := range steps {
		p.git(s...)
	}
	data, _ := os.ReadFile(p.real + "/.git/config")
	boxData, _ := os.ReadFile(p.box + "/.git/config")
	if string(data) != string(boxData) {
		t.Errorf("config files differ:\n%s\n---\n%s", data, boxData)
	}
}
