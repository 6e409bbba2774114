package git

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

var cleanSpecs = []optSpec{
	{short: 'd'},
	{short: 'f', long: "force"},
	{short: 'i', long: "interactive"},
	{short: 'n', long: "dry-run"},
	{short: 'q', long: "quiet"},
	{short: 'e', long: "exclude", arg: argRequired},
	{short: 'x'},
	{short: 'X'},
}

func cmdClean(g *cmd, args []string) int {
	p := g.parse(args, cleanSpecs)
	r := g.worktreeRepo()
	if p.flag("interactive") {
		g.fatal("interactive clean is not available in the sandbox")
	}
	force := p.count("force")
	dry := p.flag("dry-run")
	if force == 0 && !dry && r.cfg.getBool("clean.requireforce", true) {
		g.fatal("clean.requireForce defaults to true and neither -i, -n, nor -f given; refusing to clean")
	}
	dirs := p.flag("d")
	quiet := p.flag("quiet")
	ps := r.makePathspec(p.args)
	r.leadingDirWarning(ps)
	mode := untrackedNormal
	wo := walkOpts{mode: mode, ps: ps, cleanEmptyDirs: dirs}
	ig := r.newIgnorer()
	for _, e := range p.all("exclude") {
		ig.cmdline = append(ig.cmdline, parseIgnore([]byte(e), "", "command line"))
	}
	var list []string
	switch {
	case p.flag("x"):
		wo.noIgnore = true
		list = r.walkWorktree(wo).untracked
	case p.flag("X"):
		wo.wantIgnored = true
		list = r.walkWorktree(wo).ignored
	default:
		wo.wantIgnored = true
		list = r.walkWorktree(wo).untracked
	}
	if len(ig.cmdline) > 0 {
		var kept []string
		for _, f := range list {
			if ig.cmdline[0].match(strings.TrimSuffix(f, "/"), strings.HasSuffix(f, "/")) == nil {
				kept = append(kept, f)
			}
		}
		list = kept
	}
	sort.Strings(list)
	var w bytes.Buffer
	for _, f := range list {
		isDir := strings.HasSuffix(f, "/")
		if isDir && !dirs {
			// Without -d, only the untracked files named by a pathspec
			// inside untracked directories are removed.
			continue
		}
		if isDir && r.fileExists(r.workPath(strings.TrimSuffix(f, "/"))+"/.git") && force < 2 {
			if !quiet || dry {
				fmt.Fprintf(&w, "Skipping repository %s\n", r.relPath(f))
			}
			continue
		}
		if dry {
			fmt.Fprintf(&w, "Would remove %s\n", r.quoteName(r.relPath(f)))
			continue
		}
		if !quiet {
			fmt.Fprintf(&w, "Removing %s\n", r.quoteName(r.relPath(f)))
		}
		r.removeAll(r.workPath(strings.TrimSuffix(f, "/")))
	}
	g.out.Write(w.Bytes())
	return 0
}

var checkIgnoreSpecs = []optSpec{
	{short: 'q', long: "quiet"},
	{short: 'v', long: "verbose"},
	{short: 'n', long: "non-matching"},
	{long: "stdin"},
	{short: 'z'},
	{long: "no-index"},
}

func cmdCheckIgnore(g *cmd, args []string) int {
	p := g.parse(args, checkIgnoreSpecs)
	r := g.worktreeRepo()
	paths := p.args
	if p.flag("stdin") {
		data, _ := g.c.ReadAll(g.ctx, g.c.Stdin)
		sep := "\n"
		if p.flag("z") {
			sep = "\x00"
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(data), sep), sep) {
			if l != "" {
				paths = append(paths, l)
			}
		}
	} else if len(paths) == 0 {
		g.fatal("no path specified")
	}
	verbose := p.flag("verbose")
	nonMatching := p.flag("non-matching")
	if nonMatching && !verbose {
		g.fatal("--non-matching is only valid with --verbose")
	}
	ig := r.newIgnorer()
	ix := r.index()
	found := false
	var w bytes.Buffer
	for _, a := range paths {
		rel := r.resolveRelPath(a)
		isDir := strings.HasSuffix(a, "/")
		if fi, err := r.lstat(rel); err == nil && fi.IsDir() {
			isDir = true
		}
		var pat *ignorePattern
		if p.flag("no-index") || ix.get(rel) == nil {
			// An excluded parent directory decides; else the path itself.
			parts := strings.Split(rel, "/")
			for i := 1; i < len(parts); i++ {
				if m := ig.matchPattern(strings.Join(parts[:i], "/"), true); m != nil && !m.negate {
					pat = m
					break
				}
			}
			if pat == nil {
				pat = ig.matchPattern(rel, isDir)
			}
		}
		ignored := pat != nil && !pat.negate
		if ignored || (verbose && pat != nil) {
			found = true
		}
		if p.flag("quiet") {
			continue
		}
		switch {
		case verbose && pat != nil:
			fmt.Fprintf(&w, "%s:%d:%s\t%s\n", pat.source, pat.line, pat.text, r.quoteName(a))
		case verbose && nonMatching:
			fmt.Fprintf(&w, "::\t%s\n", r.quoteName(a))
		case ignored:
			fmt.Fprintf(&w, "%s\n", r.quoteName(a))
		}
	}
	g.out.Write(w.Bytes())
	if found {
		return 0
	}
	return 1
}
