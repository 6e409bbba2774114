package git

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// switchTrees moves the index and work tree from tree oldT to newT,
// keeping local changes to paths that do not differ between the two, as
// git's two-way merge does. It returns false (after printing git's
// message) when local changes would be lost.
func (r *repo) switchTrees(oldT, newT plumbing.Hash, action string, force bool) bool {
	ix := r.index()
	oldFiles := mapFiles(r.flattenTree(oldT))
	newList := r.flattenTree(newT)
	newFiles := mapFiles(newList)
	paths := unionPaths(oldFiles, newFiles)
	for _, e := range ix.entries() {
		paths[e.Name] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)

	type op struct {
		path   string
		remove bool
		entry  fileEntry
	}
	var ops []op
	var overwrite, notUptodate, untracked []string
	var ig *ignorer
	same := func(e *index.Entry, f fileEntry) bool { return e.Hash == f.hash && e.Mode == f.mode }
	sameF := func(a, b fileEntry) bool { return a.hash == b.hash && a.mode == b.mode }
	uptodate := func(e *index.Entry) bool {
		st, _, _ := r.checkWork(e)
		return st == wtClean || st == wtDeleted && false
	}
	for i, p := range sorted {
		if i&1023 == 1023 {
			r.g.check()
		}
		o, inO := oldFiles[p]
		n, inN := newFiles[p]
		cur := ix.get(p)
		if force {
			if inN {
				ops = append(ops, op{path: p, entry: n})
			} else if cur != nil || inO {
				ops = append(ops, op{path: p, remove: true})
			}
			continue
		}
		if cur != nil {
			switch {
			case (!inO && !inN) || (!inO && inN && same(cur, n)) || (inO && inN && sameF(o, n)) ||
				(inO && inN && !sameF(o, n) && same(cur, n)):
				// keep
			case inO && !inN && same(cur, o):
				st, _, _ := r.checkWork(cur)
				if st != wtClean && st != wtDeleted {
					notUptodate = append(notUptodate, p)
					continue
				}
				ops = append(ops, op{path: p, remove: true})
			case inO && inN && same(cur, o) && !same(cur, n):
				if !uptodate(cur) {
					st, _, _ := r.checkWork(cur)
					if st != wtDeleted {
						notUptodate = append(notUptodate, p)
						continue
					}
				}
				ops = append(ops, op{path: p, entry: n})
			default:
				overwrite = append(overwrite, p)
			}
			continue
		}
		if inN {
			if inO {
				if sameF(o, n) {
					continue
				}
				overwrite = append(overwrite, p)
				continue
			}
			// New file: it must not clobber an untracked one (ignored
			// files may go).
			if fi, err := r.lstat(p); err == nil && !fi.IsDir() {
				if ig == nil {
					ig = r.newIgnorer()
				}
				if !ig.ignoredPath(p, false) {
					untracked = append(untracked, p)
					continue
				}
			}
			ops = append(ops, op{path: p, entry: n})
			continue
		}
		// In the old tree only, already removed from the index: leave it.
	}
	if len(overwrite) > 0 || len(notUptodate) > 0 || len(untracked) > 0 {
		r.g.out.Flush()
		// git reports index conflicts and work tree changes as two lists
		// with the same words.
		for _, list := range [][]string{overwrite, notUptodate} {
			r.refuseOverwrite("Your local changes to the following files", list, action, "commit your changes or stash them")
		}
		r.refuseOverwrite("The following untracked working tree files", untracked, action, "move or remove them")
		fmt.Fprintf(r.g.stderr, "Aborting\n")
		return false
	}
	// Removals first (deepest paths first), then writes.
	for i := len(ops) - 1; i >= 0; i-- {
		o := ops[i]
		if !o.remove {
			continue
		}
		ix.remove(o.path)
		r.removeWorkFile(o.path)
	}
	for _, o := range ops {
		if o.remove {
			continue
		}
		r.checkoutEntry(o.entry)
	}
	return true
}

// checkoutEntry writes a file to the work tree and the index.
func (r *repo) checkoutEntry(f fileEntry) {
	ix := r.index()
	fi := r.writeWorkFile(f.path, f.mode, f.hash)
	e := &index.Entry{Name: f.path, Mode: f.mode, Hash: f.hash}
	if fi != nil {
		statEntry(e, fi)
	}
	// A file replacing a directory of tracked files.
	ix.removeUnder(f.path)
	ix.set(e)
}

// resetIndexTo makes the index match a tree (keeping stat data of
// unchanged entries).
func (r *repo) resetIndexTo(tree plumbing.Hash, ps *pathspec) {
	ix := r.index()
	files := r.flattenTree(tree)
	if ps == nil || ps.empty() {
		keep := map[string]*index.Entry{}
		for _, e := range ix.entries() {
			keep[e.Name] = e
		}
		ix.replaceAll(files, keep)
		return
	}
	inTree := map[string]fileEntry{}
	for _, f := range files {
		inTree[f.path] = f
	}
	for _, e := range ix.entries() {
		if !ps.match(e.Name) {
			continue
		}
		if _, ok := inTree[e.Name]; !ok {
			ix.remove(e.Name)
		}
	}
	for _, f := range files {
		if !ps.match(f.path) {
			continue
		}
		if old := ix.get(f.path); old != nil && old.Hash == f.hash && old.Mode == f.mode {
			continue
		}
		ix.set(&index.Entry{Name: f.path, Mode: f.mode, Hash: f.hash})
	}
}

// hardReset makes index and work tree match a tree, discarding changes to
// tracked files (untracked files stay).
func (r *repo) hardReset(tree plumbing.Hash) {
	ix := r.index()
	newFiles := r.flattenTree(tree)
	inNew := map[string]bool{}
	for _, f := range newFiles {
		inNew[f.path] = true
	}
	for _, e := range ix.entries() {
		if !inNew[e.Name] {
			ix.remove(e.Name)
			r.removeWorkFile(e.Name)
		}
	}
	for i, f := range newFiles {
		if i&1023 == 1023 {
			r.g.check()
		}
		if e := ix.get(f.path); e != nil && e.Hash == f.hash && e.Mode == f.mode {
			if st, _, _ := r.checkWork(e); st == wtClean {
				continue
			}
		}
		r.checkoutEntry(f)
	}
}

// localChangesList prints "M\tpath" lines of HEAD vs the work tree, as
// checkout does after switching.
func (r *repo) localChangesList(w *bytes.Buffer, tree plumbing.Hash) {
	pairs := diffLists(r.flattenTree(tree), r.worktreeFiles(), nil)
	for _, p := range pairs {
		name := p.b.path
		if !p.b.valid() {
			name = p.a.path
		}
		fmt.Fprintf(w, "%c\t%s\n", p.status, r.quoteName(r.relPath(name)))
	}
}

// orphaned lists commits reachable from old but from no ref, newest first.
func (r *repo) orphaned(old plumbing.Hash) []*commit {
	excluded := map[plumbing.Hash]bool{}
	for _, ref := range r.listRefs("refs/") {
		if c, ok := r.commitOf(ref.hash); ok {
			for h := range r.reachable(c) {
				excluded[h] = true
			}
		}
	}
	lr := &logRun{r: r, maxCount: -1, includes: []plumbing.Hash{old}, ps: &pathspec{}}
	var out []*commit
	for _, c := range lr.walk() {
		if !excluded[c.hash] {
			out = append(out, c)
		}
	}
	return out
}

// leaveDetached prints what git says when HEAD leaves a detached commit.
func (r *repo) leaveDetached(old plumbing.Hash) {
	lost := r.orphaned(old)
	g := r.g
	g.out.Flush()
	if len(lost) == 0 {
		fmt.Fprintf(g.stderr, "Previous HEAD position was %s %s\n", r.abbrev(old), r.getCommit(old).subject())
		return
	}
	var sb strings.Builder
	for i, c := range lost {
		if i < 4 {
			fmt.Fprintf(&sb, "  %s %s\n", r.abbrev(c.hash), c.subject())
		}
	}
	if len(lost) > 4 {
		more := len(lost) - 4
		if more == 1 {
			c := lost[len(lost)-1]
			fmt.Fprintf(&sb, "  %s %s\n", r.abbrev(c.hash), c.subject())
		} else {
			fmt.Fprintf(&sb, " ... and %d more.\n", more)
		}
	}
	if len(lost) == 1 {
		fmt.Fprintf(g.stderr, "Warning: you are leaving %d commit behind, not connected to\nany of your branches:\n\n%s\n", len(lost), sb.String())
	} else {
		fmt.Fprintf(g.stderr, "Warning: you are leaving %d commits behind, not connected to\nany of your branches:\n\n%s\n", len(lost), sb.String())
	}
	if r.cfg.getBool("advice.detachedhead", true) {
		if len(lost) == 1 {
			fmt.Fprintf(g.stderr, "If you want to keep it by creating a new branch, this may be a good time\nto do so with:\n\n git branch <new-branch-name> %s\n\n", r.abbrev(old))
		} else {
			fmt.Fprintf(g.stderr, "If you want to keep them by creating a new branch, this may be a good time\nto do so with:\n\n git branch <new-branch-name> %s\n\n", r.abbrev(old))
		}
	}
}

const detachAdvice = `Note: switching to '%s'.

You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false

`

// switchOpts describes a branch switch.
type switchOpts struct {
	name        string        // as given (for messages and the reflog)
	branchRef   string        // "refs/heads/x" when switching to a branch
	target      plumbing.Hash // commit to check out
	newBranch   string        // -b / -c
	forceCreate bool          // -B / -C
	detach      bool          // --detach
	force       bool          // -f: discard local changes
	quiet       bool
	track       string // upstream to set: "origin/x"
	orphan      bool
	action      string // "checkout" or "switch"
}

// doSwitch performs a checkout/switch of HEAD.
func (r *repo) doSwitch(o switchOpts) int {
	g := r.g
	hd := r.head()
	var oldTree plumbing.Hash
	if !hd.unborn() {
		oldTree = r.getCommit(hd.hash).tree
	}
	branchExists := false
	if o.newBranch != "" {
		if !checkRefName(o.newBranch) {
			g.fatal("'%s' is not a valid branch name", o.newBranch)
		}
		ref := "refs/heads/" + o.newBranch
		if r.refExists(ref) {
			branchExists = true
			if !o.forceCreate {
				g.fatal("a branch named '%s' already exists", o.newBranch)
			}
			if hd.symbolic && hd.target == ref && !o.orphan {
				// resetting the current branch is allowed with -B
			}
		}
		o.branchRef = ref
	}
	if o.orphan {
		if !r.switchTrees(oldTree, oldTree, o.action, o.force) {
			return 1
		}
		r.writeIndex()
		r.setHeadBranch(o.branchRef, "")
		if !o.quiet {
			g.msg("Switched to a new branch '%s'", o.newBranch)
		}
		return 0
	}
	newTree := r.getCommit(o.target).tree
	if !r.switchTrees(oldTree, newTree, o.action, o.force) {
		return 1
	}
	r.writeIndex()
	var local bytes.Buffer
	// "checkout -b" at the current commit skips the work tree merge, and
	// with it the list of local changes.
	quick := o.newBranch != "" && !hd.unborn() && o.target == hd.hash
	if !o.quiet && !o.force && !quick {
		r.localChangesList(&local, newTree)
	}
	g.out.Write(local.Bytes())
	if !o.quiet && !hd.symbolic && !hd.unborn() && o.target != hd.hash {
		r.leaveDetached(hd.hash)
	}
	oldDesc := hd.branch()
	if !hd.symbolic {
		oldDesc = hd.hash.String()
	}
	msg := fmt.Sprintf("checkout: moving from %s to %s", oldDesc, o.name)
	if o.newBranch != "" {
		msg = fmt.Sprintf("checkout: moving from %s to %s", oldDesc, o.newBranch)
		createMsg := "branch: Created from " + o.name
		if branchExists {
			createMsg = "branch: Reset to " + o.name
		}
		r.updateRef(o.branchRef, o.target, createMsg)
		if o.track != "" {
			r.setUpstream(o.newBranch, o.track, o.quiet)
		}
	}
	if o.detach || o.branchRef == "" {
		r.detachHead(o.target, msg)
		if !o.quiet {
			if hd.symbolic && !o.detach && r.cfg.getBool("advice.detachedhead", true) {
				g.out.Flush()
				fmt.Fprintf(g.stderr, detachAdvice, o.name)
			}
			g.msg("HEAD is now at %s %s", r.abbrev(o.target), r.getCommit(o.target).subject())
		}
		return 0
	}
	same := hd.symbolic && hd.target == o.branchRef
	r.setHeadBranch(o.branchRef, msg)
	if !o.quiet {
		short := strings.TrimPrefix(o.branchRef, "refs/heads/")
		switch {
		case same && o.newBranch != "" && o.forceCreate:
			g.msg("Reset branch '%s'", short)
		case same:
			g.msg("Already on '%s'", short)
		case o.newBranch != "" && branchExists:
			g.msg("Switched to and reset branch '%s'", short)
		case o.newBranch != "":
			g.msg("Switched to a new branch '%s'", short)
		default:
			g.msg("Switched to branch '%s'", short)
		}
		// git reads the branch configuration before creating a branch,
		// so a new branch reports no tracking information.
		if o.newBranch == "" {
			if t := r.trackingInfo(short, o.target, r.cfg.getBool("advice.statushints", true)); t != "" {
				g.out.WriteString(t)
			}
		}
	}
	return 0
}

// setUpstream records branch.<b>.remote/merge for an upstream like
// "origin/main" or a local branch.
func (r *repo) setUpstream(branch, upstream string, quiet bool) {
	remote, merge := ".", "refs/heads/"+upstream
	for _, rm := range r.remoteNames() {
		if strings.HasPrefix(upstream, rm+"/") {
			remote = rm
			merge = "refs/heads/" + upstream[len(rm)+1:]
			break
		}
	}
	cf := r.cfg.local
	cf.set("branch."+branch+".remote", remote)
	cf.set("branch."+branch+".merge", merge)
	r.writeGitFile("config", cf.bytes())
	if !quiet {
		if remote == "." {
			r.g.out.WriteString(fmt.Sprintf("branch '%s' set up to track local branch '%s'.\n", branch, upstream))
		} else {
			r.g.out.WriteString(fmt.Sprintf("branch '%s' set up to track '%s'.\n", branch, upstream))
		}
	}
}

// remoteNames lists configured remotes.
func (r *repo) remoteNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range r.cfg.all() {
		if e.section == "remote" && e.sub != "" && !seen[e.sub] {
			seen[e.sub] = true
			out = append(out, e.sub)
		}
	}
	return out
}

// checkoutPaths restores paths from the index (tree zero) or a tree into
// the index and work tree; it returns the number of files written.
func (r *repo) checkoutPaths(ps *pathspec, tree plumbing.Hash, toIndex, toWork bool) (int, []string) {
	ix := r.index()
	seen := make([]bool, len(ps.items))
	n := 0
	var unmatched []string
	if tree.IsZero() {
		for _, e := range ix.entries() {
			if !ps.markMatches(e.Name, seen) {
				continue
			}
			if toWork {
				if st, _, _ := r.checkWork(e); st != wtClean {
					r.checkoutEntry(fileEntry{path: e.Name, mode: e.Mode, hash: e.Hash})
					n++
				}
			}
		}
	} else {
		files := r.flattenTree(tree)
		inTree := map[string]bool{}
		for _, f := range files {
			if !ps.markMatches(f.path, seen) {
				continue
			}
			inTree[f.path] = true
			e := ix.get(f.path)
			changed := e == nil || e.Hash != f.hash || e.Mode != f.mode
			if !changed && toWork {
				if st, _, _ := r.checkWork(e); st != wtClean {
					changed = true
				}
			}
			if toWork {
				if changed {
					r.checkoutEntry(f)
					n++
				}
			} else if toIndex && changed {
				ne := &index.Entry{Name: f.path, Mode: f.mode, Hash: f.hash}
				if e != nil && e.Hash == f.hash {
					*ne = *e
					ne.Mode = f.mode
				}
				ix.set(ne)
				n++
			}
		}
		if toIndex && !toWork {
			// restore --staged: paths missing from the tree leave the index
			for _, e := range ix.entries() {
				if ps.markMatches(e.Name, seen) && !inTree[e.Name] {
					ix.remove(e.Name)
					n++
				}
			}
		}
	}
	for i, it := range ps.items {
		if !seen[i] && !it.exclude {
			unmatched = append(unmatched, it.orig)
		}
	}
	return n, unmatched
}

var _ = filemode.Regular

// refuseOverwrite lists the paths that action would overwrite and what to
// do first, in git's words; nothing when paths is empty.
func (r *repo) refuseOverwrite(what string, paths []string, action, remedy string) {
	if len(paths) == 0 {
		return
	}
	fmt.Fprintf(r.g.stderr, "error: %s would be overwritten by %s:\n", what, action)
	for _, p := range paths {
		fmt.Fprintf(r.g.stderr, "\t%s\n", r.relPath(p))
	}
	before := "you " + action
	if action == "checkout" {
		before = "you switch branches"
	}
	fmt.Fprintf(r.g.stderr, "Please %s before %s.\n", remedy, before)
}
