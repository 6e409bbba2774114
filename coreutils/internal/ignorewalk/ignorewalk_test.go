package ignorewalk

import (
	"context"
	"slices"
	"testing"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/builtins/cmdtest"
)

func walk(t *testing.T, files map[string]string, root string, opts Options) []string {
	t.Helper()
	env := &cmdtest.Env{Files: files}
	fsys := env.NewFS()
	c := &builtins.Call{Args: []string{"t"}, Dir: "/work", FS: fsys}
	var got []string
	err := Walk(context.Background(), c, root, opts, func(e Entry) error {
		got = append(got, e.Path)
		return nil
	}, func(p string, err error) { t.Errorf("%s: %v", p, err) })
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestRules(t *testing.T) {
	files := map[string]string{
		".git/HEAD":      "x",
		".gitignore":     "*.log\n/build/\n!keep.log\n",
		"a.txt":          "",
		"x.log":          "",
		"keep.log":       "",
		"build/out":      "",
		"src/build/in":   "",
		"src/.ignore":    "gen.go\n",
		"src/gen.go":     "",
		"src/main.go":    "",
		".hidden/secret": "",
	}
	got := walk(t, files, ".", Options{})
	want := []string{"a.txt", "keep.log", "src", "src/build", "src/build/in", "src/main.go"}
	if !slices.Equal(got, want) {
		t.Errorf("default walk = %q, want %q", got, want)
	}
	got = walk(t, files, ".", Options{NoIgnore: true, Hidden: true})
	if !slices.Contains(got, "x.log") || !slices.Contains(got, ".hidden/secret") || !slices.Contains(got, "build/out") {
		t.Errorf("unrestricted walk misses entries: %q", got)
	}
	got = walk(t, files, "src", Options{})
	if want := []string{"src/build", "src/build/in", "src/main.go"}; !slices.Equal(got, want) {
		t.Errorf("walk of src = %q, want %q", got, want)
	}
	// Overrides: a plain glob lists only matching files, even ignored
	// ones; a negated one drops them.
	got = walk(t, files, ".", Options{Overrides: []string{"*.log"}})
	if want := []string{"keep.log", "src", "src/build", "x.log"}; !slices.Equal(got, want) {
		t.Errorf("-g '*.log' = %q, want %q", got, want)
	}
	got = walk(t, files, ".", Options{Overrides: []string{"!src"}})
	if want := []string{"a.txt", "keep.log"}; !slices.Equal(got, want) {
		t.Errorf("-g '!src' = %q, want %q", got, want)
	}
}

// Outside a git repository .gitignore is not read (unless NoRequireGit),
// as ripgrep and fd do.
func TestGitignoreNeedsRepository(t *testing.T) {
	files := map[string]string{".gitignore": "a\n", "a": "", "b": ""}
	if got := walk(t, files, ".", Options{}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("no repository: %q", got)
	}
	if got := walk(t, files, ".", Options{NoRequireGit: true}); !slices.Equal(got, []string{"b"}) {
		t.Errorf("NoRequireGit: %q", got)
	}
}

// A symbolic link to a directory is listed, not entered, unless Follow;
// following, a link back to an ancestor is reported, not walked forever.
func TestSymlinks(t *testing.T) {
	files := map[string]string{"d/f": "", "link": "->d", "d/loop": "->.."}
	got := walk(t, files, ".", Options{})
	if want := []string{"d", "d/f", "d/loop", "link"}; !slices.Equal(got, want) {
		t.Errorf("walk = %q, want %q", got, want)
	}
	env := &cmdtest.Env{Files: files}
	c := &builtins.Call{Args: []string{"t"}, Dir: "/work", FS: env.NewFS()}
	var paths, loops []string
	err := Walk(context.Background(), c, ".", Options{Follow: true}, func(e Entry) error {
		paths = append(paths, e.Path)
		return nil
	}, func(p string, err error) {
		if err == ErrLoop {
			loops = append(loops, p)
		}
	})
	if err != nil || !slices.Contains(paths, "link/f") || len(loops) == 0 || len(paths) > 20 {
		t.Errorf("Follow: err %v, paths %q, loops %q", err, paths, loops)
	}
}
