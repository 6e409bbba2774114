package pattern

import (
	"context"
	"io/fs"
	"slices"
	"strings"
)

// FS is the directory tree Glob walks. Names are as the pattern spells
// them: relative names are relative to the shell's working directory ("."
// is the working directory itself), absolute ones start at the root, and a
// directory name may end in '/'. The implementation resolves them in the
// sandbox's namespace.
type FS interface {
	// ReadDir lists a directory; order does not matter.
	ReadDir(name string) ([]fs.DirEntry, error)
	// Stat follows symbolic links: a link to a directory matches "*/".
	Stat(name string) (fs.FileInfo, error)
	// Lstat tells whether a literal name exists, even as a dangling link.
	Lstat(name string) (fs.FileInfo, error)
}

// GlobOptions are the shell options that shape a glob.
type GlobOptions struct {
	Flags    Flags // ExtGlob and NoCase (nocaseglob); Period is derived from DotGlob
	DotGlob  bool  // wildcards match a leading '.'
	GlobStar bool  // a "**" path element matches any depth of directories
	// Ignore holds the GLOBIGNORE patterns (the variable split on ':').
	// A result any of them matches is dropped; they match as paths do
	// (wildcards never match '/') and also match a path's leading
	// directories. As in bash, a non-empty Ignore also turns DotGlob on.
	Ignore []string
}

// Glob returns the paths matching pat, sorted bytewise as bash sorts them
// in the C.UTF-8 locale, or nil when nothing matches; the caller then
// applies nullglob, failglob or keeps the word. pat is pattern text (see the
// package documentation); call Glob only when HasMeta reports true. Errors
// reading directories mean "no match there", as in bash; the only error
// returned is the context's.
func Glob(ctx context.Context, fsys FS, pat string, opt GlobOptions) ([]string, error) {
	if len(opt.Ignore) > 0 {
		opt.DotGlob = true
	}
	g := &globber{ctx: ctx, fsys: fsys, opt: opt}
	g.flags = opt.Flags &^ Period
	if !opt.DotGlob {
		g.flags |= Period
	}
	segs := splitPath(pat)
	paths := []string{""}
	for i := 0; i < len(segs) && len(paths) > 0; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seg := segs[i]
		last := i == len(segs)-1
		prefixes := false // paths already end in '/'
		switch {
		case i == 0 && seg == "" && !last:
			paths, prefixes = []string{"/"}, true
		case last && seg == "" && i > 0:
			paths = g.dirsOnly(paths)
		case opt.GlobStar && seg == "**":
			for i+1 < len(segs)-1 && segs[i+1] == "**" {
				i++ // **/**/x is **/x
			}
			switch {
			case i == len(segs)-1:
				paths = g.star(paths, false)
			case i+2 == len(segs) && segs[i+1] == "":
				paths = g.dirsOnly(g.star(paths, false))
				i++
			default:
				paths, prefixes = g.star(paths, true), true
			}
			last = i == len(segs)-1
		case HasMeta(seg, g.flags):
			paths = g.match(paths, seg)
		default:
			lit := Unescape(seg)
			for k := range paths {
				paths[k] += lit
			}
			if last {
				paths = g.exist(paths)
			}
		}
		if g.err != nil {
			return nil, g.err
		}
		if !last && !prefixes {
			for k := range paths {
				paths[k] += "/"
			}
		}
	}
	paths = g.ignore(paths)
	if len(paths) == 0 {
		return nil, g.err
	}
	slices.Sort(paths)
	return paths, g.err
}

// splitPath splits pattern text at each '/', escaped or not (bash does the
// same); an escaping backslash before a '/' is dropped.
func splitPath(pat string) []string {
	var segs []string
	start := 0
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			if i+1 < len(pat) && pat[i+1] == '/' {
				segs = append(segs, pat[start:i])
				start = i + 2
			}
			i++
		case '/':
			segs = append(segs, pat[start:i])
			start = i + 1
		}
	}
	return append(segs, pat[start:])
}

type globber struct {
	ctx   context.Context
	fsys  FS
	opt   GlobOptions
	flags Flags
	err   error
}

func dirName(base string) string {
	if base == "" {
		return "."
	}
	return base
}

// match lists each directory in bases and keeps the names seg matches.
func (g *globber) match(bases []string, seg string) []string {
	p := Compile(seg, g.flags)
	var out []string
	for _, base := range bases {
		ents, err := g.fsys.ReadDir(dirName(base))
		if err != nil {
			continue
		}
		for _, e := range ents {
			ok, err := p.Match(g.ctx, e.Name())
			if err != nil {
				g.err = err
				return nil
			}
			if ok {
				out = append(out, base+e.Name())
			}
		}
	}
	return out
}

// star is globstar's "**": with dirs set, each base and every directory
// below it (for a following element); otherwise every entry below each
// base. It does not descend through symbolic links, as bash 5.2 does not.
func (g *globber) star(bases []string, dirs bool) []string {
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		if g.err != nil {
			return
		}
		if err := g.ctx.Err(); err != nil {
			g.err = err
			return
		}
		ents, err := g.fsys.ReadDir(dirName(dir))
		if err != nil {
			return
		}
		for _, e := range ents {
			name := e.Name()
			if name[0] == '.' && !g.opt.DotGlob {
				continue
			}
			isDir := e.IsDir() && e.Type()&fs.ModeSymlink == 0
			if !dirs {
				out = append(out, dir+name)
			} else if isDir {
				out = append(out, dir+name+"/")
			}
			if isDir {
				walk(dir + name + "/")
			}
		}
	}
	for _, b := range bases {
		if dirs || b != "" && b != "/" {
			out = append(out, b) // d/** lists d/ itself
		}
		walk(b)
	}
	return out
}

// dirsOnly keeps the paths that are directories (following links), with
// a '/' appended: a pattern ending in '/'.
func (g *globber) dirsOnly(paths []string) []string {
	var out []string
	for _, p := range paths {
		p = strings.TrimSuffix(p, "/")
		if p == "" {
			continue
		}
		if fi, err := g.fsys.Stat(p); err == nil && fi.IsDir() {
			out = append(out, p+"/")
		}
	}
	return out
}

func (g *globber) exist(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := g.fsys.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// ignore applies GLOBIGNORE. bash matches its patterns as paths: a
// wildcard does not match '/', and a pattern matching the leading
// directories of a path matches the path (d* ignores d/f.go).
func (g *globber) ignore(paths []string) []string {
	if len(g.opt.Ignore) == 0 {
		return paths
	}
	var pats [][]*Pattern
	for _, s := range g.opt.Ignore {
		if s == "" {
			continue
		}
		var segs []*Pattern
		for _, seg := range strings.Split(s, "/") {
			segs = append(segs, Compile(seg, g.opt.Flags&(ExtGlob|NoCase)))
		}
		pats = append(pats, segs)
	}
	out := paths[:0]
next:
	for _, p := range paths {
		elems := strings.Split(p, "/")
		base := elems[len(elems)-1]
		if base == "" && len(elems) > 1 {
			base = elems[len(elems)-2]
		}
		if base == "." || base == ".." {
			continue
		}
		for _, segs := range pats {
			if len(segs) > len(elems) {
				continue
			}
			hit := true
			for k, sp := range segs {
				ok, err := sp.Match(g.ctx, elems[k])
				if err != nil {
					g.err = err
					return nil
				}
				if !ok {
					hit = false
					break
				}
			}
			if hit {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}
