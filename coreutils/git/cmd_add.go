package git

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/bashbox/bashbox/builtins"
)

var addSpecs = []optSpec{
	{short: 'n', long: "dry-run"},
	{short: 'v', long: "verbose"},
	{short: 'i', long: "interactive"},
	{short: 'p', long: "patch"},
	{short: 'e', long: "edit"},
	{short: 'f', long: "force"},
	{short: 'u', long: "update"},
	{long: "renormalize"},
	{short: 'N', long: "intent-to-add"},
	{short: 'A', long: "all"},
	{long: "ignore-removal"},
	{long: "refresh"},
	{long: "ignore-errors"},
	{long: "ignore-missing"},
	{long: "sparse"},
	{long: "chmod", arg: argRequired},
	{long: "pathspec-from-file", arg: argRequired},
	{long: "pathspec-file-nul"},
}

func cmdAdd(g *cmd, args []string) int {
	p := g.parse(args, addSpecs)
	if p.flag("interactive") || p.flag("patch") || p.flag("edit") {
		g.fatal("interactive add is not available in the sandbox")
	}
	r := g.worktreeRepo()
	dry := p.flag("dry-run")
	verbose := p.flag("verbose") || dry
	force := p.flag("force")
	update := p.flag("update")
	all := p.flag("all")
	intent := p.flag("intent-to-add")
	ignoreRemoval := p.flag("ignore-removal") || (p.given("all") && !all)
	chmod, hasChmod := p.str("chmod")
	if hasChmod && chmod != "+x" && chmod != "-x" {
		g.fatal("--chmod param '%s' must be either -x or +x", chmod)
	}
	if update && all {
		g.fatal("options '%s' and '%s' cannot be used together", "-A", "-u")
	}
	paths := p.args
	if len(paths) == 0 && !update && !all {
		g.msg("Nothing specified, nothing added.")
		if r.cfg.getBool("advice.addemptypathspec", true) {
			g.msg("hint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"")
		}
		return 0
	}
	ps := r.makePathspec(paths)
	ix := r.index()
	seen := make([]bool, len(ps.items))
	// Tracked files: modifications and removals.
	var toAdd []string
	var toRemove []string
	for _, e := range ix.entries() {
		if !ps.markMatches(e.Name, seen) {
			continue
		}
		st, _, _ := r.checkWork(e)
		switch st {
		case wtDeleted:
			if !ignoreRemoval {
				toRemove = append(toRemove, e.Name)
			}
		case wtModified, wtTypeChanged:
			toAdd = append(toAdd, e.Name)
		default:
			if hasChmod {
				toAdd = append(toAdd, e.Name)
			}
		}
	}
	// Untracked files.
	var ignoredHits []string
	if !update {
		r.leadingDirWarning(ps)
		if len(paths) == 0 {
			ps = &pathspec{}
		}
		for _, f := range r.listWorkFiles(ps, force) {
			ps.markMatches(f, seen)
			if strings.HasSuffix(f, "/") {
				// embedded repository
				toAdd = append(toAdd, strings.TrimSuffix(f, "/"))
				continue
			}
			toAdd = append(toAdd, f)
		}
		// Pathspecs naming ignored paths.
		if !force {
			ig := r.newIgnorer()
			for i, it := range ps.items {
				if seen[i] || it.exclude || it.match == "" {
					continue
				}
				if it.glob {
					for _, f := range r.walkWorktree(walkOpts{mode: untrackedAll, wantIgnored: true, ignoredAll: true, ps: &pathspec{items: []pathspecItem{it}}}).ignored {
						ignoredHits = append(ignoredHits, strings.TrimSuffix(f, "/"))
						seen[i] = true
					}
					continue
				}
				fi, err := r.lstat(it.match)
				if err != nil {
					continue
				}
				if ig.ignoredPath(it.match, fi.IsDir()) {
					ignoredHits = append(ignoredHits, it.match)
					seen[i] = true
				}
			}
		}
	}
	if !p.flag("ignore-missing") || !dry {
		for i, it := range ps.items {
			if !seen[i] && !it.exclude && len(paths) > 0 {
				if update {
					g.fatal("pathspec '%s' did not match any file(s) known to git", it.orig)
				}
				g.fatal("pathspec '%s' did not match any files", it.orig)
			}
		}
	}
	sort.Strings(toAdd)
	toAdd = dedupe(toAdd)
	for _, f := range toAdd {
		if verbose {
			fmt.Fprintf(g.out, "add '%s'\n", f)
		}
		if dry {
			continue
		}
		fi, err := r.lstat(f)
		if err != nil {
			continue
		}
		if intent && ix.get(f) == nil {
			e := &index.Entry{Name: f, Mode: r.fileMode(fi, nil), Hash: plumbing.NewHash("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"), IntentToAdd: true}
			ix.set(e)
			continue
		}
		if fi.IsDir() && !r.fileExists(r.workPath(f)+"/.git") {
			continue
		}
		r.addFile(f, fi)
		if hasChmod {
			if e := ix.get(f); e != nil && isRegular(e.Mode) {
				if chmod == "+x" {
					e.Mode = filemode.Executable
				} else {
					e.Mode = filemode.Regular
				}
			}
		}
	}
	for _, f := range toRemove {
		if verbose {
			fmt.Fprintf(g.out, "remove '%s'\n", f)
		}
		if !dry {
			ix.remove(f)
		}
	}
	if !dry {
		r.writeIndex()
	}
	if len(ignoredHits) > 0 {
		g.out.Flush()
		g.msg("The following paths are ignored by one of your .gitignore files:")
		sort.Strings(ignoredHits)
		for _, f := range dedupe(ignoredHits) {
			g.msg("%s", f)
		}
		if r.cfg.getBool("advice.addignoredfile", true) {
			g.msg("hint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: \"git config advice.addIgnoredFile false\"")
		}
		return 1
	}
	return 0
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

var rmSpecs = []optSpec{
	{short: 'n', long: "dry-run"},
	{short: 'q', long: "quiet"},
	{long: "cached"},
	{short: 'f', long: "force"},
	{short: 'r'},
	{long: "ignore-unmatch"},
	{long: "sparse"},
	{long: "pathspec-from-file", arg: argRequired},
	{long: "pathspec-file-nul"},
}

func cmdRm(g *cmd, args []string) int {
	p := g.parse(args, rmSpecs)
	r := g.worktreeRepo()
	if len(p.args) == 0 {
		g.fatal("No pathspec was given. Which files should I remove?")
	}
	cached := p.flag("cached")
	force := p.flag("force")
	recursive := p.flag("r")
	quiet := p.flag("quiet")
	dry := p.flag("dry-run")
	ps := r.makePathspec(p.args)
	ix := r.index()
	seen := make([]bool, len(ps.items))
	var targets []string
	for _, e := range ix.entries() {
		if ps.markMatches(e.Name, seen) {
			targets = append(targets, e.Name)
		}
	}
	for i, it := range ps.items {
		if !seen[i] && !it.exclude {
			if p.flag("ignore-unmatch") {
				continue
			}
			g.fatal("pathspec '%s' did not match any files", it.orig)
		}
	}
	if !recursive {
		for _, it := range ps.items {
			if it.exclude || it.glob {
				continue
			}
			if ix.get(it.match) == nil && (it.match == "" || ix.hasDir(it.match)) {
				g.fatal("not removing '%s' recursively without -r", strings.TrimSuffix(it.orig, "/"))
			}
		}
	}
	// Safety checks.
	if !force {
		hd := r.head()
		var headTree plumbing.Hash
		if !hd.unborn() {
			headTree = r.getCommit(hd.hash).tree
		}
		var both, staged, local []string
		for _, t := range targets {
			e := ix.get(t)
			var headHash plumbing.Hash
			var headMode filemode.FileMode
			inHead := false
			if !headTree.IsZero() {
				if te, ok := r.treeLookup(headTree, t); ok && !te.isTree() {
					headHash, headMode, inHead = te.hash, te.mode, true
				}
			}
			stagedChange := !inHead || headHash != e.Hash || headMode != e.Mode
			st, _, _ := r.checkWork(e)
			if st == wtDeleted {
				continue
			}
			localChange := st != wtClean
			switch {
			case stagedChange && localChange:
				both = append(both, t)
			case stagedChange && !cached:
				staged = append(staged, t)
			case localChange && !cached:
				local = append(local, t)
			}
		}
		failed := false
		report := func(list []string, one, many, hint string) {
			if len(list) == 0 {
				return
			}
			failed = true
			g.out.Flush()
			if len(list) == 1 {
				fmt.Fprintf(g.stderr, "error: %s\n", one)
			} else {
				fmt.Fprintf(g.stderr, "error: %s\n", many)
			}
			for _, f := range list {
				fmt.Fprintf(g.stderr, "    %s\n", r.relPath(f))
			}
			fmt.Fprintf(g.stderr, "%s\n", hint)
		}
		report(both, "the following file has staged content different from both the\nfile and the HEAD:",
			"the following files have staged content different from both the\nfile and the HEAD:", "(use -f to force removal)")
		report(staged, "the following file has changes staged in the index:",
			"the following files have changes staged in the index:", "(use --cached to keep the file, or -f to force removal)")
		report(local, "the following file has local modifications:",
			"the following files have local modifications:", "(use --cached to keep the file, or -f to force removal)")
		if failed {
			return 1
		}
	}
	for _, t := range targets {
		if !quiet {
			fmt.Fprintf(g.out, "rm '%s'\n", t)
		}
		if dry {
			continue
		}
		ix.remove(t)
		if !cached {
			r.removeWorkFile(t)
		}
	}
	if !dry {
		r.writeIndex()
	}
	return 0
}

var mvSpecs = []optSpec{
	{short: 'v', long: "verbose"},
	{short: 'n', long: "dry-run"},
	{short: 'f', long: "force"},
	{short: 'k'},
	{long: "sparse"},
}

func cmdMv(g *cmd, args []string) int {
	p := g.parse(args, mvSpecs)
	if len(p.args) < 2 {
		g.subHelp(129, g.stderr)
		return 129
	}
	r := g.worktreeRepo()
	verbose := p.flag("verbose")
	dry := p.flag("dry-run")
	force := p.flag("force")
	skip := p.flag("k")
	ix := r.index()
	srcs := p.args[:len(p.args)-1]
	dstArg := p.args[len(p.args)-1]
	dstRel := r.resolveRelPath(dstArg)
	dstIsDir := false
	if fi, err := r.lstat(dstRel); err == nil && fi.IsDir() {
		dstIsDir = true
	}
	if len(srcs) > 1 && !dstIsDir {
		g.fatal("destination '%s' is not a directory", dstArg)
	}
	type move struct{ from, to string }
	var moves []move
	for _, s := range srcs {
		src := r.resolveRelPath(s)
		dst := dstRel
		if dstIsDir {
			dst = path.Join(dstRel, path.Base(src))
			if dstRel == "" {
				dst = path.Base(src)
			}
		}
		bad := ""
		fi, err := r.lstat(src)
		srcIsDir := err == nil && fi.IsDir()
		switch {
		case err != nil:
			bad = "bad source"
		case src == dst || strings.HasPrefix(dst, src+"/"):
			if src == dst {
				bad = "can not move directory into itself"
			} else {
				bad = "can not move directory into itself"
			}
		case srcIsDir && !ix.hasDir(src):
			bad = "source directory is empty"
		case !srcIsDir && ix.get(src) == nil:
			bad = "not under version control"
		default:
			if _, err := r.lstat(dst); err == nil {
				if !force || srcIsDir {
					bad = "destination exists"
				}
			}
		}
		if bad != "" {
			if skip {
				continue
			}
			g.fatal("%s, source=%s, destination=%s", bad, r.relPath(src), r.relPath(dst))
		}
		moves = append(moves, move{src, dst})
	}
	for _, m := range moves {
		if dry {
			fmt.Fprintf(g.out, "Checking rename of '%s' to '%s'\n", r.relPath(m.from), r.relPath(m.to))
		}
		if verbose || dry {
			fmt.Fprintf(g.out, "Renaming %s to %s\n", r.relPath(m.from), r.relPath(m.to))
		}
		fi, _ := r.lstat(m.from)
		isDir := fi != nil && fi.IsDir()
		var moved []*index.Entry
		if isDir {
			for _, e := range ix.entries() {
				if strings.HasPrefix(e.Name, m.from+"/") {
					moved = append(moved, e)
				}
			}
			if verbose || dry {
				for _, e := range moved {
					fmt.Fprintf(g.out, "Renaming %s to %s\n", r.relPath(e.Name), r.relPath(m.to+e.Name[len(m.from):]))
				}
			}
		} else {
			moved = append(moved, ix.get(m.from))
		}
		if dry {
			continue
		}
		if fi2, err := r.lstat(m.to); err == nil && !fi2.IsDir() && force {
			r.fs.Remove(r.workPath(m.to))
			ix.remove(m.to)
		}
		if d := path.Dir(m.to); d != "." {
			r.mkdirs(d)
		}
		if err := r.fs.Rename(r.workPath(m.from), r.workPath(m.to)); err != nil {
			g.fatal("renaming '%s' failed: %s", r.relPath(m.from), builtins.ErrText(err))
		}
		for _, e := range moved {
			ne := *e
			ne.Name = m.to + e.Name[len(m.from):]
			ix.remove(e.Name)
			ix.set(&ne)
		}
	}
	if !dry {
		r.writeIndex()
	}
	return 0
}
