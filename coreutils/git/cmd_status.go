package git

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// statusEntry is one path's state.
type statusEntry struct {
	path     string
	orig     string // rename source
	staged   byte   // 0 when unchanged
	unstaged byte
	score    int
}

// statusData is what status reports.
type statusData struct {
	head       headInfo
	initial    bool
	amend      bool // "No changes" when nothing is committable
	fromCommit bool // printed by commit: "Initial commit"
	entries    []statusEntry
	untracked  []string
	ignored    []string
}

func (s *statusData) committable() bool {
	for _, e := range s.entries {
		if e.staged != 0 {
			return true
		}
	}
	return false
}

func (s *statusData) workdirDirty() bool {
	for _, e := range s.entries {
		if e.unstaged != 0 {
			return true
		}
	}
	return false
}

// stagedPairs compares HEAD (or an empty tree) with the index.
func (r *repo) stagedPairs(ps *pathspec, renames bool) []diffPair {
	hd := r.head()
	var base plumbing.Hash
	if !hd.unborn() {
		base = r.getCommit(hd.hash).tree
	}
	return r.stagedPairsFrom(base, ps, renames)
}

// stagedPairsFrom compares a tree (zero for none) with the index.
func (r *repo) stagedPairsFrom(base plumbing.Hash, ps *pathspec, renames bool) []diffPair {
	var headFiles []fileEntry
	if !base.IsZero() {
		headFiles = r.flattenTree(base)
	}
	pairs := diffLists(headFiles, r.index().files(), ps)
	if renames {
		pairs = r.detectRenames(pairs, maxScore/2)
	}
	return pairs
}

// unstagedPairs compares the index with the work tree.
func (r *repo) unstagedPairs(ps *pathspec) []diffPair {
	var out []diffPair
	for i, e := range r.index().entries() {
		if i&1023 == 1023 {
			r.g.check()
		}
		if !ps.match(e.Name) {
			continue
		}
		st, fi, h := r.checkWork(e)
		switch st {
		case wtClean:
		case wtDeleted:
			out = append(out, diffPair{status: 'D', a: diffSide{path: e.Name, mode: e.Mode, hash: e.Hash}, b: diffSide{path: e.Name}})
		default:
			mode := r.fileMode(fi, e)
			if h.IsZero() {
				h, _ = r.workHash(e.Name, fi)
			}
			if e.IntentToAdd {
				out = append(out, diffPair{status: 'A', a: diffSide{path: e.Name}, b: diffSide{path: e.Name, mode: mode, hash: h, wt: true}})
				continue
			}
			status := byte('M')
			if st == wtTypeChanged {
				status = 'T'
			}
			out = append(out, diffPair{status: status, a: diffSide{path: e.Name, mode: e.Mode, hash: e.Hash}, b: diffSide{path: e.Name, mode: mode, hash: h, wt: true}})
		}
	}
	return out
}

// collectStatus gathers everything status shows.
func (r *repo) collectStatus(ps *pathspec, umode untrackedMode, ignored bool, renames bool) *statusData {
	hd := r.head()
	var base plumbing.Hash
	if !hd.unborn() {
		base = r.getCommit(hd.hash).tree
	}
	return r.collectStatusFrom(base, ps, umode, ignored, renames)
}

// collectStatusFrom reports staged changes against base (a tree).
func (r *repo) collectStatusFrom(base plumbing.Hash, ps *pathspec, umode untrackedMode, ignored bool, renames bool) *statusData {
	s := &statusData{head: r.head()}
	s.initial = s.head.unborn()
	byPath := map[string]*statusEntry{}
	get := func(p string) *statusEntry {
		e, ok := byPath[p]
		if !ok {
			e = &statusEntry{path: p}
			byPath[p] = e
		}
		return e
	}
	for _, p := range r.stagedPairsFrom(base, ps, renames) {
		switch p.status {
		case 'R':
			e := get(p.b.path)
			e.staged = 'R'
			e.orig = p.a.path
			e.score = p.score
		case 'D':
			get(p.a.path).staged = 'D'
		default:
			get(p.b.path).staged = p.status
		}
	}
	for _, p := range r.unstagedPairs(ps) {
		st := p.status
		if st == 'A' {
			st = 'A'
		}
		get(p.a.path).unstaged = st
		if p.status == 'A' {
			get(p.a.path).unstaged = 'A'
		}
	}
	for _, e := range byPath {
		s.entries = append(s.entries, *e)
	}
	sort.Slice(s.entries, func(i, j int) bool { return s.entries[i].path < s.entries[j].path })
	res := r.walkWorktree(walkOpts{mode: umode, wantIgnored: ignored, ignoredAll: umode == untrackedAll, ps: ps})
	s.untracked = res.untracked
	s.ignored = res.ignored
	return s
}

var statusSpecs = []optSpec{
	{short: 'v', long: "verbose"},
	{short: 's', long: "short"},
	{short: 'b', long: "branch"},
	{long: "show-stash"},
	{long: "ahead-behind"},
	{long: "porcelain", arg: argOptional},
	{long: "long"},
	{short: 'z', long: "null"},
	{short: 'u', long: "untracked-files", arg: argOptional},
	{long: "ignored", arg: argOptional},
	{long: "ignore-submodules", arg: argOptional},
	{long: "column", arg: argOptional},
	{long: "no-renames"},
	{short: 'M', long: "find-renames", arg: argOptional},
	{long: "renames"},
}

func parseUntrackedMode(g *cmd, v string) untrackedMode {
	switch v {
	case "no":
		return untrackedNo
	case "normal":
		return untrackedNormal
	case "all", "":
		return untrackedAll
	}
	g.fatal("Invalid untracked files mode '%s'", v)
	return 0
}

func cmdStatus(g *cmd, args []string) int {
	p := g.parse(args, statusSpecs)
	r := g.worktreeRepo()
	format := "long"
	porcelainV := ""
	branch := false
	nul := false
	for _, o := range p.opts {
		switch o.key {
		case "short":
			if o.neg {
				format = "long"
			} else {
				format = "short"
			}
		case "porcelain":
			format = "porcelain"
			porcelainV = o.val
		case "long":
			format = "long"
		case "branch":
			branch = !o.neg
		case "null":
			nul = !o.neg
			if nul && format == "long" {
				format = "porcelain"
			}
		}
	}
	if porcelainV != "" && porcelainV != "v1" && porcelainV != "1" {
		if porcelainV == "v2" || porcelainV == "2" {
			g.fatal("--porcelain=v2 is not supported in the sandbox")
		}
		g.fatal("unsupported porcelain version '%s'", porcelainV)
	}
	umode := untrackedNormal
	if v, ok := r.cfg.get("status.showuntrackedfiles"); ok {
		umode = parseUntrackedMode(g, v)
	}
	if v, ok := p.str("untracked-files"); ok || p.given("untracked-files") {
		if p.given("untracked-files") && !ok {
			umode = untrackedNo
		} else {
			umode = parseUntrackedMode(g, v)
		}
	}
	ignored := false
	if v, ok := p.str("ignored"); ok {
		if v == "no" {
			ignored = false
		} else if v == "" || v == "traditional" || v == "matching" {
			ignored = true
		} else {
			g.fatal("Invalid ignored mode '%s'", v)
		}
	}
	renames := r.cfg.getBool("status.renames", r.cfg.getBool("diff.renames", true))
	if p.given("no-renames") {
		renames = false
	}
	if p.flag("find-renames") || p.flag("renames") {
		renames = true
	}
	ps := r.makePathspec(p.args)
	if umode != untrackedNo {
		r.leadingDirWarning(ps)
	}
	s := r.collectStatus(ps, umode, ignored, renames)
	var w bytes.Buffer
	switch format {
	case "long":
		r.printLongStatus(&w, s, umode, true)
	default:
		if branch {
			r.printShortBranch(&w, s, nul)
		}
		r.printShortStatus(&w, s, format == "porcelain", nul)
	}
	g.out.Write(w.Bytes())
	return 0
}

// statusPath renders a path for long and short status.
func (r *repo) statusPath(p string, relative bool, quoteSpace bool) string {
	if relative {
		p = r.relPath(p)
	}
	q := r.quoteName(p)
	if quoteSpace && q == p && strings.Contains(p, " ") {
		return `"` + p + `"`
	}
	return q
}

func (r *repo) printShortStatus(w *bytes.Buffer, s *statusData, porcelain, nul bool) {
	relative := !porcelain && r.cfg.getBool("status.relativepaths", true)
	for _, e := range s.entries {
		x, y := e.staged, e.unstaged
		if x == 0 {
			x = ' '
		}
		if y == 0 {
			y = ' '
		}
		if nul {
			fmt.Fprintf(w, "%c%c %s\x00", x, y, e.path)
			if e.orig != "" {
				fmt.Fprintf(w, "%s\x00", e.orig)
			}
			continue
		}
		if e.orig != "" {
			fmt.Fprintf(w, "%c%c %s -> %s\n", x, y, r.statusPath(e.orig, relative, true), r.statusPath(e.path, relative, true))
		} else {
			fmt.Fprintf(w, "%c%c %s\n", x, y, r.statusPath(e.path, relative, true))
		}
	}
	for _, u := range s.untracked {
		if nul {
			fmt.Fprintf(w, "?? %s\x00", u)
		} else {
			fmt.Fprintf(w, "?? %s\n", r.statusPath(u, relative, true))
		}
	}
	for _, u := range s.ignored {
		if nul {
			fmt.Fprintf(w, "!! %s\x00", u)
		} else {
			fmt.Fprintf(w, "!! %s\n", r.statusPath(u, relative, true))
		}
	}
}

// upstream returns the remote-tracking ref a branch follows, if any.
func (r *repo) upstream(branch string) (string, string, bool) {
	remote, ok1 := r.cfg.get("branch." + branch + ".remote")
	merge, ok2 := r.cfg.get("branch." + branch + ".merge")
	if !ok1 || !ok2 {
		return "", "", false
	}
	if remote == "." {
		return merge, strings.TrimPrefix(merge, "refs/heads/"), true
	}
	short := strings.TrimPrefix(merge, "refs/heads/")
	return "refs/remotes/" + remote + "/" + short, remote + "/" + short, true
}

// aheadBehind counts commits only in a and only in b.
func (r *repo) aheadBehind(a, b plumbing.Hash) (int, int) {
	ra := r.reachable(a)
	rb := r.reachable(b)
	ahead, behind := 0, 0
	for h := range ra {
		if !rb[h] {
			ahead++
		}
	}
	for h := range rb {
		if !ra[h] {
			behind++
		}
	}
	return ahead, behind
}

// reachableSet lists the commits reachable from any of hs.
func (r *repo) reachableSet(hs []plumbing.Hash) map[plumbing.Hash]bool {
	out := map[plumbing.Hash]bool{}
	for _, h := range hs {
		if c, ok := r.commitOf(h); ok {
			for k := range r.reachable(c) {
				out[k] = true
			}
		}
	}
	return out
}

// reachable lists the commits reachable from h.
func (r *repo) reachable(h plumbing.Hash) map[plumbing.Hash]bool {
	seen := map[plumbing.Hash]bool{}
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c.IsZero() || seen[c] {
			continue
		}
		seen[c] = true
		if len(seen)&1023 == 0 {
			r.g.check()
		}
		stack = append(stack, r.getCommit(c).parents...)
	}
	return seen
}

func (r *repo) printShortBranch(w *bytes.Buffer, s *statusData, nul bool) {
	term := "\n"
	if nul {
		term = "\x00"
	}
	if !s.head.symbolic {
		w.WriteString("## HEAD (no branch)" + term)
		return
	}
	b := s.head.branch()
	if s.initial {
		w.WriteString("## No commits yet on " + b + term)
		return
	}
	w.WriteString("## " + b)
	if ref, short, ok := r.upstream(b); ok {
		w.WriteString("..." + short)
		uh, exists := r.resolveRef(ref)
		if !exists {
			w.WriteString(" [gone]")
		} else {
			ahead, behind := r.aheadBehind(s.head.hash, uh)
			switch {
			case ahead > 0 && behind > 0:
				fmt.Fprintf(w, " [ahead %d, behind %d]", ahead, behind)
			case ahead > 0:
				fmt.Fprintf(w, " [ahead %d]", ahead)
			case behind > 0:
				fmt.Fprintf(w, " [behind %d]", behind)
			}
		}
	}
	w.WriteString(term)
}

// trackingInfo is the "Your branch is ..." paragraph, or "".
func (r *repo) trackingInfo(branch string, head plumbing.Hash, hints bool) string {
	ref, short, ok := r.upstream(branch)
	if !ok {
		return ""
	}
	uh, exists := r.resolveRef(ref)
	if !exists {
		s := fmt.Sprintf("Your branch is based on '%s', but the upstream is gone.\n", short)
		if hints {
			s += "  (use \"git branch --unset-upstream\" to fixup)\n"
		}
		return s
	}
	ahead, behind := r.aheadBehind(head, uh)
	plural := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	switch {
	case ahead == 0 && behind == 0:
		return fmt.Sprintf("Your branch is up to date with '%s'.\n", short)
	case behind == 0:
		s := fmt.Sprintf("Your branch is ahead of '%s' by %d %s.\n", short, ahead, plural(ahead, "commit", "commits"))
		if hints {
			s += "  (use \"git push\" to publish your local commits)\n"
		}
		return s
	case ahead == 0:
		s := fmt.Sprintf("Your branch is behind '%s' by %d %s, and can be fast-forwarded.\n", short, behind, plural(behind, "commit", "commits"))
		if hints {
			s += "  (use \"git pull\" to update your local branch)\n"
		}
		return s
	}
	s := fmt.Sprintf("Your branch and '%s' have diverged,\nand have %d and %d different %s each, respectively.\n", short, ahead, behind, plural(behind, "commit", "commits"))
	if hints {
		s += "  (use \"git pull\" to merge the remote branch into yours)\n"
	}
	return s
}

// detachedFrom finds what HEAD was detached at, from the HEAD reflog.
func (r *repo) detachedFrom(head plumbing.Hash) (string, bool) {
	for _, e := range r.readReflog("HEAD") {
		_, target, ok := checkoutMove(e.msg)
		if !ok {
			continue
		}
		from := ""
		if target == "HEAD" {
			from = r.abbrev(e.new)
		} else if full, h, ok := r.dwimRef(target); ok && (h == e.new || r.peelToCommit(h) == e.new) {
			from = full
			if t, ok := strings.CutPrefix(from, "refs/tags/"); ok {
				from = t
			} else if t, ok := strings.CutPrefix(from, "refs/remotes/"); ok {
				from = t
			}
		} else {
			from = r.abbrev(e.new)
		}
		return from, head == e.new
	}
	return "", false
}

func (r *repo) peelToCommit(h plumbing.Hash) plumbing.Hash {
	p, t := r.peel(h)
	if t != plumbing.CommitObject {
		return plumbing.ZeroHash
	}
	return p
}

var statusLabels = map[byte]string{
	'A': "new file:", 'C': "copied:", 'D': "deleted:", 'M': "modified:",
	'R': "renamed:", 'T': "typechange:", 'X': "unknown:", 'U': "unmerged:",
}

// printLongStatus is git's default status output.
func (r *repo) printLongStatus(w *bytes.Buffer, s *statusData, umode untrackedMode, showBranch bool) {
	hints := r.cfg.getBool("advice.statushints", true)
	if showBranch {
		if s.head.symbolic {
			fmt.Fprintf(w, "On branch %s\n", s.head.branch())
			if !s.initial {
				if t := r.trackingInfo(s.head.branch(), s.head.hash, hints); t != "" {
					w.WriteString(t)
					w.WriteString("\n")
				}
			}
		} else {
			if from, at := r.detachedFrom(s.head.hash); from != "" {
				if at {
					fmt.Fprintf(w, "HEAD detached at %s\n", from)
				} else {
					fmt.Fprintf(w, "HEAD detached from %s\n", from)
				}
			} else {
				w.WriteString("Not currently on any branch.\n")
			}
		}
	}
	if s.initial {
		if s.fromCommit {
			w.WriteString("\nInitial commit\n\n")
		} else {
			w.WriteString("\nNo commits yet\n\n")
		}
	}
	rel := r.cfg.getBool("status.relativepaths", true)
	item := func(label byte, e statusEntry, orig string) {
		what := statusLabels[label]
		pad := strings.Repeat(" ", 12-len(what))
		if orig != "" {
			fmt.Fprintf(w, "\t%s%s%s -> %s\n", what, pad, r.statusPath(orig, rel, false), r.statusPath(e.path, rel, false))
		} else {
			fmt.Fprintf(w, "\t%s%s%s\n", what, pad, r.statusPath(e.path, rel, false))
		}
	}
	if s.committable() {
		w.WriteString("Changes to be committed:\n")
		if hints {
			if s.initial {
				w.WriteString("  (use \"git rm --cached <file>...\" to unstage)\n")
			} else {
				w.WriteString("  (use \"git restore --staged <file>...\" to unstage)\n")
			}
		}
		for _, e := range s.entries {
			if e.staged != 0 {
				item(e.staged, e, e.orig)
			}
		}
		w.WriteString("\n")
	}
	if s.workdirDirty() {
		hasDeleted := false
		for _, e := range s.entries {
			if e.unstaged == 'D' {
				hasDeleted = true
			}
		}
		w.WriteString("Changes not staged for commit:\n")
		if hints {
			if hasDeleted {
				w.WriteString("  (use \"git add/rm <file>...\" to update what will be committed)\n")
			} else {
				w.WriteString("  (use \"git add <file>...\" to update what will be committed)\n")
			}
			w.WriteString("  (use \"git restore <file>...\" to discard changes in working directory)\n")
		}
		for _, e := range s.entries {
			if e.unstaged != 0 {
				label := e.unstaged
				if label == 'A' {
					label = 'A'
				}
				item(label, e, "")
			}
		}
		w.WriteString("\n")
	}
	if umode != untrackedNo {
		lists := []struct {
			title, add string
			paths      []string
		}{{"Untracked", "git add", s.untracked}, {"Ignored", "git add -f", s.ignored}}
		for _, l := range lists {
			if len(l.paths) == 0 {
				continue
			}
			w.WriteString(l.title + " files:\n")
			if hints {
				fmt.Fprintf(w, "  (use \"%s <file>...\" to include in what will be committed)\n", l.add)
			}
			for _, u := range l.paths {
				fmt.Fprintf(w, "\t%s\n", r.statusPath(u, rel, false))
			}
			w.WriteString("\n")
		}
	} else if s.committable() {
		if hints {
			w.WriteString("Untracked files not listed (use -u option to show untracked files)\n")
		} else {
			w.WriteString("Untracked files not listed\n")
		}
	}
	if !s.committable() {
		switch {
		case s.amend:
			w.WriteString("No changes\n")
		case s.workdirDirty():
			if hints {
				w.WriteString("no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
			} else {
				w.WriteString("no changes added to commit\n")
			}
		case len(s.untracked) > 0:
			if hints {
				w.WriteString("nothing added to commit but untracked files present (use \"git add\" to track)\n")
			} else {
				w.WriteString("nothing added to commit but untracked files present\n")
			}
		case s.initial:
			if hints {
				w.WriteString("nothing to commit (create/copy files and use \"git add\" to track)\n")
			} else {
				w.WriteString("nothing to commit\n")
			}
		case umode == untrackedNo:
			if hints {
				w.WriteString("nothing to commit (use -u to show untracked files)\n")
			} else {
				w.WriteString("nothing to commit\n")
			}
		default:
			w.WriteString("nothing to commit, working tree clean\n")
		}
	}
}

var _ = filemode.Regular
