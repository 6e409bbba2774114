package pattern

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dirFS is the host directory tree under root, for tests only.
type dirFS string

func (d dirFS) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(string(d), name)
}
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(d.path(name)) }
func (d dirFS) Stat(name string) (fs.FileInfo, error)      { return os.Stat(d.path(name)) }
func (d dirFS) Lstat(name string) (fs.FileInfo, error)     { return os.Lstat(d.path(name)) }

func makeTree(t *testing.T) string {
	root := t.TempDir()
	for _, f := range []string{"a.go", "b.txt", ".hid", "B.go", "d/f.go", "d/e/g.go", "d/.x/h.go", ".h/x/y.go",
		"a/z", "a.b/c", "sp ace.go", "[x].go", "star*.go", "é.go", "q?.txt", "nodir/.keep"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("d", filepath.Join(root, "ld")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(root, "dangling")); err != nil {
		t.Fatal(err)
	}
	return root
}

type globCase struct {
	pat    string
	shopts string // shopt -s names
	ignore string // GLOBIGNORE
}

func TestGlobAgainstBash(t *testing.T) {
	root := makeTree(t)
	pats := []string{"*", ".*", "*.go", "*/", "*/*.go", "*/*", "d/*", "d/**", "**", "**/", "**/*.go", "d/**/*.go",
		"**/**/*.go", "*/e/*", "[ab]*", "[!a]*", "?.go", "*\\.go", "\\[*", "*\\**", "q\\?.txt", "*/f.go", "*/.keep",
		"d//*.go", "./*.go", "nope/*", "a.go/*", "[.]*", "@(a|b)*", "!(*.go)", "*.@(go|txt)", "+([a-z]).go",
		"?(.)h*", "@(.h|d)", "*[[:space:]]*", "é*", "*.GO", "D/*", "dang*", "l*/", "*/.*", "d/.*/*"}
	optSets := []string{"", "dotglob", "globstar", "globstar dotglob", "nocaseglob"}
	var cases []globCase
	for _, o := range optSets {
		for _, p := range pats {
			cases = append(cases, globCase{pat: p, shopts: o})
		}
	}
	for _, ig := range []string{"*.go", "d*", "*", "a*:b*", "*/*", ".h*"} {
		for _, p := range []string{"*", "*/*", ".*", "d/*"} {
			cases = append(cases, globCase{pat: p, ignore: ig})
		}
	}
	var script strings.Builder
	fmt.Fprintf(&script, "cd %s || exit 1\nshopt -s extglob nullglob\n", bashQuote(root))
	for _, c := range cases {
		script.WriteString("(")
		if c.shopts != "" {
			fmt.Fprintf(&script, "shopt -s %s; ", c.shopts)
		}
		if c.ignore != "" {
			fmt.Fprintf(&script, "GLOBIGNORE=%s; ", bashQuote(c.ignore))
		}
		// The pattern is spelled literally so bash reads it as a glob.
		fmt.Fprintf(&script, "eval 'set -- '%s; printf '%%s\\x01' \"$@\"); printf '\\x02'\n", bashQuote(c.pat))
	}
	recs := strings.Split(runBash(t, script.String()), "\x02")
	if len(recs) != len(cases)+1 {
		t.Fatalf("bash printed %d records for %d cases", len(recs)-1, len(cases))
	}
	fsys := dirFS(root)
	for k, c := range cases {
		want := strings.TrimSuffix(recs[k], "\x01")
		opt := GlobOptions{Flags: ExtGlob}
		for _, o := range strings.Fields(c.shopts) {
			switch o {
			case "dotglob":
				opt.DotGlob = true
			case "globstar":
				opt.GlobStar = true
			case "nocaseglob":
				opt.Flags |= NoCase
			}
		}
		if c.ignore != "" {
			opt.Ignore = strings.Split(c.ignore, ":")
		}
		var got []string
		if HasMeta(c.pat, opt.Flags) {
			var err error
			got, err = Glob(context.Background(), fsys, c.pat, opt)
			if err != nil {
				t.Fatal(err)
			}
		} else if _, err := fsys.Lstat(Unescape(c.pat)); err == nil {
			got = []string{Unescape(c.pat)}
		}
		if have := strings.Join(got, "\x01"); have != want {
			t.Errorf("%q shopt %q GLOBIGNORE %q:\nbash %q\nours %q", c.pat, c.shopts, c.ignore,
				strings.Split(want, "\x01"), got)
		}
	}
	t.Logf("%d globs compared", len(cases))
}

func TestGlobAbsoluteAndCancel(t *testing.T) {
	root := makeTree(t)
	got, err := Glob(context.Background(), dirFS(root), QuoteMeta(root)+"/d/*.go", GlobOptions{})
	if err != nil || len(got) != 1 || got[0] != root+"/d/f.go" {
		t.Fatalf("absolute glob: %q %v", got, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Glob(ctx, dirFS(root), "**/*", GlobOptions{GlobStar: true}); err == nil {
		t.Fatal("a cancelled glob must report the context's error")
	}
}
