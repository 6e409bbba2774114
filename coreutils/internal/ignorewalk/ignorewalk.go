// Package ignorewalk walks directory trees the way ripgrep and fd do:
// hidden entries skipped, and the rules of .gitignore (inside a git
// repository, with .git/info/exclude), .ignore and a tool's own ignore
// file (.rgignore, .fdignore) applied from the repository's top down to
// each directory. Command-line globs override them, as the tools' -g and
// -E do. Entries are visited sorted by name, so output is stable (the
// real tools walk in parallel, in no set order).
package ignorewalk

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/meta"
)

// Options says which rules apply.
type Options struct {
	Hidden   bool // visit hidden entries
	NoIgnore bool // ignore no ignore file
	// NoVCS ignores .gitignore and .git/info/exclude only.
	NoVCS bool
	// NoRequireGit applies .gitignore outside git repositories too.
	NoRequireGit bool
	// ToolFile is the tool's own ignore file name (".rgignore").
	ToolFile string
	Follow   bool // follow symbolic links to directories
	MaxDepth int  // 0: no limit; 1: the root's entries only
	// Overrides are -g style globs: a file matching a plain glob is
	// visited whatever the ignore files say, one matching a "!glob" is
	// not, and when plain globs are given a file must match one.
	Overrides []string
	// CaseInsensitiveOverrides is --iglob.
	CaseInsensitiveOverrides bool
}

// Entry is one visited file or directory.
type Entry struct {
	Path  string // as the walk reached it: root joined with the names
	Info  fs.FileInfo
	Depth int // 1 for the root's entries
}

type layer struct {
	patterns []gitignore.Pattern
}

type walker struct {
	ctx       context.Context
	c         *builtins.Call
	opts      Options
	overrides []gitignore.Pattern
	negated   []bool
	whitelist bool
	inRepo    bool
	stack     []string // physical paths of the directories being walked (Follow)
	visit     func(Entry) error
	onErr     func(path string, err error)
}

// Walk visits root's tree (not root itself). visit's error stops the walk;
// errors reading directories go to onErr and the walk goes on.
func Walk(ctx context.Context, c *builtins.Call, root string, opts Options, visit func(Entry) error, onErr func(path string, err error)) error {
	w := &walker{ctx: ctx, c: c, opts: opts, visit: visit, onErr: onErr}
	for _, g := range opts.Overrides {
		neg := strings.HasPrefix(g, "!")
		g = strings.TrimPrefix(g, "!")
		if opts.CaseInsensitiveOverrides {
			g = strings.ToLower(g)
		}
		w.overrides = append(w.overrides, gitignore.ParsePattern(g, nil))
		w.negated = append(w.negated, neg)
		if !neg {
			w.whitelist = true
		}
	}
	abs := path.Clean(c.Abs(root))
	var rules []gitignore.Pattern
	_, w.inRepo = w.repoTop(abs)
	if !opts.NoIgnore {
		rules = w.parentRules(abs)
	}
	return w.dir(root, abs, rules, 0)
}

// repoTop finds the top of the git repository dir is in.
func (w *walker) repoTop(dir string) (string, bool) {
	for d := dir; ; d = path.Dir(d) {
		if fi, err := w.c.FS.Stat(path.Join(d, ".git")); err == nil && (fi.IsDir() || fi.Mode().IsRegular()) {
			return d, true
		}
		if d == "/" {
			return "", false
		}
	}
}

// parentRules gathers the ignore files of the directories above abs, from
// the repository's top (or the filesystem's root) down.
func (w *walker) parentRules(abs string) []gitignore.Pattern {
	top, inRepo := w.repoTop(abs)
	var dirs []string
	stop := "/"
	if inRepo {
		stop = top
	}
	for d := path.Dir(abs); ; d = path.Dir(d) {
		if d == abs {
			break
		}
		dirs = append(dirs, d)
		if d == stop || d == "/" {
			break
		}
	}
	var rules []gitignore.Pattern
	if inRepo && !w.opts.NoVCS {
		rules = append(rules, w.readRules(path.Join(top, ".git/info/exclude"), top)...)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if abs == dirs[i] {
			continue
		}
		rules = append(rules, w.dirRules(dirs[i], inRepo)...)
	}
	return rules
}

func split(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func (w *walker) readRules(file, dir string) []gitignore.Pattern {
	f, err := w.c.FS.Open(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []gitignore.Pattern
	domain := split(dir)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// dirRules reads dir's own ignore files, lowest precedence first.
func (w *walker) dirRules(dir string, inRepo bool) []gitignore.Pattern {
	var out []gitignore.Pattern
	if !w.opts.NoVCS && (inRepo || w.opts.NoRequireGit) {
		out = append(out, w.readRules(path.Join(dir, ".gitignore"), dir)...)
	}
	out = append(out, w.readRules(path.Join(dir, ".ignore"), dir)...)
	if w.opts.ToolFile != "" {
		out = append(out, w.readRules(path.Join(dir, w.opts.ToolFile), dir)...)
	}
	return out
}

func ignored(rules []gitignore.Pattern, p []string, isDir bool) bool {
	for i := len(rules) - 1; i >= 0; i-- {
		switch rules[i].Match(p, isDir) {
		case gitignore.Exclude:
			return true
		case gitignore.Include:
			return false
		}
	}
	return false
}

// override says whether the -g globs decide for rel: +1 visit, -1 skip,
// 0 undecided.
func (w *walker) override(rel string, isDir bool) int {
	if len(w.overrides) == 0 {
		return 0
	}
	if w.opts.CaseInsensitiveOverrides {
		rel = strings.ToLower(rel)
	}
	p := split(rel)
	for i := len(w.overrides) - 1; i >= 0; i-- {
		if w.overrides[i].Match(p, isDir) != gitignore.NoMatch {
			if w.negated[i] {
				return -1
			}
			return 1
		}
	}
	if w.whitelist && !isDir {
		return -1
	}
	return 0
}

// ErrLoop is reported for a followed link back into its own ancestry.
var ErrLoop = errors.New("File system loop found")

func (w *walker) dir(shown, abs string, rules []gitignore.Pattern, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if w.opts.Follow {
		// Following links, a directory may lead back to an ancestor.
		phys := meta.Physical(w.c, abs+"/.")
		for _, a := range w.stack {
			if a == phys || strings.HasPrefix(a, strings.TrimSuffix(phys, "/")+"/") {
				w.onErr(shown, ErrLoop)
				return nil
			}
		}
		w.stack = append(w.stack, phys)
		defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	}
	if !w.opts.NoIgnore {
		rules = append(rules[:len(rules):len(rules)], w.dirRules(abs, w.inRepo)...)
	}
	entries, err := w.c.FS.ReadDir(abs)
	if err != nil {
		w.onErr(shown, err)
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, fi := range entries {
		name := fi.Name()
		if !w.opts.Hidden && strings.HasPrefix(name, ".") {
			continue
		}
		childAbs := path.Join(abs, name)
		// "." lists bare names; "./" and other roots prefix theirs.
		child := name
		if shown != "." {
			child = strings.TrimSuffix(shown, "/") + "/" + name
		}
		isDir := fi.IsDir()
		if fi.Mode()&fs.ModeSymlink != 0 && w.opts.Follow {
			if target, err := w.c.FS.Stat(childAbs); err == nil {
				fi = target
				isDir = target.IsDir()
			}
		}
		rel := strings.TrimPrefix(child, "./")
		switch w.override(rel, isDir) {
		case -1:
			continue
		case 0:
			if !w.opts.NoIgnore && ignored(rules, split(childAbs), isDir) {
				continue
			}
		}
		if err := w.visit(Entry{Path: child, Info: fi, Depth: depth + 1}); err != nil {
			if err == fs.SkipDir {
				continue
			}
			return err
		}
		if isDir && (w.opts.MaxDepth == 0 || depth+1 < w.opts.MaxDepth) {
			if err := w.dir(child, childAbs, rules, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
