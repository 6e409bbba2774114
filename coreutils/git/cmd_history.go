package git

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var shortlogSpecs = []optSpec{
	{short: 'n', long: "numbered"},
	{short: 's', long: "summary"},
	{short: 'e', long: "email"},
	{short: 'c', long: "committer"},
	{short: 'w', arg: argOptional},
	{long: "group", arg: argRequired},
	{long: "format", arg: argRequired},
}

// cmdShortlog summarizes history by author. Without revisions and with
// standard input not a terminal (always, in the sandbox), it reads
// "git log" output from standard input, as git does.
func cmdShortlog(g *cmd, args []string) int {
	// Log options (ranges, --all, -N) are passed through to the walk.
	var own, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i:]...)
			i = len(args)
		case a == "-n" || a == "--numbered" || a == "-s" || a == "--summary" || a == "-e" || a == "--email" ||
			a == "-c" || a == "--committer" || strings.HasPrefix(a, "-w") || strings.HasPrefix(a, "--group") ||
			strings.HasPrefix(a, "--format"):
			own = append(own, a)
			if (a == "--group" || a == "--format") && i+1 < len(args) {
				i++
				own = append(own, args[i])
			}
		case strings.HasPrefix(a, "-") && len(a) > 2 && a[1] != '-' && strings.Trim(a[1:], "nsec") == "":
			own = append(own, a)
		default:
			rest = append(rest, a)
		}
	}
	p := g.parse(own, shortlogSpecs)
	byCommitter := p.flag("committer")
	if v, ok := p.str("group"); ok {
		switch v {
		case "author":
		case "committer":
			byCommitter = true
		default:
			g.fatal("unknown group type: %s", v)
		}
	}
	type entry struct {
		key      string
		subjects []string
	}
	groups := map[string]*entry{}
	add := func(name, email, subject string) {
		key := name
		if p.flag("email") {
			key = name + " <" + email + ">"
		}
		e, ok := groups[key]
		if !ok {
			e = &entry{key: key}
			groups[key] = e
		}
		e.subjects = append(e.subjects, subject)
	}
	if len(rest) == 0 {
		// Read log output from standard input.
		sc := bufio.NewScanner(g.c.Stdin)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		var name, email string
		want := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "Author: ") && !byCommitter, strings.HasPrefix(line, "Commit: ") && byCommitter:
				id := parseIdent(line[8:])
				name, email = strings.TrimSpace(id.name), id.email
				want = true
			case want && strings.HasPrefix(line, "    ") && strings.TrimSpace(line) != "":
				add(name, email, strings.TrimSpace(line))
				want = false
			}
		}
	} else {
		lr, r := g.parseLogArgs(rest, false)
		if len(lr.includes) == 0 {
			hd := r.head()
			if hd.unborn() {
				g.fatal("your current branch '%s' does not have any commits yet", hd.branch())
			}
			lr.includes = append(lr.includes, hd.hash)
		}
		for _, c := range lr.walk() {
			id := c.author
			if byCommitter {
				id = c.committer
			}
			subject := c.subject()
			if f, ok := p.str("format"); ok {
				subject = lr.lc.formatUser(c, f)
			}
			add(id.name, id.email, subject)
		}
	}
	list := make([]*entry, 0, len(groups))
	for _, e := range groups {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool {
		if p.flag("numbered") && len(list[i].subjects) != len(list[j].subjects) {
			return len(list[i].subjects) > len(list[j].subjects)
		}
		return list[i].key < list[j].key
	})
	var w bytes.Buffer
	for _, e := range list {
		if p.flag("summary") {
			fmt.Fprintf(&w, "%6d\t%s\n", len(e.subjects), e.key)
			continue
		}
		fmt.Fprintf(&w, "%s (%d):\n", e.key, len(e.subjects))
		// Collected newest first, shown oldest first.
		for k := len(e.subjects) - 1; k >= 0; k-- {
			fmt.Fprintf(&w, "      %s\n", e.subjects[k])
		}
		w.WriteString("\n")
	}
	g.out.Write(w.Bytes())
	return 0
}

var describeSpecs = []optSpec{
	{long: "tags"},
	{long: "all"},
	{long: "always"},
	{long: "long"},
	{long: "abbrev", arg: argOptional},
	{long: "dirty", arg: argOptional},
	{long: "broken", arg: argOptional},
	{long: "exact-match"},
	{long: "first-parent"},
	{long: "match", arg: argRequired},
	{long: "exclude", arg: argRequired},
	{long: "candidates", arg: argRequired},
	{long: "contains"},
	{long: "debug"},
}

// cmdDescribe names a commit after the nearest tag.
func cmdDescribe(g *cmd, args []string) int {
	p := g.parse(args, describeSpecs)
	r := g.repo()
	if p.flag("contains") {
		g.fatal("--contains is not supported in the sandbox")
	}
	abbrev := r.defaultAbbrev()
	if v, ok := p.str("abbrev"); ok {
		n, _ := atoi(v)
		abbrev = n
		if n > 0 && n < 4 {
			abbrev = 4
		}
	}
	dirty, hasDirty := p.str("dirty")
	if p.given("dirty") && !hasDirty {
		dirty = "-dirty"
	} else if hasDirty && dirty == "" {
		dirty = "-dirty"
	}
	revs := p.args
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	} else if p.given("dirty") {
		g.fatal("option '--dirty' and commit-ishes cannot be used together")
	}
	// Candidate names: annotated tags, or all tags, or all refs.
	type cand struct {
		name   string
		commit plumbing.Hash
		when   int64
	}
	var cands []cand
	anyTag := false
	prefixes := []string{"refs/tags/"}
	if p.flag("all") {
		prefixes = []string{"refs/"}
	}
	for _, pre := range prefixes {
		for _, ref := range r.listRefs(pre) {
			if ref.name == "refs/stash" {
				continue
			}
			name := strings.TrimPrefix(ref.name, "refs/tags/")
			if p.flag("all") {
				name = strings.TrimPrefix(ref.name, "refs/")
			}
			annotated := r.objectType(ref.hash) == plumbing.TagObject
			if strings.HasPrefix(ref.name, "refs/tags/") {
				anyTag = true
			}
			if !annotated && !p.flag("tags") && !p.flag("all") {
				continue
			}
			if m, ok := p.str("match"); ok && !wildmatch(m, name, false) {
				continue
			}
			if x, ok := p.str("exclude"); ok && wildmatch(x, name, false) {
				continue
			}
			c, ok := r.commitOf(ref.hash)
			if !ok {
				continue
			}
			var when int64
			if annotated {
				_, data := r.mustObject(ref.hash)
				when = parseTag(data).tagger.when
			}
			cands = append(cands, cand{name, c, when})
		}
	}
	var w bytes.Buffer
	defer func() { g.out.Write(w.Bytes()) }()
	for _, rev := range revs {
		h := r.commitOrDie(rev)
		suffix := ""
		if dirty != "" && rev == "HEAD" {
			if len(r.stagedPairs(&pathspec{}, false)) > 0 || len(r.unstagedPairs(&pathspec{})) > 0 {
				suffix = dirty
			}
		}
		// Exact match first (the newest tag wins).
		var exact []cand
		for _, c := range cands {
			if c.commit == h {
				exact = append(exact, c)
			}
		}
		if len(exact) > 0 && !p.flag("long") {
			sort.SliceStable(exact, func(i, j int) bool { return exact[i].when > exact[j].when })
			w.WriteString(exact[0].name + suffix + "\n")
			continue
		}
		if p.flag("exact-match") {
			g.out.Write(w.Bytes())
			w.Reset()
			g.fatal("no tag exactly matches '%s'", h)
		}
		mine := r.reachable(h)
		best := -1
		bestDepth := 0
		for i, c := range cands {
			if !mine[c.commit] {
				continue
			}
			depth := 0
			theirs := r.reachable(c.commit)
			for k := range mine {
				if !theirs[k] {
					depth++
				}
			}
			if best < 0 || depth < bestDepth || (depth == bestDepth && c.when > cands[best].when) {
				best, bestDepth = i, depth
			}
		}
		if best < 0 {
			if p.flag("always") {
				w.WriteString(r.abbrevN(h, max(abbrev, 4)) + suffix + "\n")
				continue
			}
			g.out.Write(w.Bytes())
			w.Reset()
			switch {
			case len(cands) == 0 && !anyTag:
				g.fatal("No names found, cannot describe anything.")
			case len(cands) == 0:
				g.fatal("No annotated tags can describe '%s'.\nHowever, there were unannotated tags: try --tags.", h)
			default:
				g.fatal("No tags can describe '%s'.\nTry --always, or create some tags.", h)
			}
		}
		name := cands[best].name
		if abbrev == 0 {
			w.WriteString(name + suffix + "\n")
			continue
		}
		fmt.Fprintf(&w, "%s-%d-g%s%s\n", name, bestDepth, r.abbrevN(h, abbrev), suffix)
	}
	return 0
}

// pickaxe filters a commit's file pairs by -S or -G.
type pickaxe struct {
	s   string
	re  *regexp.Regexp
	all bool // --pickaxe-all: keep every pair when one matches
}

// filter returns the pairs that match (nil when none do).
func (pk *pickaxe) filter(r *repo, pairs []diffPair) []diffPair {
	var out []diffPair
	for _, p := range pairs {
		a, b := r.content(p.a), r.content(p.b)
		hit := false
		switch {
		case pk.re != nil && pk.s == "":
			// -G: a changed line matches.
			res := xdiff(a, b)
			for _, c := range res.changes {
				for k := c.i1; k < c.i1+c.chg1 && !hit; k++ {
					hit = pk.re.Match(bytes.TrimSuffix(res.a.recs[k], []byte{'\n'}))
				}
				for k := c.i2; k < c.i2+c.chg2 && !hit; k++ {
					hit = pk.re.Match(bytes.TrimSuffix(res.b.recs[k], []byte{'\n'}))
				}
				if hit {
					break
				}
			}
		case pk.re != nil:
			hit = len(pk.re.FindAllIndex(a, -1)) != len(pk.re.FindAllIndex(b, -1))
		default:
			hit = bytes.Count(a, []byte(pk.s)) != bytes.Count(b, []byte(pk.s))
		}
		if hit {
			out = append(out, p)
		}
	}
	if len(out) > 0 && pk.all {
		return pairs
	}
	return out
}
