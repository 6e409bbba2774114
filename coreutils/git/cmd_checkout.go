package git

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var checkoutSpecs = []optSpec{
	{short: 'b', arg: argRequired},
	{short: 'B', arg: argRequired},
	{short: 'q', long: "quiet"},
	{short: 'f', long: "force"},
	{long: "detach"},
	{long: "orphan", arg: argRequired},
	{short: 't', long: "track", arg: argOptional},
	{long: "no-track"},
	{short: 'm', long: "merge"},
	{long: "ours"},
	{long: "theirs"},
	{short: 'p', long: "patch"},
	{long: "progress"},
	{long: "overlay"},
	{long: "no-overlay"},
	{long: "guess"},
	{long: "no-guess"},
	{short: 'l'},
	{long: "ignore-other-worktrees"},
	{long: "recurse-submodules"},
	{long: "pathspec-from-file", arg: argRequired},
}

// remoteDWIM finds the single remote branch named name.
func (r *repo) remoteDWIM(name string) (string, bool) {
	var found []string
	for _, ref := range r.listRefs("refs/remotes/") {
		rest := strings.TrimPrefix(ref.name, "refs/remotes/")
		i := strings.IndexByte(rest, '/')
		if i >= 0 && rest[i+1:] == name && ref.target == "" {
			found = append(found, rest)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

func cmdCheckout(g *cmd, args []string) int {
	p := g.parse(args, checkoutSpecs)
	if p.flag("patch") {
		g.fatal("interactive checkout is not available in the sandbox")
	}
	r := g.worktreeRepo()
	before, after, hasDD := p.split()
	quiet := p.flag("quiet")
	newB, hasB := p.str("b")
	newBF, hasBF := p.str("B")
	orphan, hasOrphan := p.str("orphan")
	o := switchOpts{quiet: quiet, force: p.flag("force"), detach: p.flag("detach"), action: "checkout"}
	if hasB {
		o.newBranch = newB
	}
	if hasBF {
		o.newBranch, o.forceCreate = newBF, true
	}
	if hasOrphan {
		o.newBranch, o.orphan = orphan, true
	}
	// Work out whether the first argument is a branch/commit.
	var revArg string
	var paths []string
	if len(before) > 0 {
		first := before[0]
		if first == "-" {
			first = "@{-1}"
		}
		if h, err := r.resolveRev(first); err == nil {
			if _, ok := r.toTree(h); ok {
				revArg = before[0]
				paths = append(paths, before[1:]...)
			}
		}
		if revArg == "" {
			if hasDD && !(len(before) == 0) {
				r.dieBadRev(before[0], &revError{"invalid reference: " + before[0]})
			}
			if len(before) == 1 && !hasDD && o.newBranch == "" {
				if up, ok := r.remoteDWIM(first); ok && !r.pathInIndexOrWork(first) {
					o.newBranch = first
					o.track = up
					revArg = "refs/remotes/" + up
				}
			}
			if revArg == "" {
				if o.newBranch != "" && len(before) == 1 {
					g.fatal("'%s' is not a commit and a branch '%s' cannot be created from it", before[0], o.newBranch)
				}
				paths = append(paths, before...)
			}
		}
	}
	paths = append(paths, after...)
	if len(paths) > 0 || hasDD {
		if o.newBranch != "" {
			g.fatal("Cannot update paths and switch to branch '%s' at the same time.", o.newBranch)
		}
		if o.detach {
			g.fatal("'%s' cannot be used with updating paths", "--detach")
		}
		if len(paths) == 0 {
			if revArg == "" {
				return 0
			}
		}
		var tree plumbing.Hash
		source := "the index"
		if revArg != "" {
			h, _ := r.resolveRev(revArg)
			tree, _ = r.toTree(h)
			source = r.abbrev(tree)
		}
		if len(paths) == 0 {
			g.fatal("you must specify path(s) to restore")
		}
		ps := r.makePathspec(paths)
		n, unmatched := r.checkoutPaths(ps, tree, true, true)
		if len(unmatched) > 0 {
			for _, u := range unmatched {
				g.errorf("pathspec '%s' did not match any file(s) known to git", u)
			}
			return 1
		}
		r.writeIndex()
		if !quiet && !hasDD {
			word := "paths"
			if n == 1 {
				word = "path"
			}
			g.msg("Updated %d %s from %s", n, word, source)
		}
		return 0
	}
	hd := r.head()
	if revArg == "" && o.detach {
		revArg = "HEAD"
	}
	if revArg == "" {
		if o.newBranch != "" {
			if hd.unborn() && !o.orphan {
				// A new name for the unborn branch.
				if !checkRefName(o.newBranch) {
					g.fatal("'%s' is not a valid branch name", o.newBranch)
				}
				r.setHeadBranch("refs/heads/"+o.newBranch, "")
				if !quiet {
					g.msg("Switched to a new branch '%s'", o.newBranch)
				}
				return 0
			}
			revArg = "HEAD"
		} else {
			// Plain "git checkout": report and stay.
			if hd.unborn() {
				return 0
			}
			var w bytes.Buffer
			r.localChangesList(&w, r.getCommit(hd.hash).tree)
			g.out.Write(w.Bytes())
			if hd.symbolic && !quiet {
				if t := r.trackingInfo(hd.branch(), hd.hash, true); t != "" {
					g.out.WriteString(t)
				}
			}
			return 0
		}
	}
	return r.checkoutRev(revArg, o)
}

// pathInIndexOrWork reports whether a name is a tracked or existing path.
func (r *repo) pathInIndexOrWork(name string) bool {
	p := r.resolveRelPath(name)
	if r.index().get(p) != nil || r.index().hasDir(p) {
		return true
	}
	return r.fileExists(r.workPath(p))
}

// checkoutRev switches to a branch or detaches at a commit.
func (r *repo) checkoutRev(arg string, o switchOpts) int {
	g := r.g
	spec := arg
	if spec == "-" {
		name, ok := r.previousBranch(1)
		if !ok {
			g.fatal("invalid reference: %s", "@{-1}")
		}
		spec = name
		arg = name
	}
	h, err := r.resolveRev(spec)
	if err != nil {
		g.fatal("invalid reference: %s", arg)
	}
	c, ok := r.commitOf(h)
	if !ok {
		g.fatal("reference is not a tree: %s", arg)
	}
	o.target = c
	o.name = arg
	if o.newBranch != "" {
		return r.doSwitch(o)
	}
	if !o.detach && checkRefPath(spec) && r.refExists("refs/heads/"+spec) && !strings.HasPrefix(spec, "refs/") {
		o.branchRef = "refs/heads/" + spec
	} else if !o.detach && strings.HasPrefix(spec, "refs/heads/") && r.refExists(spec) {
		o.branchRef = spec
		o.name = strings.TrimPrefix(spec, "refs/heads/")
	}
	return r.doSwitch(o)
}

var switchSpecs = []optSpec{
	{short: 'c', long: "create", arg: argRequired},
	{short: 'C', long: "force-create", arg: argRequired},
	{short: 'd', long: "detach"},
	{long: "guess"},
	{long: "no-guess"},
	{short: 'f', long: "force"},
	{long: "discard-changes"},
	{short: 'm', long: "merge"},
	{short: 'q', long: "quiet"},
	{short: 't', long: "track", arg: argOptional},
	{long: "no-track"},
	{long: "orphan", arg: argRequired},
	{long: "progress"},
	{long: "ignore-other-worktrees"},
	{long: "recurse-submodules"},
}

func cmdSwitch(g *cmd, args []string) int {
	p := g.parse(args, switchSpecs)
	r := g.worktreeRepo()
	o := switchOpts{quiet: p.flag("quiet"), force: p.flag("force") || p.flag("discard-changes"), detach: p.flag("detach"), action: "checkout"}
	if v, ok := p.str("create"); ok {
		o.newBranch = v
	}
	if v, ok := p.str("force-create"); ok {
		o.newBranch, o.forceCreate = v, true
	}
	if v, ok := p.str("orphan"); ok {
		o.newBranch, o.orphan = v, true
		if len(p.args) > 0 {
			g.fatal("'--orphan' cannot take <start-point>")
		}
		r.hardReset(emptyTree)
		r.writeIndex()
		r.setHeadBranch("refs/heads/"+v, "")
		if !o.quiet {
			g.msg("Switched to a new branch '%s'", v)
		}
		return 0
	}
	if len(p.args) > 1 {
		g.fatal("only one reference expected, %d given.", len(p.args))
	}
	if len(p.args) == 0 {
		if o.newBranch == "" && !o.detach {
			g.fatal("missing branch or commit argument")
		}
		return r.checkoutRev("HEAD", o)
	}
	arg := p.args[0]
	if o.newBranch != "" || o.detach {
		return r.checkoutRev(arg, o)
	}
	if arg == "-" {
		return r.checkoutRev("-", o)
	}
	if r.refExists("refs/heads/" + arg) {
		return r.checkoutRev(arg, o)
	}
	if up, ok := r.remoteDWIM(arg); ok && !p.flag("no-guess") {
		o.newBranch = arg
		o.track = up
		return r.checkoutRev("refs/remotes/"+up, o)
	}
	if h, err := r.resolveRev(arg); err == nil {
		if _, ok := r.commitOf(h); ok {
			g.msg("fatal: a branch is expected, got commit '%s'", arg)
			g.msg("hint: If you want to detach HEAD at the commit, try again with the --detach option.")
			return 128
		}
	}
	g.fatal("invalid reference: %s", arg)
	return 128
}

var restoreSpecs = []optSpec{
	{short: 's', long: "source", arg: argRequired},
	{short: 'S', long: "staged"},
	{short: 'W', long: "worktree"},
	{short: 'q', long: "quiet"},
	{short: 'p', long: "patch"},
	{long: "overlay"},
	{long: "no-overlay"},
	{long: "ignore-unmerged"},
	{short: 'm', long: "merge"},
	{long: "ours"},
	{long: "theirs"},
	{long: "progress"},
	{long: "recurse-submodules"},
	{long: "pathspec-from-file", arg: argRequired},
}

func cmdRestore(g *cmd, args []string) int {
	p := g.parse(args, restoreSpecs)
	if p.flag("patch") {
		g.fatal("interactive restore is not available in the sandbox")
	}
	r := g.worktreeRepo()
	if len(p.args) == 0 {
		g.fatal("you must specify path(s) to restore")
	}
	staged := p.flag("staged")
	worktree := p.flag("worktree") || !staged
	source, hasSource := p.str("source")
	var tree plumbing.Hash
	switch {
	case hasSource:
		h, err := r.resolveRev(source)
		if err != nil {
			g.fatal("could not resolve %s", source)
		}
		t, ok := r.toTree(h)
		if !ok {
			g.fatal("could not resolve %s", source)
		}
		tree = t
	case staged:
		hd := r.head()
		if hd.unborn() {
			g.fatal("could not resolve HEAD")
		} else {
			tree = r.getCommit(hd.hash).tree
		}
	}
	ps := r.makePathspec(p.args)
	var unmatched []string
	if staged {
		_, unmatched = r.checkoutPaths(ps, tree, true, false)
	}
	if worktree {
		if tree.IsZero() {
			_, unmatched = r.checkoutPaths(ps, plumbing.ZeroHash, false, true)
		} else {
			_, unmatched = r.restoreWorktree(ps, tree, staged)
		}
	}
	if len(unmatched) > 0 {
		for _, u := range unmatched {
			g.errorf("pathspec '%s' did not match any file(s) known to git", u)
		}
		return 1
	}
	r.writeIndex()
	return 0
}

// restoreWorktree writes files from a tree to the work tree only (and to
// the index too when both is set); files absent from the tree are removed.
func (r *repo) restoreWorktree(ps *pathspec, tree plumbing.Hash, both bool) (int, []string) {
	ix := r.index()
	seen := make([]bool, len(ps.items))
	n := 0
	inTree := map[string]bool{}
	for _, f := range r.flattenTree(tree) {
		if !ps.markMatches(f.path, seen) {
			continue
		}
		inTree[f.path] = true
		if both {
			r.checkoutEntry(f)
		} else {
			old := ix.get(f.path)
			r.writeWorkFile(f.path, f.mode, f.hash)
			_ = old
		}
		n++
	}
	for _, e := range ix.entries() {
		if !ps.markMatches(e.Name, seen) || inTree[e.Name] {
			continue
		}
		r.removeWorkFile(e.Name)
		if both {
			ix.remove(e.Name)
		}
	}
	var unmatched []string
	for i, it := range ps.items {
		if !seen[i] && !it.exclude {
			unmatched = append(unmatched, it.orig)
		}
	}
	return n, unmatched
}

var resetSpecs = []optSpec{
	{long: "soft"},
	{long: "mixed"},
	{long: "hard"},
	{long: "merge"},
	{long: "keep"},
	{short: 'q', long: "quiet"},
	{short: 'p', long: "patch"},
	{short: 'N', long: "intent-to-add"},
	{long: "refresh"},
	{long: "no-refresh"},
	{long: "recurse-submodules"},
	{long: "pathspec-from-file", arg: argRequired},
}

func cmdReset(g *cmd, args []string) int {
	p := g.parse(args, resetSpecs)
	if p.flag("patch") {
		g.fatal("interactive reset is not available in the sandbox")
	}
	r := g.worktreeRepo()
	mode := "mixed"
	n := 0
	for _, m := range []string{"soft", "mixed", "hard", "merge", "keep"} {
		if p.flag(m) {
			mode = m
			n++
		}
	}
	quiet := p.flag("quiet")
	before, after, hasDD := p.split()
	rev := ""
	var paths []string
	if len(before) > 0 {
		if h, err := r.resolveRev(before[0]); err == nil {
			if _, ok := r.toTree(h); ok {
				rev = before[0]
				paths = append(paths, before[1:]...)
			}
		}
		if rev == "" {
			if hasDD {
				r.dieBadRev(before[0], &revError{})
			}
			for _, a := range before {
				if !r.pathExists(a) {
					r.dieBadRev(a, &revError{})
				}
			}
			paths = append(paths, before...)
		}
	}
	paths = append(paths, after...)
	hd := r.head()
	if len(paths) > 0 {
		if mode == "hard" || mode == "merge" || mode == "keep" || mode == "soft" {
			if mode == "soft" {
				g.fatal("Cannot do soft reset with paths.")
			}
			g.fatal("Cannot do %s reset with paths.", mode)
		}
		var tree plumbing.Hash
		if rev != "" {
			h, _ := r.resolveRev(rev)
			tree, _ = r.toTree(h)
		} else if !hd.unborn() {
			tree = r.getCommit(hd.hash).tree
		}
		ps := r.makePathspec(paths)
		r.resetIndexTo(tree, ps)
		r.refreshIndex()
		r.writeIndex()
		if !quiet {
			r.printUnstaged()
		}
		return 0
	}
	if rev == "" {
		if mode == "hard" || mode == "merge" || mode == "keep" {
			if mode == "hard" && hd.unborn() {
				r.hardReset(emptyTree)
				r.writeIndex()
				return 0
			}
		}
		rev = "HEAD"
	}
	var target plumbing.Hash
	if rev == "HEAD" && hd.unborn() {
		if mode == "soft" {
			g.fatal("Cannot do a soft reset in the middle of a merge.")
		}
		r.resetIndexTo(plumbing.ZeroHash, nil)
		r.writeIndex()
		return 0
	}
	h, err := r.resolveRev(rev)
	if err != nil {
		r.dieBadRev(rev, err)
	}
	c, ok := r.commitOf(h)
	if !ok {
		g.fatal("Could not parse object '%s'.", rev)
	}
	target = c
	tree := r.getCommit(target).tree
	switch mode {
	case "soft":
	case "mixed":
		r.resetIndexTo(tree, nil)
		r.refreshIndex()
		r.writeIndex()
	case "hard", "merge", "keep":
		if mode == "keep" {
			var oldTree plumbing.Hash
			if !hd.unborn() {
				oldTree = r.getCommit(hd.hash).tree
			}
			if !r.switchTrees(oldTree, tree, "reset", false) {
				return 1
			}
		} else {
			r.hardReset(tree)
		}
		r.writeIndex()
	}
	if !hd.unborn() {
		r.writeGitFile("ORIG_HEAD", []byte(hd.hash.String()+"\n"))
	}
	r.updateRef("HEAD", target, "reset: moving to "+rev)
	if quiet {
		return 0
	}
	switch mode {
	case "hard", "keep", "merge":
		fmt.Fprintf(g.out, "HEAD is now at %s %s\n", r.abbrev(target), r.getCommit(target).subject())
	case "mixed":
		r.printUnstaged()
	}
	return 0
}

// printUnstaged lists index vs work tree changes after a reset.
func (r *repo) printUnstaged() {
	pairs := r.unstagedPairs(&pathspec{})
	if len(pairs) == 0 {
		return
	}
	var w bytes.Buffer
	w.WriteString("Unstaged changes after reset:\n")
	for _, p := range pairs {
		st := p.status
		if st == 'T' {
			st = 'T'
		}
		fmt.Fprintf(&w, "%c\t%s\n", st, r.quoteName(p.a.path))
	}
	r.g.out.Write(w.Bytes())
}
