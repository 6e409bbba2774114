package git

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var mergeSpecs = []optSpec{
	{short: 'm', long: "message", arg: argRequired},
	{long: "ff"},
	{long: "no-ff"},
	{long: "ff-only"},
	{short: 'q', long: "quiet"},
	{short: 'v', long: "verbose"},
	{long: "no-edit"},
	{short: 'e', long: "edit"},
	{long: "stat"},
	{short: 'n', long: "no-stat"},
	{long: "squash"},
	{long: "commit"},
	{long: "no-commit"},
	{long: "abort"},
	{long: "continue"},
	{long: "quit"},
	{short: 's', long: "strategy", arg: argRequired},
	{short: 'X', long: "strategy-option", arg: argRequired},
	{long: "allow-unrelated-histories"},
	{long: "progress"},
	{long: "log", arg: argOptional},
	{long: "signoff"},
	{long: "verify"},
	{long: "no-verify"},
	{long: "autostash"},
	{short: 'S', long: "gpg-sign", arg: argOptional},
}

// cmdMerge merges another history into the current branch: fast-forwards
// and merges whose changes do not overlap. Conflicting merges are refused
// before anything is changed (the sandbox's git keeps no merge state).
func cmdMerge(g *cmd, args []string) int {
	p := g.parse(args, mergeSpecs)
	r := g.worktreeRepo()
	if p.flag("abort") || p.flag("continue") || p.flag("quit") {
		g.fatal("There is no merge to abort (MERGE_HEAD missing).")
	}
	if p.flag("squash") || p.flag("no-commit") {
		g.fatal("--squash and --no-commit are not supported in the sandbox")
	}
	quiet := p.flag("quiet")
	hd := r.head()
	if len(p.args) == 0 {
		if hd.symbolic {
			if _, _, ok := r.upstream(hd.branch()); ok {
				g.fatal("merging the upstream needs a fetch, which is not available in the sandbox")
			}
		}
		g.fatal("No remote for the current branch.")
	}
	if len(p.args) > 1 {
		g.fatal("octopus merges are not supported in the sandbox")
	}
	name := p.args[0]
	h, err := r.resolveRev(name)
	if err != nil {
		g.msg("merge: %s - not something we can merge", name)
		return 1
	}
	theirs, ok := r.commitOf(h)
	if !ok {
		g.msg("merge: %s - not something we can merge", name)
		return 1
	}
	if hd.unborn() {
		// Merging into an unborn branch is a checkout.
		o := switchOpts{name: name, target: theirs, branchRef: hd.target, action: "merge"}
		r.switchTrees(plumbing.ZeroHash, r.getCommit(theirs).tree, "merge", false)
		r.writeIndex()
		r.updateRef(hd.target, theirs, "initial pull")
		_ = o
		return 0
	}
	ours := hd.hash
	if r.reachableFrom(ours, theirs) {
		if !quiet {
			g.out.WriteString("Already up to date.\n")
		}
		return 0
	}
	ff := r.reachableFrom(theirs, ours)
	noFF := p.flag("no-ff") || (!p.given("ff") && !r.cfg.getBool("merge.ff", true))
	if v, ok := r.cfg.get("merge.ff"); ok && v == "only" {
		if !ff {
			g.fatal("Not possible to fast-forward, aborting.")
		}
	}
	if p.flag("ff-only") && !ff {
		g.fatal("Not possible to fast-forward, aborting.")
	}
	oursTree := r.getCommit(ours).tree
	theirsTree := r.getCommit(theirs).tree
	reflogName := name
	if ff && !noFF {
		if !quiet {
			fmt.Fprintf(g.out, "Updating %s..%s\n", r.abbrev(ours), r.abbrev(theirs))
		}
		if !r.switchTrees(oursTree, theirsTree, "merge", false) {
			g.out.Flush()
			return 1
		}
		r.writeIndex()
		r.writeGitFile("ORIG_HEAD", []byte(ours.String()+"\n"))
		r.updateRef("HEAD", theirs, "merge "+reflogName+": Fast-forward")
		if !quiet {
			var w bytes.Buffer
			w.WriteString("Fast-forward\n")
			if !p.flag("no-stat") {
				r.mergeStat(&w, oursTree, theirsTree)
			}
			g.out.Write(w.Bytes())
		}
		return 0
	}
	bases := r.mergeBases(ours, theirs)
	if len(bases) == 0 && !p.flag("allow-unrelated-histories") {
		g.fatal("refusing to merge unrelated histories")
	}
	var baseTree plumbing.Hash
	if len(bases) > 0 {
		baseTree = r.getCommit(bases[0]).tree
	}
	if len(bases) > 1 {
		g.fatal("merges with several merge bases are not supported in the sandbox")
	}
	merged, autoMerged, conflicts := r.mergeTrees(baseTree, oursTree, theirsTree)
	if len(conflicts) > 0 {
		for _, f := range autoMerged {
			g.out.WriteString("Auto-merging " + f + "\n")
		}
		for _, c := range conflicts {
			g.out.WriteString(c + "\n")
		}
		g.out.Flush()
		g.msg("error: the sandbox's git cannot leave conflicts to resolve: nothing was changed.")
		g.msg("hint: merge by hand (for example with 'git checkout %s -- <path>'), then commit.", name)
		return 1
	}
	mergedTree := r.writeTreeFrom(merged)
	if !r.switchTrees(oursTree, mergedTree, "merge", false) {
		g.msg("Merge with strategy ort failed.")
		return 2
	}
	r.writeIndex()
	msg := ""
	if m := p.all("message"); len(m) > 0 {
		msg = strings.Join(m, "\n\n")
	} else {
		msg = r.mergeMessage(name)
	}
	msg = cleanupMessage(msg, true)
	author := r.identity("AUTHOR")
	committer := r.identity("COMMITTER")
	mc := r.writeObject(plumbing.CommitObject, encodeCommit(mergedTree, []plumbing.Hash{ours, theirs}, author, committer, msg))
	r.writeGitFile("ORIG_HEAD", []byte(ours.String()+"\n"))
	r.updateRef("HEAD", mc, "merge "+reflogName+": Merge made by the 'ort' strategy.")
	if !quiet {
		var w bytes.Buffer
		for _, f := range autoMerged {
			w.WriteString("Auto-merging " + f + "\n")
		}
		w.WriteString("Merge made by the 'ort' strategy.\n")
		if !p.flag("no-stat") {
			r.mergeStat(&w, oursTree, mergedTree)
		}
		g.out.Write(w.Bytes())
	}
	return 0
}

// mergeMessage is git's default merge commit message.
func (r *repo) mergeMessage(name string) string {
	kind := "commit"
	shown := name
	if full, _, ok := r.dwimRef(name); ok {
		switch {
		case strings.HasPrefix(full, "refs/heads/"):
			kind, shown = "branch", strings.TrimPrefix(full, "refs/heads/")
		case strings.HasPrefix(full, "refs/tags/"):
			kind, shown = "tag", strings.TrimPrefix(full, "refs/tags/")
		case strings.HasPrefix(full, "refs/remotes/"):
			kind, shown = "remote-tracking branch", strings.TrimPrefix(full, "refs/remotes/")
		}
	} else if h, err := r.resolveRev(name); err == nil {
		shown = h.String()
	}
	msg := fmt.Sprintf("Merge %s '%s'", kind, shown)
	hd := r.head()
	if hd.symbolic {
		b := hd.branch()
		if b != "main" && b != "master" {
			msg += " into " + b
		}
	} else {
		msg += " into HEAD"
	}
	return msg + "\n"
}

// mergeStat prints the diffstat and summary of a merge.
func (r *repo) mergeStat(w *bytes.Buffer, from, to plumbing.Hash) {
	pairs := r.detectRenames(r.diffTrees(from, to, nil), maxScore/2)
	if len(pairs) == 0 {
		return
	}
	o := defaultDiffOpts()
	stats := r.computeStats(pairs, &o)
	r.showStats(w, stats, &o)
	for _, p := range pairs {
		r.writeSummary(w, p)
	}
}

// mergeTrees merges two trees with a common base. It returns the merged
// files, the files whose contents were merged, and conflict messages.
func (r *repo) mergeTrees(base, ours, theirs plumbing.Hash) ([]fileEntry, []string, []string) {
	bf := mapFiles(r.flattenTree(base))
	of := mapFiles(r.flattenTree(ours))
	tf := mapFiles(r.flattenTree(theirs))
	paths := map[string]bool{}
	for p := range bf {
		paths[p] = true
	}
	for p := range of {
		paths[p] = true
	}
	for p := range tf {
		paths[p] = true
	}
	var sorted []string
	for p := range paths {
		sorted = append(sorted, p)
	}
	sortStrings(sorted)
	same := func(a, b fileEntry, okA, okB bool) bool {
		if okA != okB {
			return false
		}
		return !okA || (a.hash == b.hash && a.mode == b.mode)
	}
	var out []fileEntry
	var auto, conflicts []string
	for _, p := range sorted {
		b, inB := bf[p]
		o, inO := of[p]
		t, inT := tf[p]
		switch {
		case same(o, t, inO, inT):
			if inO {
				out = append(out, o)
			}
		case same(b, o, inB, inO):
			if inT {
				out = append(out, t)
			}
		case same(b, t, inB, inT):
			if inO {
				out = append(out, o)
			}
		case inO && inT && inB:
			// Both sides changed the file: merge the contents.
			mode := o.mode
			if o.mode == b.mode {
				mode = t.mode
			} else if t.mode != b.mode && t.mode != o.mode {
				conflicts = append(conflicts, "CONFLICT (modify/modify): Merge conflict in "+p)
				continue
			}
			auto = append(auto, p)
			if o.hash == t.hash {
				out = append(out, fileEntry{path: p, mode: mode, hash: o.hash})
				continue
			}
			data, ok := mergeContent(r.blob(b.hash), r.blob(o.hash), r.blob(t.hash))
			if !ok {
				conflicts = append(conflicts, "CONFLICT (content): Merge conflict in "+p)
				continue
			}
			out = append(out, fileEntry{path: p, mode: mode, hash: r.writeObject(plumbing.BlobObject, data)})
		case inO && inT:
			auto = append(auto, p)
			conflicts = append(conflicts, "CONFLICT (add/add): Merge conflict in "+p)
		case !inO:
			conflicts = append(conflicts, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in HEAD and modified in the other side.", p))
		default:
			conflicts = append(conflicts, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in the other side and modified in HEAD.", p))
		}
	}
	return out, auto, conflicts
}

// mergeContent merges two edits of base when they do not overlap or
// touch (git treats adjacent changes as conflicts too).
func mergeContent(base, ours, theirs []byte) ([]byte, bool) {
	if isBinary(base) || isBinary(ours) || isBinary(theirs) {
		return nil, false
	}
	bl := splitLines(base)
	d1 := xdiffRecs(bl, splitLines(ours))
	d2 := xdiffRecs(bl, splitLines(theirs))
	c1, c2 := d1.changes, d2.changes
	type edit struct {
		i1, chg1 int
		lines    [][]byte
	}
	var edits []edit
	i, j := 0, 0
	for i < len(c1) || j < len(c2) {
		switch {
		case j >= len(c2) || (i < len(c1) && c1[i].i1+c1[i].chg1 < c2[j].i1):
			c := c1[i]
			edits = append(edits, edit{c.i1, c.chg1, d1.b.recs[c.i2 : c.i2+c.chg2]})
			i++
		case i >= len(c1) || c2[j].i1+c2[j].chg1 < c1[i].i1:
			c := c2[j]
			edits = append(edits, edit{c.i1, c.chg1, d2.b.recs[c.i2 : c.i2+c.chg2]})
			j++
		default:
			a, b := c1[i], c2[j]
			if a.i1 != b.i1 || a.chg1 != b.chg1 || a.chg2 != b.chg2 {
				return nil, false
			}
			for k := 0; k < a.chg2; k++ {
				if !bytes.Equal(d1.b.recs[a.i2+k], d2.b.recs[b.i2+k]) {
					return nil, false
				}
			}
			edits = append(edits, edit{a.i1, a.chg1, d1.b.recs[a.i2 : a.i2+a.chg2]})
			i++
			j++
		}
	}
	var out bytes.Buffer
	pos := 0
	for _, e := range edits {
		for ; pos < e.i1; pos++ {
			out.Write(bl[pos])
		}
		for _, l := range e.lines {
			out.Write(l)
		}
		pos = e.i1 + e.chg1
	}
	for ; pos < len(bl); pos++ {
		out.Write(bl[pos])
	}
	return out.Bytes(), true
}
