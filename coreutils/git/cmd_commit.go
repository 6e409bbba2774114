package git

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/bashbox/bashbox/builtins"
)

var commitSpecs = []optSpec{
	{short: 'm', long: "message", arg: argRequired},
	{short: 'F', long: "file", arg: argRequired},
	{short: 'a', long: "all"},
	{long: "allow-empty"},
	{long: "allow-empty-message"},
	{long: "amend"},
	{long: "no-edit"},
	{short: 'e', long: "edit"},
	{short: 'q', long: "quiet"},
	{short: 'v', long: "verbose"},
	{short: 'n', long: "no-verify"},
	{long: "verify"},
	{long: "author", arg: argRequired},
	{long: "date", arg: argRequired},
	{long: "reset-author"},
	{short: 'C', long: "reuse-message", arg: argRequired},
	{short: 'c', long: "reedit-message", arg: argRequired},
	{short: 's', long: "signoff"},
	{long: "cleanup", arg: argRequired},
	{short: 'o', long: "only"},
	{short: 'i', long: "include"},
	{long: "dry-run"},
	{long: "status"},
	{short: 'S', long: "gpg-sign", arg: argOptional},
	{long: "no-gpg-sign"},
	{long: "trailer", arg: argRequired},
	{long: "fixup", arg: argRequired},
	{long: "squash", arg: argRequired},
	{short: 'u', long: "untracked-files", arg: argOptional},
	{long: "porcelain"},
	{long: "short"},
	{short: 'z', long: "null"},
	{long: "long"},
	{long: "branch"},
}

// cleanupMessage applies git's "whitespace" (or "strip") cleanup.
func cleanupMessage(msg string, stripComments bool) string {
	lines := strings.Split(msg, "\n")
	var out []string
	blank := 0
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r\v\f")
		if stripComments && strings.HasPrefix(l, "#") {
			continue
		}
		if l == "" {
			blank++
			continue
		}
		if blank > 0 && len(out) > 0 {
			out = append(out, "")
		}
		blank = 0
		out = append(out, l)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

func cmdCommit(g *cmd, args []string) int {
	p := g.parse(args, commitSpecs)
	r := g.worktreeRepo()
	ix := r.index()
	hd := r.head()
	amend := p.flag("amend")
	quiet := p.flag("quiet")
	if p.flag("all") && len(p.args) > 0 {
		g.fatal("paths '%s ...' with -a does not make sense", p.args[0])
	}
	if amend && hd.unborn() {
		g.fatal("You have nothing to amend.")
	}
	if _, ok := p.str("fixup"); ok {
		g.fatal("--fixup is not supported in the sandbox")
	}
	// Message.
	var msg string
	haveMsg := false
	msgs := p.all("message")
	if len(msgs) > 0 {
		msg = strings.Join(msgs, "\n\n")
		haveMsg = true
	}
	if f, ok := p.str("file"); ok {
		if haveMsg {
			g.fatal("options '-m' and '-F' cannot be used together")
		}
		var data []byte
		var err error
		if f == "-" {
			data, err = g.c.ReadAll(g.ctx, g.c.Stdin)
		} else {
			data, err = readAll(g.c.FS, g.abs(f))
		}
		if err != nil {
			g.fatal("could not read log file '%s': %s", f, errText(err))
		}
		msg = string(data)
		haveMsg = true
	}
	var reuse *commit
	if spec, ok := p.str("reuse-message"); ok {
		reuse = r.getCommit(r.commitOrDie(spec))
	} else if spec, ok := p.str("reedit-message"); ok {
		reuse = r.getCommit(r.commitOrDie(spec))
	}
	var old *commit
	if amend {
		old = r.getCommit(hd.hash)
	}
	if !haveMsg {
		switch {
		case reuse != nil:
			msg = reuse.message
			haveMsg = true
		case amend && (p.flag("no-edit") || !p.given("edit")):
			if p.flag("no-edit") {
				msg = old.message
				haveMsg = true
			}
		}
	}
	// Stage tracked changes for -a, or the given paths.
	if p.flag("all") {
		for _, e := range ix.entries() {
			stageTracked(r, ix, e)
		}
	}
	if len(p.args) > 0 {
		ps := r.makePathspec(p.args)
		seen := make([]bool, len(ps.items))
		for _, e := range ix.entries() {
			if !ps.markMatches(e.Name, seen) {
				continue
			}
			stageTracked(r, ix, e)
		}
		for i, it := range ps.items {
			if !seen[i] && !it.exclude {
				g.msg("error: pathspec '%s' did not match any file(s) known to git", it.orig)
				return 1
			}
		}
	}
	tree := r.writeTreeFrom(ix.files())
	var parents []plumbing.Hash
	var parentTree plumbing.Hash
	if amend {
		parents = old.parents
		if len(parents) > 0 {
			parentTree = r.getCommit(parents[0]).tree
		}
	} else if !hd.unborn() {
		parents = []plumbing.Hash{hd.hash}
		parentTree = r.getCommit(hd.hash).tree
	}
	if !p.flag("allow-empty") && len(parents) <= 1 {
		same := (len(parents) == 0 && len(ix.entries()) == 0) || (len(parents) == 1 && parentTree == tree)
		if same {
			// Nothing to commit: show the status, as git does.
			s := r.collectStatusFrom(parentTree, &pathspec{}, untrackedNormal, false, true)
			s.amend = amend
			s.fromCommit = true
			if amend && len(parents) == 0 {
				s.initial = true
			}
			var w bytes.Buffer
			r.printLongStatus(&w, s, untrackedNormal, true)
			g.out.Write(w.Bytes())
			// The index staged for the commit (-a, paths) is discarded.
			if amend {
				g.out.Flush()
				g.msg("You asked to amend the most recent commit, but doing so would make\nit empty. You can repeat your command with --allow-empty, or you can\nremove the commit entirely with \"git reset HEAD^\".")
			}
			return 1
		}
	}
	if !haveMsg {
		if ed := g.getenv("GIT_EDITOR"); ed == ":" {
			msg = ""
		} else {
			g.msg("error: Terminal is dumb, but EDITOR unset")
			g.msg("Please supply the message using either -m or -F option.")
			return 1
		}
	}
	cleanup := "default"
	if v, ok := p.str("cleanup"); ok {
		cleanup = v
	}
	switch cleanup {
	case "verbatim":
	case "strip":
		msg = cleanupMessage(msg, true)
	case "whitespace", "default", "scissors":
		msg = cleanupMessage(msg, false)
	default:
		g.fatal("Invalid cleanup mode %s", cleanup)
	}
	if p.flag("signoff") {
		id := r.identity("COMMITTER")
		line := fmt.Sprintf("Signed-off-by: %s <%s>", id.name, id.email)
		if !strings.Contains(msg, line+"\n") {
			if msg != "" && !hasTrailerBlock(msg) {
				msg += "\n"
			}
			msg += line + "\n"
		}
	}
	for _, t := range p.all("trailer") {
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			k, v, _ = strings.Cut(t, ":")
		}
		line := strings.TrimSpace(k) + ": " + strings.TrimSpace(v)
		if msg != "" && !hasTrailerBlock(msg) {
			msg += "\n"
		}
		msg += line + "\n"
	}
	if strings.TrimSpace(msg) == "" && !p.flag("allow-empty-message") {
		g.msg("Aborting commit due to empty commit message.")
		return 1
	}
	// Identities.
	author := r.identity("AUTHOR")
	dateInteresting := amend
	if amend && !p.flag("reset-author") {
		author = old.author
	}
	if reuse != nil && !p.flag("reset-author") {
		author = reuse.author
		dateInteresting = true
	}
	if a, ok := p.str("author"); ok {
		lt := strings.IndexByte(a, '<')
		gt := strings.LastIndexByte(a, '>')
		if lt < 0 || gt < lt {
			g.fatal("--author '%s' is not 'Name <email>' and matches no existing author", a)
		}
		author.name = strings.TrimSpace(a[:lt])
		author.email = a[lt+1 : gt]
	}
	if d, ok := p.str("date"); ok {
		when, tz, ok := g.parseDate(d)
		if !ok {
			g.fatal("invalid date format: %s", d)
		}
		author.when, author.tz = when, tz
		dateInteresting = true
	}
	committer := r.identity("COMMITTER")
	data := encodeCommit(tree, parents, author, committer, msg)
	h := r.writeObject(plumbing.CommitObject, data)
	subject := messageSubject(msg)
	reflog := "commit: " + firstLine(msg)
	if amend {
		reflog = "commit (amend): " + firstLine(msg)
	} else if len(parents) == 0 {
		reflog = "commit (initial): " + firstLine(msg)
	}
	r.updateRef("HEAD", h, reflog)
	r.writeIndex()
	if quiet {
		return 0
	}
	var w bytes.Buffer
	branch := "detached HEAD"
	if hd.symbolic {
		branch = hd.branch()
	}
	root := ""
	if hd.unborn() {
		root = " (root-commit)"
	}
	fmt.Fprintf(&w, "[%s%s %s] %s\n", branch, root, r.abbrev(h), subject)
	if author.name != committer.name || author.email != committer.email {
		fmt.Fprintf(&w, " Author: %s <%s>\n", author.name, author.email)
	}
	if dateInteresting {
		fmt.Fprintf(&w, " Date: %s\n", g.formatDate(author, dateDefault))
	}
	r.commitSummary(&w, parentTree, tree)
	g.out.Write(w.Bytes())
	return 0
}

// hasTrailerBlock reports whether the message ends with a paragraph of
// "Token: value" lines.
func hasTrailerBlock(msg string) bool {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	i := len(lines) - 1
	for i >= 0 && lines[i] != "" {
		i--
	}
	if i < 0 {
		return false
	}
	for _, l := range lines[i+1:] {
		k, _, ok := strings.Cut(l, ": ")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return false
		}
	}
	return true
}

func firstLine(msg string) string {
	l, _, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n")
	return l
}

// commitSummary prints the shortstat and summary lines of a new commit.
func (r *repo) commitSummary(w *bytes.Buffer, from, to plumbing.Hash) {
	pairs := r.diffTrees(from, to, nil)
	if r.cfg.getBool("diff.renames", true) {
		pairs = r.detectRenames(pairs, maxScore/2)
	}
	if len(pairs) == 0 {
		return
	}
	o := defaultDiffOpts()
	stats := r.computeStats(pairs, &o)
	writeShortstat(w, stats)
	for _, p := range pairs {
		r.writeSummary(w, p)
	}
}

func errText(err error) string {
	return builtins.ErrText(err)
}

// stageTracked stages the work tree's change to a tracked file, as commit
// -a and commit with paths do: a deletion or new contents.
func stageTracked(r *repo, ix *indexState, e *index.Entry) {
	st, fi, _ := r.checkWork(e)
	switch st {
	case wtDeleted:
		ix.remove(e.Name)
	case wtModified, wtTypeChanged:
		r.addFile(e.Name, fi)
	}
}
