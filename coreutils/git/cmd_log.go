package git

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var logOnlySpecs = []optSpec{
	{short: 'n', long: "max-count", arg: argRequired},
	{long: "skip", arg: argRequired},
	{long: "oneline"},
	{long: "pretty", arg: argOptional},
	{long: "format", arg: argRequired},
	{long: "abbrev-commit"},
	{long: "no-abbrev-commit"},
	{long: "decorate", arg: argOptional},
	{long: "no-decorate"},
	{long: "date", arg: argRequired},
	{long: "reverse"},
	{long: "author", arg: argRequired},
	{long: "committer", arg: argRequired},
	{long: "grep", arg: argRequired},
	{long: "all-match"},
	{long: "invert-grep"},
	{short: 'i', long: "regexp-ignore-case"},
	{short: 'E', long: "extended-regexp"},
	{short: 'F', long: "fixed-strings"},
	{long: "since", arg: argRequired},
	{long: "after", arg: argRequired},
	{long: "until", arg: argRequired},
	{long: "before", arg: argRequired},
	{long: "first-parent"},
	{long: "no-merges"},
	{long: "merges"},
	{long: "all"},
	{long: "branches", arg: argOptional},
	{long: "tags", arg: argOptional},
	{long: "remotes", arg: argOptional},
	{long: "graph"},
	{long: "follow"},
	{long: "topo-order"},
	{long: "date-order"},
	{long: "author-date-order"},
	{long: "no-walk", arg: argOptional},
	{long: "do-walk"},
	{long: "parents"},
	{long: "children"},
	{long: "left-right"},
	{long: "cherry-pick"},
	{short: 'm'},
	{short: 'c'},
	{long: "cc"},
	{long: "expand-tabs", arg: argOptional},
	{long: "no-expand-tabs"},
	{long: "mailmap"},
	{long: "no-mailmap"},
	{long: "use-mailmap"},
	{long: "log-size"},
	{long: "source"},
	{long: "notes", arg: argOptional},
	{long: "no-notes"},
	{long: "show-signature"},
	{long: "full-history"},
	{long: "simplify-merges"},
	{long: "ancestry-path"},
	{long: "boundary"},
	{long: "count"},
	{short: 'L', arg: argRequired},
	{short: 'S', arg: argRequired},
	{short: 'G', arg: argRequired},
	{long: "pickaxe-regex"},
	{long: "pickaxe-all"},
}

// logRun is a parsed log/show/rev-list invocation.
type logRun struct {
	r              *repo
	includes       []plumbing.Hash
	excludes       []plumbing.Hash
	names          []string // the revisions as given (show)
	ps             *pathspec
	maxCount       int
	skip           int
	reverse        bool
	authors        []*regexp.Regexp
	committers     []*regexp.Regexp
	greps          []*regexp.Regexp
	allMatch       bool
	invertGrep     bool
	since          int64
	until          int64
	firstParent    bool
	noMerges       bool
	merges         bool
	graph          bool
	pretty         prettyFmt
	lc             logCtx
	diff           diffOpts
	count          bool
	noWalk         bool
	parents        bool
	topo           bool
	isShow         bool
	pick           *pickaxe
	gr             *graph
	missingNewline bool
}

// parseLogArgs parses log-like arguments. defaultRev is used when no
// revision is given (HEAD for log, nothing for rev-list).
func (g *cmd) parseLogArgs(args []string, isShow bool) (*logRun, *repo) {
	// "-5" means -n 5.
	var cleaned []string
	maxCount := -1
	for i, a := range args {
		if a == "--" {
			cleaned = append(cleaned, args[i:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && isDigits(a[1:]) {
			maxCount, _ = atoi(a[1:])
			continue
		}
		cleaned = append(cleaned, a)
	}
	specs := append(append([]optSpec{}, logOnlySpecs...), diffOptSpecs...)
	for _, a := range cleaned {
		if a == "-h" {
			g.shortHelp()
		}
		if a == "--" {
			break
		}
	}
	p, err := parseOpts(cleaned, specs, false)
	if err != nil {
		if opt, ok := unknownOption(err); ok {
			g.fatal("unrecognized argument: %s", opt)
		}
		g.fatal("%s", err.Error())
	}
	r := g.repo()
	lr := &logRun{r: r, maxCount: maxCount, lc: logCtx{r: r, expandTabs: 8}, diff: defaultDiffOpts()}
	lr.pretty = prettyFmt{kind: "medium"}
	lr.diff.renames = r.cfg.getBool("diff.renames", true)
	if v, ok := r.cfg.get("log.date"); ok {
		if m, ok := parseDateMode(v); ok {
			lr.lc.dateMode = m
		}
	}
	if v, ok := r.cfg.get("format.pretty"); ok {
		lr.pretty = parsePretty(g, v, false)
	}
	if v, ok := r.cfg.get("log.decorate"); ok {
		switch v {
		case "short", "true", "yes", "on", "1":
			lr.lc.decorate = 1
		case "full":
			lr.lc.decorate = 2
		}
	}
	ignoreCase := p.flag("regexp-ignore-case")
	fixed := p.flag("fixed-strings")
	var authorPats, committerPats, grepPats []string
	var refGlobs []string
	for _, o := range p.opts {
		if g.applyDiffOpt(&lr.diff, o) {
			continue
		}
		switch o.key {
		case "max-count":
			n, ok := atoi(o.val)
			if !ok {
				g.fatal("'%s': not an integer", o.val)
			}
			lr.maxCount = n
		case "skip":
			lr.skip, _ = atoi(o.val)
		case "oneline":
			lr.pretty = prettyFmt{kind: "oneline", terminator: true}
			lr.lc.abbrev = true
		case "pretty":
			lr.pretty = parsePretty(g, o.val, false)
		case "format":
			lr.pretty = parsePretty(g, o.val, true)
		case "abbrev-commit":
			lr.lc.abbrev = !o.neg
		case "no-abbrev-commit":
			lr.lc.abbrev = false
		case "decorate":
			if o.neg {
				lr.lc.decorate = 0
				break
			}
			switch o.val {
			case "", "short", "auto":
				lr.lc.decorate = 1
			case "full":
				lr.lc.decorate = 2
			case "no":
				lr.lc.decorate = 0
			default:
				g.fatal("invalid --decorate option: %s", o.val)
			}
		case "no-decorate":
			lr.lc.decorate = 0
		case "date":
			m, ok := parseDateMode(o.val)
			if !ok {
				g.fatal("unknown date format %s", o.val)
			}
			lr.lc.dateMode = m
		case "reverse":
			lr.reverse = !o.neg
		case "author":
			authorPats = append(authorPats, o.val)
		case "committer":
			committerPats = append(committerPats, o.val)
		case "grep":
			grepPats = append(grepPats, o.val)
		case "all-match":
			lr.allMatch = true
		case "invert-grep":
			lr.invertGrep = true
		case "since", "after":
			t, _, ok := g.parseApproxDate(o.val)
			if ok {
				lr.since = t
			}
		case "until", "before":
			t, _, ok := g.parseApproxDate(o.val)
			if ok {
				lr.until = t
			}
		case "first-parent":
			lr.firstParent = true
		case "no-merges":
			lr.noMerges = true
		case "merges":
			lr.merges = true
		case "all":
			refGlobs = append(refGlobs, "refs/", "HEAD")
		case "branches":
			refGlobs = append(refGlobs, "refs/heads/"+o.val)
		case "tags":
			refGlobs = append(refGlobs, "refs/tags/"+o.val)
		case "remotes":
			refGlobs = append(refGlobs, "refs/remotes/"+o.val)
		case "graph":
			lr.graph = true
			lr.topo = true
		case "topo-order":
			lr.topo = true
		case "expand-tabs":
			lr.lc.expandTabs = 8
			if o.has {
				lr.lc.expandTabs, _ = atoi(o.val)
			}
		case "no-expand-tabs":
			lr.lc.expandTabs = 0
		case "count":
			lr.count = true
		case "no-walk":
			lr.noWalk = !o.neg
		case "parents":
			lr.parents = true
		case "L":
			g.fatal("-L is not supported in the sandbox")
		case "S":
			if lr.pick == nil {
				lr.pick = &pickaxe{}
			}
			lr.pick.s = o.val
		case "G":
			re, err := regexp.Compile(o.val)
			if err != nil {
				g.fatal("invalid regex: %s", o.val)
			}
			if lr.pick == nil {
				lr.pick = &pickaxe{}
			}
			lr.pick.re = re
		}
	}
	compile := func(pats []string) []*regexp.Regexp {
		var out []*regexp.Regexp
		for _, s := range pats {
			if fixed {
				s = regexp.QuoteMeta(s)
			}
			if ignoreCase {
				s = "(?i)" + s
			}
			re, err := regexp.Compile(s)
			if err != nil {
				g.fatal("command line, '%s': %v", s, err)
			}
			out = append(out, re)
		}
		return out
	}
	if lr.pick != nil {
		lr.pick.all = p.flag("pickaxe-all")
		if p.flag("pickaxe-regex") && lr.pick.s != "" {
			re, err := regexp.Compile(lr.pick.s)
			if err != nil {
				g.fatal("invalid regex: %s", lr.pick.s)
			}
			lr.pick.re = re
		}
	}
	lr.isShow = isShow
	if isShow && lr.diff.format == 0 {
		lr.diff.format = fmtPatch
	}
	lr.authors = compile(authorPats)
	lr.committers = compile(committerPats)
	lr.greps = compile(grepPats)
	if lr.lc.abbrev && lr.pretty.kind != "oneline" {
		lr.lc.abbrev = true
	}
	// Revisions and paths.
	before, after, hasDD := p.split()
	var paths []string
	for i, a := range before {
		if len(paths) > 0 {
			// Once a path is seen, the rest must be paths.
			if !r.pathExists(a) {
				if _, err := r.resolveRev(a); err == nil {
					g.fatal("option '%s' must come before non-option arguments", a)
				}
				r.dieBadRev(a, &revError{})
			}
			paths = append(paths, a)
			continue
		}
		if lr.addRev(a) {
			continue
		}
		if hasDD {
			g.fatal("bad revision '%s'", a)
		}
		if r.work != "" && r.pathExists(a) {
			paths = append(paths, r.trailingPaths(before[i:])...)
			break
		}
		r.dieBadRev(a, &revError{})
	}
	paths = append(paths, after...)
	for _, gl := range refGlobs {
		if gl == "HEAD" {
			if hd := r.head(); !hd.unborn() {
				lr.includes = append(lr.includes, hd.hash)
			}
			continue
		}
		for _, ref := range r.listRefs(gl) {
			if ref.name == "refs/stash" && gl == "refs/" {
				continue
			}
			if c, ok := r.commitOf(ref.hash); ok {
				lr.includes = append(lr.includes, c)
			}
		}
	}
	if r.work != "" {
		lr.ps = r.makePathspec(paths)
	} else {
		lr.ps = &pathspec{}
		for _, s := range paths {
			lr.ps.items = append(lr.ps.items, pathspecItem{orig: s, match: strings.Trim(s, "/"), glob: hasGlob(s)})
		}
	}
	return lr, r
}

// pathExists reports whether a path names something in the work tree.
func (r *repo) pathExists(p string) bool {
	if r.work == "" {
		return false
	}
	if strings.HasPrefix(p, ":") {
		return true
	}
	_, _, err := r.fs.LstatIfPossible(r.g.abs(p))
	return err == nil
}

// addRev records a revision argument; false when it does not resolve.
func (lr *logRun) addRev(a string) bool {
	r := lr.r
	if strings.HasPrefix(a, "^") && len(a) > 1 {
		c, ok := r.resolveCommit(a[1:])
		if !ok {
			return false
		}
		lr.excludes = append(lr.excludes, c)
		return true
	}
	if left, right, sym, ok := splitRange(a); ok {
		lc, ok1 := r.resolveCommit(left)
		rc, ok2 := r.resolveCommit(right)
		if !ok1 || !ok2 {
			return false
		}
		if sym {
			lr.includes = append(lr.includes, lc, rc)
			lr.names = append(lr.names, left, right)
			lr.excludes = append(lr.excludes, r.mergeBases(lc, rc)...)
		} else {
			lr.excludes = append(lr.excludes, lc)
			lr.includes = append(lr.includes, rc)
			lr.names = append(lr.names, right)
		}
		return true
	}
	h, err := r.resolveRev(a)
	if err != nil {
		if err.msg != "" {
			r.g.fatal("%s", err.msg)
		}
		return false
	}
	lr.includes = append(lr.includes, h)
	lr.names = append(lr.names, a)
	return true
}

// defaultHead is the commit log and show start from without a revision;
// it dies as git does on an unborn branch.
func (r *repo) defaultHead() plumbing.Hash {
	hd := r.head()
	if hd.unborn() {
		if hd.symbolic {
			r.g.fatal("your current branch '%s' does not have any commits yet", hd.branch())
		}
		r.g.fatal("bad default revision 'HEAD'")
	}
	return hd.hash
}

func cmdLog(g *cmd, args []string) int {
	lr, r := g.parseLogArgs(args, false)
	if len(lr.includes) == 0 && len(lr.excludes) == 0 {
		lr.includes = append(lr.includes, r.defaultHead())
	}
	commits := lr.walk()
	var w bytes.Buffer
	r.streamTo, r.flush = &w, g.flushPart
	for i, c := range commits {
		lr.writeCommit(&w, c, i, i == len(commits)-1)
		if w.Len() > 64<<10 {
			g.flushPart(&w)
		}
	}
	if lr.pretty.kind == "format" && !lr.pretty.terminator && len(commits) > 0 && lr.diff.format&^fmtNoOutput == 0 {
		// separator semantics: no newline after the last entry
	}
	g.out.Write(w.Bytes())
	return 0
}

// commitDiff returns the pairs a commit introduces against its first
// parent (or the empty tree).
func (lr *logRun) commitDiff(c *commit) []diffPair {
	r := lr.r
	var parentTree plumbing.Hash
	if len(c.parents) > 0 {
		parentTree = r.getCommit(c.parents[0]).tree
	}
	pairs := r.diffTrees(parentTree, c.tree, lr.ps)
	pairs = r.preparePairs(pairs, &lr.diff)
	if lr.pick != nil {
		pairs = lr.pick.filter(r, pairs)
	}
	return pairs
}

// writeCommit prints one commit of log output.
func (lr *logRun) writeCommit(w *bytes.Buffer, c *commit, idx int, last bool) {
	if lr.gr != nil {
		lr.writeGraphCommit(w, c, idx)
		return
	}
	pf := lr.pretty
	// Separator between entries for separator-style formats.
	if idx > 0 && !pf.terminator {
		w.WriteString("\n")
	}
	w.WriteString(lr.header(c))
	if pf.terminator && pf.kind == "format" {
		w.WriteString("\n")
	}
	if pairs := lr.diffFor(c); len(pairs) > 0 {
		w.WriteString(lr.diffSeparator())
		lr.r.writeDiff(w, pairs, &lr.diff)
	} else if lr.isShow && len(c.parents) > 1 && lr.diff.format&^fmtNoOutput != 0 {
		lr.showMerge(w, c)
	}
}

// showMerge is show's combined diff of a merge: the stat formats are
// against the first parent; the other formats list what differs from
// every parent, which after a clean merge is nothing.
func (lr *logRun) showMerge(w *bytes.Buffer, c *commit) {
	d := lr.diff
	d.finish()
	statOnly := d.format & (fmtStat | fmtNumstat | fmtShortstat)
	// Combined diffs always start with a blank line, even after --oneline.
	w.WriteString("\n")
	if statOnly == 0 {
		return
	}
	pairs := lr.r.diffTrees(lr.r.getCommit(c.parents[0]).tree, c.tree, lr.ps)
	pairs = lr.r.preparePairs(pairs, &lr.diff)
	d.format = statOnly
	lr.r.writeDiff(w, pairs, &d)
}

// header is the formatted commit text.
func (lr *logRun) header(c *commit) string {
	if lr.pretty.kind == "format" {
		return lr.lc.formatUser(c, lr.pretty.format)
	}
	return lr.lc.formatBuiltin(c, lr.pretty)
}

// diffFor returns the pairs to show after a commit, if any.
func (lr *logRun) diffFor(c *commit) []diffPair {
	if lr.diff.format&^fmtNoOutput == 0 {
		return nil
	}
	if len(c.parents) > 1 {
		return nil
	}
	return lr.commitDiff(c)
}

// diffSeparator is what goes between the message and the diff.
func (lr *logRun) diffSeparator() string {
	pf := lr.pretty
	if pf.kind == "oneline" || (pf.kind == "format" && pf.format == "") {
		return ""
	}
	d := lr.diff
	d.finish()
	if d.format&fmtStat != 0 && d.format&fmtPatch != 0 {
		return "---\n"
	}
	return "\n"
}

// writeGraphCommit prints a commit with the --graph columns.
func (lr *logRun) writeGraphCommit(w *bytes.Buffer, c *commit, idx int) {
	gr := lr.gr
	pf := lr.pretty
	gr.update(c, lr.firstParent)
	if idx > 0 && !pf.terminator {
		if !lr.missingNewline {
			gr.paddingLine(w)
		}
		w.WriteString("\n")
	}
	gr.showCommit(w)
	text := lr.header(c)
	if pf.kind == "oneline" {
		text = strings.TrimSuffix(text, "\n")
	}
	lr.missingNewline = !strings.HasSuffix(text, "\n")
	gr.showCommitMsg(w, text)
	if pf.terminator {
		if !lr.missingNewline {
			gr.paddingLine(w)
		}
		w.WriteString("\n")
	}
	if pairs := lr.diffFor(c); len(pairs) > 0 {
		if sep := lr.diffSeparator(); sep != "" {
			gr.paddingLine(w)
			w.WriteString(sep)
		}
		var d bytes.Buffer
		lr.r.writeDiff(&d, pairs, &lr.diff)
		gr.prefixLines(w, d.Bytes())
		lr.missingNewline = false
	}
}

// parseApproxDate reads --since/--until values: the formats of parseDate,
// plus "N units ago".
func (g *cmd) parseApproxDate(s string) (int64, string, bool) {
	if t, tz, ok := g.parseDate(s); ok {
		return t, tz, true
	}
	f := strings.Fields(strings.ReplaceAll(s, ".", " "))
	if len(f) >= 2 {
		n, ok := atoi(f[0])
		if ok {
			unit := strings.TrimSuffix(f[1], "s")
			secs := map[string]int64{"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 7 * 86400, "month": 30 * 86400, "year": 365 * 86400}[unit]
			if secs > 0 {
				return nowUnix() - int64(n)*secs, "+0000", true
			}
		}
	}
	if len(s) == 10 && s[4] == '-' && s[7] == '-' {
		return g.parseDate(s + " 00:00:00")
	}
	return 0, "", false
}

var _ = fmt.Sprint
