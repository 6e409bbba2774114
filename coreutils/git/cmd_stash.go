package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

var stashPushSpecs = []optSpec{
	{short: 'm', long: "message", arg: argRequired},
	{short: 'u', long: "include-untracked"},
	{short: 'a', long: "all"},
	{short: 'k', long: "keep-index"},
	{short: 'q', long: "quiet"},
	{short: 'p', long: "patch"},
	{short: 'S', long: "staged"},
	{long: "pathspec-from-file", arg: argRequired},
	{long: "pathspec-file-nul"},
}

var stashApplySpecs = []optSpec{
	{long: "index"},
	{short: 'q', long: "quiet"},
}

func cmdStash(g *cmd, args []string) int {
	sub := "push"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub = args[0]
		args = args[1:]
	}
	r := g.worktreeRepo()
	switch sub {
	case "push":
		p := g.parse(args, stashPushSpecs)
		msg, hasMsg := p.str("message")
		return r.stashPush(p, msg, hasMsg, p.args)
	case "save":
		p := g.parse(args, stashPushSpecs)
		msg := strings.Join(p.args, " ")
		return r.stashPush(p, msg, msg != "", nil)
	case "list":
		return r.stashList(args)
	case "show":
		return r.stashShow(args)
	case "apply", "pop":
		p := g.parse(args, stashApplySpecs)
		ref, ok := r.stashRef(p.args)
		if !ok {
			return 1
		}
		if st := r.stashApply(ref, p.flag("index"), p.flag("quiet")); st != 0 {
			if sub == "pop" {
				g.out.WriteString("The stash entry is kept in case you need it again.\n")
			}
			return st
		}
		if sub == "pop" {
			return r.stashDrop(ref, p.flag("quiet"))
		}
		return 0
	case "drop":
		p := g.parse(args, stashApplySpecs)
		ref, ok := r.stashRef(p.args)
		if !ok {
			return 1
		}
		return r.stashDrop(ref, p.flag("quiet"))
	case "clear":
		if len(args) > 0 {
			g.fatal("git stash clear with arguments is unimplemented")
		}
		r.deleteRef("refs/stash")
		return 0
	case "branch":
		if len(args) == 0 {
			g.fatal("No branch name specified")
		}
		name := args[0]
		ref, ok := r.stashRef(args[1:])
		if !ok {
			return 1
		}
		c := r.getCommit(ref.hash)
		o := switchOpts{name: c.parents[0].String(), target: c.parents[0], newBranch: name, action: "checkout"}
		if st := r.doSwitch(o); st != 0 {
			return st
		}
		r.idxCache = nil
		if st := r.stashApply(ref, true, false); st != 0 {
			return st
		}
		return r.stashDrop(ref, false)
	case "create", "store":
		g.fatal("git stash %s is not supported in the sandbox", sub)
	}
	g.msg("error: unknown subcommand: %s", sub)
	g.subHelp(129, g.stderr)
	return 129
}

// stashEntry names one stash.
type stashEntry struct {
	n    int
	name string // "stash@{0}" or "refs/stash@{0}"
	hash plumbing.Hash
}

// stashRef resolves the optional stash argument.
func (r *repo) stashRef(args []string) (stashEntry, bool) {
	g := r.g
	log := r.readReflog("refs/stash")
	if len(args) == 0 {
		if len(log) == 0 {
			g.msg("No stash entries found.")
			return stashEntry{}, false
		}
		return stashEntry{n: 0, name: "refs/stash@{0}", hash: log[0].new}, true
	}
	if len(args) > 1 {
		g.msg("error: Too many revisions specified: %s", strings.Join(args, " "))
		return stashEntry{}, false
	}
	a := args[0]
	n := -1
	name := a
	switch {
	case isDigits(a):
		n, _ = strconv.Atoi(a)
		name = "refs/stash@{" + a + "}"
	case strings.HasPrefix(a, "stash@{") && strings.HasSuffix(a, "}") && isDigits(a[7:len(a)-1]):
		n, _ = strconv.Atoi(a[7 : len(a)-1])
	case strings.HasPrefix(a, "refs/stash@{") && strings.HasSuffix(a, "}") && isDigits(a[12:len(a)-1]):
		n, _ = strconv.Atoi(a[12 : len(a)-1])
	}
	if n >= len(log) && len(log) > 0 {
		g.fatal("log for 'refs/stash' only has %d entries", len(log))
	}
	if n < 0 || n >= len(log) {
		g.msg("error: %s is not a valid reference", name)
		return stashEntry{}, false
	}
	return stashEntry{n: n, name: name, hash: log[n].new}, true
}

func (r *repo) stashPush(p *parsedArgs, msg string, hasMsg bool, paths []string) int {
	g := r.g
	if p.flag("patch") {
		g.fatal("interactive stash is not available in the sandbox")
	}
	hd := r.head()
	if hd.unborn() {
		g.msg("You do not have the initial commit yet")
		return 1
	}
	quiet := p.flag("quiet")
	untracked := p.flag("include-untracked") || p.flag("all")
	ps := r.makePathspec(paths)
	if len(paths) > 0 {
		ix := r.index()
		seen := make([]bool, len(ps.items))
		for _, e := range ix.entries() {
			ps.markMatches(e.Name, seen)
		}
		if untracked {
			for _, f := range r.walkWorktree(walkOpts{mode: untrackedAll, ps: ps, noIgnore: p.flag("all")}).untracked {
				ps.markMatches(f, seen)
			}
		}
		for i, it := range ps.items {
			if !seen[i] {
				g.msg("error: pathspec '%s' did not match any file(s) known to git", it.orig)
				g.msg("Did you forget to 'git add'?")
				return 1
			}
		}
	}
	head := r.getCommit(hd.hash)
	staged := r.stagedPairs(ps, false)
	unstaged := r.unstagedPairs(ps)
	var untrackedFiles []string
	if untracked {
		untrackedFiles = r.walkWorktree(walkOpts{mode: untrackedAll, ps: ps, noIgnore: p.flag("all")}).untracked
	}
	if len(staged) == 0 && len(unstaged) == 0 && len(untrackedFiles) == 0 {
		if !quiet {
			g.out.WriteString("No local changes to save\n")
		}
		return 0
	}
	branch := "(no branch)"
	if hd.symbolic {
		branch = hd.branch()
	}
	subject := fmt.Sprintf("%s %s", r.abbrev(hd.hash), head.subject())
	id := r.identity("COMMITTER")
	author := r.identity("AUTHOR")
	_ = author
	// Index commit.
	ix := r.index()
	indexTree := r.writeTreeFrom(ix.files())
	iCommit := r.writeObject(plumbing.CommitObject, encodeCommit(indexTree, []plumbing.Hash{hd.hash}, id, id,
		fmt.Sprintf("index on %s: %s\n", branch, subject)))
	parents := []plumbing.Hash{hd.hash, iCommit}
	// Untracked files commit.
	if len(untrackedFiles) > 0 {
		var files []fileEntry
		for _, f := range untrackedFiles {
			fi, err := r.lstat(f)
			if err != nil {
				continue
			}
			data, err := r.readWork(f, fi)
			if err != nil {
				continue
			}
			files = append(files, fileEntry{path: f, mode: wtMode(fi), hash: r.writeObject(plumbing.BlobObject, data)})
		}
		uTree := r.writeTreeFrom(files)
		uCommit := r.writeObject(plumbing.CommitObject, encodeCommit(uTree, nil, id, id,
			fmt.Sprintf("untracked files on %s: %s\n", branch, subject)))
		parents = append(parents, uCommit)
	}
	// Work tree commit: the index, updated (added or removed) for every
	// path where HEAD and the work tree differ, as git's update-index
	// --add --remove does.
	wFiles := map[string]fileEntry{}
	for _, f := range ix.files() {
		wFiles[f.path] = f
	}
	headFiles := mapFiles(r.flattenTree(head.tree))
	cands := map[string]bool{}
	for _, pr := range diffLists(r.flattenTree(head.tree), r.worktreeFiles(), ps) {
		cands[pairPath(pr)] = true
		if pr.a.valid() {
			cands[pr.a.path] = true
		}
	}
	for p := range headFiles {
		if ix.get(p) == nil && ps.match(p) {
			cands[p] = true
		}
	}
	for p := range cands {
		fi, err := r.lstat(p)
		if err != nil || fi.IsDir() {
			delete(wFiles, p)
			continue
		}
		data, err := r.readWork(p, fi)
		if err != nil {
			delete(wFiles, p)
			continue
		}
		mode := r.fileMode(fi, ix.get(p))
		wFiles[p] = fileEntry{path: p, mode: mode, hash: r.writeObject(plumbing.BlobObject, data)}
	}
	var wList []fileEntry
	for _, f := range wFiles {
		wList = append(wList, f)
	}
	sortFiles(wList)
	wTree := r.writeTreeFrom(wList)
	var wMsg string
	if hasMsg {
		wMsg = fmt.Sprintf("On %s: %s", branch, msg)
	} else {
		wMsg = fmt.Sprintf("WIP on %s: %s", branch, subject)
	}
	wCommit := r.writeObject(plumbing.CommitObject, encodeCommit(wTree, parents, id, id, wMsg))
	old, _ := r.resolveRef("refs/stash")
	if err := r.st.SetReference(plumbing.NewHashReference("refs/stash", wCommit)); err != nil {
		g.fatal("cannot update refs/stash")
	}
	r.appendReflog("refs/stash", old, wCommit, wMsg)
	if !quiet {
		fmt.Fprintf(g.out, "Saved working directory and index state %s\n", wMsg)
	}
	// Clean the work tree.
	headTree := head.tree
	if len(paths) == 0 {
		r.hardReset(headTree)
		if p.flag("keep-index") {
			for _, f := range r.flattenTree(indexTree) {
				r.checkoutEntry(f)
			}
			r.resetIndexTo(indexTree, nil)
			for _, f := range r.flattenTree(indexTree) {
				r.checkoutEntry(f)
			}
		}
	} else {
		r.checkoutPaths(ps, headTree, true, true)
		for _, pr := range staged {
			if pr.status == 'A' {
				ix.remove(pr.b.path)
				r.removeWorkFile(pr.b.path)
			}
		}
		r.resetIndexTo(headTree, ps)
	}
	for _, f := range untrackedFiles {
		r.removeWorkFile(f)
	}
	r.writeIndex()
	return 0
}

func sortFiles(fs []fileEntry) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].path < fs[j-1].path; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

func (r *repo) stashList(args []string) int {
	log := r.readReflog("refs/stash")
	lr, _ := r.g.parseLogArgs(args, false)
	pf := lr.pretty
	if pf.kind == "medium" {
		pf = prettyFmt{kind: "format", format: "%gd: %gs", terminator: true}
	}
	var w bytes.Buffer
	for i, e := range log {
		if lr.maxCount >= 0 && i >= lr.maxCount {
			break
		}
		name := fmt.Sprintf("stash@{%d}", i)
		c := r.getCommit(e.new)
		switch pf.kind {
		case "format":
			f := strings.NewReplacer("%gd", name, "%gs", e.msg, "%gD", "refs/"+name, "%gn", e.who.name, "%ge", e.who.email).Replace(pf.format)
			w.WriteString(lr.lc.formatUser(c, f))
			if pf.terminator {
				w.WriteString("\n")
			}
		case "oneline":
			fmt.Fprintf(&w, "%s %s: %s\n", r.abbrev(e.new), name, e.msg)
		default:
			if i > 0 {
				w.WriteString("\n")
			}
			fmt.Fprintf(&w, "commit %s\nReflog: %s (%s <%s>)\nReflog message: %s\nAuthor: %s <%s>\nDate:   %s\n\n",
				c.hash, name, e.who.name, e.who.email, e.msg, c.author.name, c.author.email, r.g.formatDate(c.author, lr.lc.dateMode))
			w.WriteString(indentedMessage(c.message, "    ", false, 8))
		}
		if lr.diff.format&^fmtNoOutput != 0 && len(c.parents) > 0 {
			pairs := r.preparePairs(r.diffTrees(r.getCommit(c.parents[0]).tree, c.tree, nil), &lr.diff)
			if len(pairs) > 0 {
				if pf.kind != "oneline" {
					w.WriteString("\n")
				}
				r.writeDiff(&w, pairs, &lr.diff)
			}
		}
	}
	r.g.out.Write(w.Bytes())
	return 0
}

func (r *repo) stashShow(args []string) int {
	g := r.g
	o := defaultDiffOpts()
	var rest []string
	for _, a := range args {
		if a == "--" {
			continue
		}
		if strings.HasPrefix(a, "-") {
			rest = append(rest, a)
		}
	}
	p, err := parseOpts(rest, append(append([]optSpec{}, diffOptSpecs...), optSpec{short: 'u', long: "include-untracked"}, optSpec{long: "only-untracked"}), false)
	if err != nil {
		g.usageError(err.Error())
	}
	for _, v := range p.opts {
		g.applyDiffOpt(&o, v)
	}
	if o.format == 0 {
		o.format = fmtStat
		if r.cfg.getBool("stash.showpatch", false) {
			o.format = fmtPatch
		}
		if !r.cfg.getBool("stash.showstat", true) && o.format == fmtStat {
			o.format = fmtPatch
		}
	}
	var revs []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			revs = append(revs, a)
		}
	}
	ref, ok := r.stashRef(revs)
	if !ok {
		return 1
	}
	c := r.getCommit(ref.hash)
	if len(c.parents) == 0 {
		g.fatal("'%s' is not a stash-like commit", ref.name)
	}
	pairs := r.diffTrees(r.getCommit(c.parents[0]).tree, c.tree, nil)
	pairs = r.preparePairs(pairs, &o)
	var w bytes.Buffer
	r.writeDiff(&w, pairs, &o)
	g.out.Write(w.Bytes())
	return 0
}

// stashApply merges a stash into the work tree (and the index with
// --index).
func (r *repo) stashApply(ref stashEntry, withIndex, quiet bool) int {
	g := r.g
	c := r.getCommit(ref.hash)
	if len(c.parents) < 2 {
		g.fatal("'%s' is not a stash-like commit", ref.name)
	}
	base := r.getCommit(c.parents[0]).tree
	iTree := r.getCommit(c.parents[1]).tree
	wTree := c.tree
	ix := r.index()
	hd := r.head()
	headTree := plumbing.ZeroHash
	if !hd.unborn() {
		headTree = r.getCommit(hd.hash).tree
	}
	baseFiles := mapFiles(r.flattenTree(base))
	wFiles := mapFiles(r.flattenTree(wTree))
	iFiles := mapFiles(r.flattenTree(iTree))
	cur := mapFiles(ix.files())
	paths := unionPaths(baseFiles, wFiles)
	type change struct {
		path   string
		f      fileEntry
		remove bool
	}
	var changes []change
	var conflicts, dirty, untrackedClash []string
	sameF := func(a, b fileEntry, okA, okB bool) bool {
		if okA != okB {
			return false
		}
		return !okA || (a.hash == b.hash && a.mode == b.mode)
	}
	for p := range paths {
		b, inB := baseFiles[p]
		t, inT := wFiles[p]
		o, inO := cur[p]
		if sameF(b, t, inB, inT) {
			continue // the stash did not touch it
		}
		if sameF(o, t, inO, inT) {
			continue
		}
		if !sameF(o, b, inO, inB) {
			// A merge is needed: local changes to the file stop it first.
			if e := ix.get(p); e != nil {
				if st, _, _ := r.checkWork(e); st != wtClean && st != wtDeleted {
					dirty = append(dirty, p)
					continue
				}
			} else if inT && r.fileExists(r.workPath(p)) {
				untrackedClash = append(untrackedClash, p)
				continue
			}
			conflicts = append(conflicts, p)
			continue
		}
		// Ours is the base: take theirs, if the work tree is clean.
		if inO {
			if e := ix.get(p); e != nil {
				// A file gone from the work tree has nothing to lose;
				// anything else that differs from the index would be lost.
				if st, _, _ := r.checkWork(e); st != wtClean && st != wtDeleted {
					dirty = append(dirty, p)
					continue
				}
			}
		} else if r.fileExists(r.workPath(p)) {
			untrackedClash = append(untrackedClash, p)
			continue
		}
		changes = append(changes, change{path: p, f: t, remove: !inT})
	}
	showStatus := func() {
		if quiet {
			return
		}
		s := r.collectStatus(&pathspec{}, untrackedNormal, false, true)
		var w bytes.Buffer
		r.printLongStatus(&w, s, untrackedNormal, true)
		g.out.Write(w.Bytes())
	}
	if len(dirty) > 0 || len(untrackedClash) > 0 {
		g.out.Flush()
		if len(dirty) > 0 {
			sortStrings(dirty)
			fmt.Fprintf(g.stderr, "error: Your local changes to the following files would be overwritten by merge:\n")
			for _, p := range dirty {
				fmt.Fprintf(g.stderr, "\t%s\n", p)
			}
			fmt.Fprintf(g.stderr, "Please commit your changes or stash them before you merge.\n")
		}
		if len(untrackedClash) > 0 {
			sortStrings(untrackedClash)
			fmt.Fprintf(g.stderr, "error: The following untracked working tree files would be overwritten by merge:\n")
			for _, p := range untrackedClash {
				fmt.Fprintf(g.stderr, "\t%s\n", p)
			}
			fmt.Fprintf(g.stderr, "Please move or remove them before you merge.\n")
		}
		fmt.Fprintf(g.stderr, "Aborting\n")
		showStatus()
		return 1
	}
	if len(conflicts) > 0 {
		sortStrings(conflicts)
		for _, p := range conflicts {
			g.msg("CONFLICT (content): Merge conflict in %s", p)
		}
		g.msg("error: the sandbox's git cannot merge conflicting stash changes; the work tree was left unchanged")
		showStatus()
		return 1
	}
	sortChanges := func() {
		for i := 1; i < len(changes); i++ {
			for j := i; j > 0 && changes[j].path < changes[j-1].path; j-- {
				changes[j], changes[j-1] = changes[j-1], changes[j]
			}
		}
	}
	sortChanges()
	if base == wTree {
		g.out.WriteString("Already up to date.\n")
	}
	headFiles := mapFiles(r.flattenTree(headTree))
	for _, ch := range changes {
		if ch.remove {
			r.removeWorkFile(ch.path)
			if h, ok := headFiles[ch.path]; ok && !withIndex {
				if e := ix.get(ch.path); e == nil || e.Hash != h.hash || e.Mode != h.mode {
					ix.set(&index.Entry{Name: ch.path, Mode: h.mode, Hash: h.hash})
				}
			} else {
				ix.remove(ch.path)
			}
			continue
		}
		r.checkoutEntry(ch.f)
		// Without --index, only new files stay staged.
		if !withIndex {
			if h, ok := headFiles[ch.path]; ok {
				e := ix.get(ch.path)
				ne := &index.Entry{Name: ch.path, Mode: h.mode, Hash: h.hash}
				if e != nil && e.Hash == h.hash {
					*ne = *e
				}
				ix.set(ne)
			} else if _, inBase := baseFiles[ch.path]; inBase {
				ix.remove(ch.path)
			}
		}
	}
	if withIndex {
		for p, f := range iFiles {
			if b, ok := baseFiles[p]; ok && b.hash == f.hash && b.mode == f.mode {
				continue
			}
			e := ix.get(p)
			ne := &index.Entry{Name: p, Mode: f.mode, Hash: f.hash}
			if e != nil && e.Hash == f.hash {
				*ne = *e
			}
			ix.set(ne)
		}
		for p := range baseFiles {
			if _, ok := iFiles[p]; !ok {
				ix.remove(p)
			}
		}
	}
	r.writeIndex()
	status := 0
	if len(c.parents) > 2 {
		untrackedStash := r.flattenTree(r.getCommit(c.parents[2]).tree)
		var clash []string
		for _, f := range untrackedStash {
			if r.fileExists(r.workPath(f.path)) {
				clash = append(clash, f.path)
			}
		}
		if len(clash) > 0 {
			for _, p := range clash {
				g.msg("%s already exists, no checkout", p)
			}
			g.msg("error: could not restore untracked files from stash")
			status = 1
		} else {
			for _, f := range untrackedStash {
				r.writeWorkFile(f.path, f.mode, f.hash)
			}
		}
	}
	showStatus()
	return status
}

func mapFiles(fs []fileEntry) map[string]fileEntry {
	m := make(map[string]fileEntry, len(fs))
	for _, f := range fs {
		m[f.path] = f
	}
	return m
}

// unionPaths is the set of the paths of all the maps.
func unionPaths(maps ...map[string]fileEntry) map[string]bool {
	paths := map[string]bool{}
	for _, m := range maps {
		for p := range m {
			paths[p] = true
		}
	}
	return paths
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (r *repo) stashDrop(ref stashEntry, quiet bool) int {
	log := r.readReflog("refs/stash")
	if ref.n >= len(log) {
		r.g.msg("error: %s is not a valid reference", ref.name)
		return 1
	}
	log = append(log[:ref.n], log[ref.n+1:]...)
	if len(log) == 0 {
		r.deleteRef("refs/stash")
	} else {
		if ref.n == 0 {
			log[0].old = plumbing.ZeroHash
		}
		// The entry after the removed one now follows its predecessor.
		if ref.n < len(log) && ref.n > 0 {
			log[ref.n-1].old = log[ref.n].new
		}
		if len(log) > 0 {
			log[len(log)-1].old = plumbing.ZeroHash
		}
		r.writeReflog("refs/stash", log)
		if err := r.st.SetReference(plumbing.NewHashReference("refs/stash", log[0].new)); err != nil {
			r.g.fatal("cannot update refs/stash")
		}
	}
	if !quiet {
		name := strings.Replace(ref.name, "refs/stash", "refs/stash", 1)
		fmt.Fprintf(r.g.out, "Dropped %s (%s)\n", name, ref.hash)
	}
	return 0
}
