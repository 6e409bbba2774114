package git

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

func errorsIsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// pathspecItem is one pathspec, made relative to the repository root.
type pathspecItem struct {
	orig    string // as the user gave it
	match   string // repository-relative; "" for the whole tree
	glob    bool
	exclude bool
	dirOnly bool // ended with '/'
}

// pathspec is a list of items; empty matches everything.
type pathspec struct {
	items []pathspecItem
}

func (ps *pathspec) empty() bool {
	for _, it := range ps.items {
		if !it.exclude {
			return false
		}
	}
	return true
}

// makePathspec converts command-line paths relative to the working
// directory into repository-relative pathspecs, dying like git for paths
// outside the repository.
func (r *repo) makePathspec(args []string) *pathspec {
	ps := &pathspec{}
	for _, a := range args {
		it := pathspecItem{orig: a}
		s := a
		top := false
		switch {
		case strings.HasPrefix(s, ":(exclude)"):
			it.exclude = true
			s = s[len(":(exclude)"):]
		case strings.HasPrefix(s, ":!") || strings.HasPrefix(s, ":^"):
			it.exclude = true
			s = s[2:]
		case strings.HasPrefix(s, ":(top)"):
			top = true
			s = s[len(":(top)"):]
		case strings.HasPrefix(s, ":/"):
			top = true
			s = s[2:]
		case strings.HasPrefix(s, ":(glob)"):
			s = s[len(":(glob)"):]
		case strings.HasPrefix(s, ":(literal)"):
			s = s[len(":(literal)"):]
		}
		if strings.HasPrefix(s, "/") {
			// absolute path: must be inside the work tree
			clean := path.Clean(s)
			if clean == r.work {
				it.match = ""
			} else if strings.HasPrefix(clean, r.work+"/") || r.work == "/" {
				it.match = strings.TrimPrefix(clean, r.work+"/")
				if r.work == "/" {
					it.match = strings.TrimPrefix(clean, "/")
				}
			} else {
				r.g.fatal("%s: '%s' is outside repository at '%s'", a, a, r.work)
			}
		} else {
			base := r.prefix
			if top {
				base = ""
			}
			joined := path.Clean(base + s)
			if s == "" {
				joined = strings.TrimSuffix(base, "/")
				if joined == "" {
					joined = "."
				}
			}
			if joined == ".." || strings.HasPrefix(joined, "../") {
				r.g.fatal("%s: '%s' is outside repository at '%s'", a, a, r.work)
			}
			if joined == "." {
				joined = ""
			}
			it.match = joined
		}
		it.dirOnly = strings.HasSuffix(s, "/") && it.match != ""
		it.glob = hasGlob(it.match)
		ps.items = append(ps.items, it)
	}
	return ps
}

// matchItem reports whether it matches p (a file path), or a leading
// directory of it.
func (it *pathspecItem) matches(p string) bool {
	if it.match == "" {
		return true
	}
	if p == it.match && !it.dirOnly {
		return true
	}
	if strings.HasPrefix(p, it.match) && len(p) > len(it.match) && p[len(it.match)] == '/' {
		return true
	}
	if it.glob {
		if wildmatch(it.match, p, false) {
			return true
		}
		// A glob may name a leading directory: "d*" matches "dir/file".
		for i := 0; i < len(p); i++ {
			if p[i] == '/' && wildmatch(it.match, p[:i], false) {
				return true
			}
		}
	}
	return false
}

// matchesDir reports whether the directory dir ("a/b") could contain
// matches, so walks can skip the rest.
func (it *pathspecItem) couldMatchUnder(dir string) bool {
	if it.match == "" || dir == "" {
		return true
	}
	if it.matches(dir) {
		return true
	}
	m := it.match
	if it.glob {
		// the literal part before the first wildcard
		k := strings.IndexAny(m, "*?[\\")
		lit := m[:k]
		return strings.HasPrefix(dir+"/", lit) || strings.HasPrefix(lit, dir+"/")
	}
	return strings.HasPrefix(m, dir+"/")
}

// match reports whether the pathspec matches p; matched receives the index
// of the first matching item (for "did not match" checks).
func (ps *pathspec) match(p string) bool {
	if ps == nil || len(ps.items) == 0 {
		return true
	}
	ok := false
	anyPositive := false
	for i := range ps.items {
		it := &ps.items[i]
		if it.exclude {
			continue
		}
		anyPositive = true
		if it.matches(p) {
			ok = true
			break
		}
	}
	if !anyPositive {
		ok = true
	}
	if !ok {
		return false
	}
	for i := range ps.items {
		it := &ps.items[i]
		if it.exclude && it.matches(p) {
			return false
		}
	}
	return true
}

// matchAny marks which items match p.
func (ps *pathspec) markMatches(p string, seen []bool) bool {
	if ps == nil || len(ps.items) == 0 {
		return true
	}
	if !ps.match(p) {
		return false
	}
	for i := range ps.items {
		if !ps.items[i].exclude && ps.items[i].matches(p) {
			seen[i] = true
		}
	}
	return true
}

// couldMatchUnder reports whether any item could match below dir.
func (ps *pathspec) couldMatchUnder(dir string) bool {
	if ps == nil || ps.empty() {
		return true
	}
	for i := range ps.items {
		if !ps.items[i].exclude && ps.items[i].couldMatchUnder(dir) {
			return true
		}
	}
	return false
}

// relPath shows a repository-relative path relative to the working
// directory, as status and ls-files print them.
func (r *repo) relPath(p string) string {
	prefix := r.prefix
	if prefix == "" {
		return p
	}
	// Strip the common leading directories, then climb.
	i := 0
	for {
		j := strings.IndexByte(prefix[i:], '/')
		if j < 0 {
			break
		}
		seg := prefix[:i+j+1]
		if !strings.HasPrefix(p+"/", seg) {
			break
		}
		i += j + 1
	}
	rest := p[min(i, len(p)):]
	ups := strings.Count(prefix[i:], "/")
	out := strings.Repeat("../", ups) + rest
	if out == "" {
		return "./"
	}
	return out
}

// leadingDirWarning prints git's warning when the directory the pathspecs
// share does not exist below an existing parent (git opens it to look for
// untracked files).
func (r *repo) leadingDirWarning(ps *pathspec) {
	if ps == nil || len(ps.items) == 0 {
		return
	}
	prefix := ""
	first := true
	for _, it := range ps.items {
		if it.exclude {
			continue
		}
		m := it.match
		if k := strings.IndexAny(m, "*?[\\"); k >= 0 {
			m = m[:k]
		}
		if first {
			prefix = m
			first = false
			continue
		}
		n := 0
		for n < len(prefix) && n < len(m) && prefix[n] == m[n] {
			n++
		}
		prefix = prefix[:n]
	}
	i := strings.LastIndexByte(prefix, '/')
	if i < 0 {
		return
	}
	prefix = prefix[:i+1]
	comps := strings.Split(strings.TrimSuffix(prefix, "/"), "/")
	for k := range comps {
		sub := strings.Join(comps[:k+1], "/")
		fi, err := r.lstat(sub)
		if err == nil && fi.IsDir() {
			continue
		}
		if k == 0 {
			return
		}
		_, err = r.fs.Stat(r.workPath(prefix))
		text := "No such file or directory"
		if err == nil || !errorsIsNotExist(err) {
			text = "Not a directory"
		}
		r.g.warnf("could not open directory '%s': %s", prefix, text)
		return
	}
}
