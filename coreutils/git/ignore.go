package git

import (
	"path"
	"strings"
)

// ignorePattern is one line of an exclude file.
type ignorePattern struct {
	pattern  string
	negate   bool
	dirOnly  bool
	basename bool   // no '/' in the pattern: match the last component
	base     string // directory of the .gitignore, "" or "dir/"
	source   string // file it came from
	line     int
	text     string // the line as written
}

// ignoreList is the patterns of one file.
type ignoreList struct {
	patterns []ignorePattern
}

func parseIgnore(data []byte, base, source string) *ignoreList {
	l := &ignoreList{}
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		text := line
		if line == "" || line[0] == '#' {
			continue
		}
		// Trailing spaces are dropped unless escaped.
		for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, "\\ ") {
			line = line[:len(line)-1]
		}
		if line == "" {
			continue
		}
		p := ignorePattern{base: base, source: source, line: n + 1, text: text}
		if line[0] == '!' {
			p.negate = true
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.dirOnly = true
			line = line[:len(line)-1]
		}
		if line == "" {
			continue
		}
		// As check-ignore -v shows it.
		p.text = line
		if p.negate {
			p.text = "!" + p.text
		}
		if p.dirOnly {
			p.text += "/"
		}
		if !strings.Contains(line, "/") {
			p.basename = true
		}
		line = strings.TrimPrefix(line, "/")
		p.pattern = line
		l.patterns = append(l.patterns, p)
	}
	return l
}

// match returns the last pattern of the list matching rel (a path from the
// repository root), or nil.
func (l *ignoreList) match(rel string, isDir bool) *ignorePattern {
	for i := len(l.patterns) - 1; i >= 0; i-- {
		p := &l.patterns[i]
		if p.dirOnly && !isDir {
			continue
		}
		if p.base != "" && !strings.HasPrefix(rel, p.base) {
			continue
		}
		sub := rel[len(p.base):]
		if p.basename {
			if wildmatch(p.pattern, path.Base(sub), true) {
				return p
			}
			continue
		}
		if wildmatch(p.pattern, sub, true) {
			return p
		}
	}
	return nil
}

// ignorer decides which untracked paths are ignored.
type ignorer struct {
	r       *repo
	dirs    map[string]*ignoreList // "" or "dir/" -> its .gitignore
	exclude []*ignoreList          // info/exclude, core.excludesFile
	cmdline []*ignoreList
	none    bool
}

func (r *repo) newIgnorer() *ignorer {
	ig := &ignorer{r: r, dirs: map[string]*ignoreList{}}
	if data, err := r.readGitFile("info/exclude"); err == nil {
		ig.exclude = append(ig.exclude, parseIgnore(data, "", ".git/info/exclude"))
	}
	var xf string
	if v, ok := r.cfg.get("core.excludesfile"); ok {
		xf = r.g.expandPath(v)
	} else if x := r.g.getenv("XDG_CONFIG_HOME"); x != "" {
		xf = path.Join(x, "git/ignore")
	} else if h := r.g.getenv("HOME"); h != "" {
		xf = path.Join(h, ".config/git/ignore")
	}
	if xf != "" {
		if data, err := readAll(r.fs, xf); err == nil {
			ig.exclude = append([]*ignoreList{parseIgnore(data, "", xf)}, ig.exclude...)
		}
	}
	return ig
}

// expandPath expands a leading "~/" as git does for path values.
func (g *cmd) expandPath(p string) string {
	if strings.HasPrefix(p, "~/") {
		return path.Join(g.getenv("HOME"), p[2:])
	}
	return g.abs(p)
}

// list returns the .gitignore of dir ("" or "dir/"), reading it once.
func (ig *ignorer) list(dir string) *ignoreList {
	if l, ok := ig.dirs[dir]; ok {
		return l
	}
	var l *ignoreList
	if data, err := readAll(ig.r.fs, ig.r.workPath(dir+".gitignore")); err == nil {
		l = parseIgnore(data, dir, dir+".gitignore")
	}
	ig.dirs[dir] = l
	return l
}

// matchPattern returns the deciding pattern for rel, or nil. It does not
// look at rel's parent directories (callers walk down and stop at ignored
// directories).
func (ig *ignorer) matchPattern(rel string, isDir bool) *ignorePattern {
	if ig.none {
		return nil
	}
	for _, l := range ig.cmdline {
		if p := l.match(rel, isDir); p != nil {
			return p
		}
	}
	// Deepest .gitignore first.
	dir := rel
	for {
		i := strings.LastIndexByte(strings.TrimSuffix(dir, "/"), '/')
		if i < 0 {
			dir = ""
		} else {
			dir = dir[:i+1]
		}
		if l := ig.list(dir); l != nil {
			if p := l.match(rel, isDir); p != nil {
				return p
			}
		}
		if dir == "" {
			break
		}
	}
	for i := len(ig.exclude) - 1; i >= 0; i-- {
		if p := ig.exclude[i].match(rel, isDir); p != nil {
			return p
		}
	}
	return nil
}

// ignored reports whether rel itself is excluded (not its parents).
func (ig *ignorer) ignored(rel string, isDir bool) bool {
	p := ig.matchPattern(rel, isDir)
	return p != nil && !p.negate
}

// ignoredPath reports whether rel or one of its parent directories is
// excluded.
func (ig *ignorer) ignoredPath(rel string, isDir bool) bool {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		if ig.ignored(strings.Join(parts[:i], "/"), true) {
			return true
		}
	}
	return ig.ignored(rel, isDir)
}
