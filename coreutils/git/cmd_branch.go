package git

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var branchSpecs = []optSpec{
	{short: 'd', long: "delete"},
	{short: 'D'},
	{short: 'm', long: "move"},
	{short: 'M'},
	{short: 'c', long: "copy"},
	{short: 'C'},
	{short: 'f', long: "force"},
	{short: 'l', long: "list"},
	{short: 'a', long: "all"},
	{short: 'r', long: "remotes"},
	{short: 'v', long: "verbose"},
	{short: 'q', long: "quiet"},
	{long: "show-current"},
	{short: 't', long: "track", arg: argOptional},
	{long: "no-track"},
	{short: 'u', long: "set-upstream-to", arg: argRequired},
	{long: "unset-upstream"},
	{long: "contains", arg: argLastDefault},
	{long: "no-contains", arg: argLastDefault},
	{long: "merged", arg: argLastDefault},
	{long: "no-merged", arg: argLastDefault},
	{long: "points-at", arg: argRequired},
	{long: "format", arg: argRequired},
	{long: "sort", arg: argRequired},
	{long: "abbrev", arg: argOptional},
	{long: "no-abbrev"},
	{long: "column", arg: argOptional},
	{long: "color", arg: argOptional},
	{short: 'i', long: "ignore-case"},
	{long: "create-reflog"},
	{long: "recurse-submodules"},
	{long: "edit-description"},
}

func cmdBranch(g *cmd, args []string) int {
	p := g.parse(args, branchSpecs)
	r := g.repo()
	hd := r.head()
	if p.flag("show-current") {
		if hd.symbolic {
			fmt.Fprintln(g.out, hd.branch())
		}
		return 0
	}
	del := p.flag("delete") || p.flag("D")
	force := p.flag("force") || p.flag("D") || p.flag("M") || p.flag("C")
	move := p.flag("move") || p.flag("M")
	cp := p.flag("copy") || p.flag("C")
	quiet := p.flag("quiet")
	switch {
	case del:
		if len(p.args) == 0 {
			g.fatal("branch name required")
		}
		status := 0
		for _, name := range p.args {
			ref := "refs/heads/" + name
			if p.flag("remotes") {
				ref = "refs/remotes/" + name
			}
			h, ok := r.resolveRef(ref)
			if !ok {
				if p.flag("remotes") {
					g.errorf("remote-tracking branch '%s' not found.", name)
				} else {
					g.errorf("branch '%s' not found.", name)
				}
				status = 1
				continue
			}
			if hd.symbolic && hd.target == ref && !p.flag("remotes") {
				g.errorf("Cannot delete branch '%s' checked out at '%s'", name, r.work)
				status = 1
				continue
			}
			if !force && !p.flag("remotes") {
				// Must be merged into its upstream, or HEAD.
				base := hd.hash
				if up, _, ok := r.upstream(name); ok {
					if uh, ok := r.resolveRef(up); ok {
						base = uh
					}
				}
				if base.IsZero() || !r.reachableFrom(base, h) {
					g.errorf("The branch '%s' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D %s'.", name, name)
					status = 1
					continue
				}
			}
			r.deleteRef(ref)
			if !p.flag("remotes") {
				cf := r.cfg.local
				if cf.removeSection("branch." + name) {
					r.writeGitFile("config", cf.bytes())
				}
			}
			if !quiet {
				if p.flag("remotes") {
					fmt.Fprintf(g.out, "Deleted remote-tracking branch %s (was %s).\n", name, r.abbrev(h))
				} else {
					fmt.Fprintf(g.out, "Deleted branch %s (was %s).\n", name, r.abbrev(h))
				}
			}
		}
		return status
	case move || cp:
		var oldName, newName string
		switch len(p.args) {
		case 1:
			if !hd.symbolic {
				g.fatal("cannot rename the current branch while not on any.")
			}
			oldName, newName = hd.branch(), p.args[0]
		case 2:
			oldName, newName = p.args[0], p.args[1]
		case 0:
			g.fatal("branch name required")
		default:
			g.fatal("too many arguments for a rename operation")
		}
		oldRef, newRef := "refs/heads/"+oldName, "refs/heads/"+newName
		h, ok := r.resolveRef(oldRef)
		if !ok {
			if hd.symbolic && hd.target == oldRef && hd.unborn() {
				if !checkRefName(newName) {
					g.fatal("'%s' is not a valid branch name", newName)
				}
				r.setHeadBranch(newRef, "")
				return 0
			}
			g.fatal("No branch named '%s'.", oldName)
		}
		if !checkRefName(newName) {
			g.fatal("'%s' is not a valid branch name", newName)
		}
		if r.refExists(newRef) && !force && oldRef != newRef {
			g.fatal("a branch named '%s' already exists", newName)
		}
		if oldRef == newRef && !cp {
			return 0
		}
		log := r.readReflog(oldRef)
		msg := fmt.Sprintf("Branch: renamed %s to %s", oldRef, newRef)
		if cp {
			msg = fmt.Sprintf("Branch: copied %s to %s", oldRef, newRef)
		}
		if !cp {
			r.deleteRef(oldRef)
		}
		if len(log) > 0 {
			r.writeReflog(newRef, log)
		}
		if err := r.st.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(newRef), h)); err != nil {
			g.fatal("unable to write %s", newRef)
		}
		r.appendReflog(newRef, h, h, msg)
		if !cp && hd.symbolic && hd.target == oldRef {
			r.writeGitFile("HEAD", []byte("ref: "+newRef+"\n"))
			r.appendReflog("HEAD", h, plumbing.ZeroHash, msg)
			r.appendReflog("HEAD", plumbing.ZeroHash, h, msg)
		}
		cf := r.cfg.local
		changed := false
		if cp {
			for _, e := range append([]cfgEntry{}, cf.entries...) {
				if e.section == "branch" && e.sub == oldName {
					cf.add("branch."+newName+"."+e.key, e.value)
					changed = true
				}
			}
		} else if cf.renameSection("branch."+oldName, "branch."+newName) {
			changed = true
		}
		if changed {
			r.writeGitFile("config", cf.bytes())
		}
		return 0
	}
	if u, ok := p.str("set-upstream-to"); ok {
		name := hd.branch()
		if len(p.args) > 0 {
			name = p.args[0]
		}
		if _, _, ok := r.dwimRef(u); !ok {
			g.fatal("the requested upstream branch '%s' does not exist", u)
		}
		r.setUpstream(name, u, quiet)
		return 0
	}
	if p.flag("unset-upstream") {
		name := hd.branch()
		if len(p.args) > 0 {
			name = p.args[0]
		}
		cf := r.cfg.local
		idx := cf.find("branch." + name + ".merge")
		if len(idx) == 0 {
			g.fatal("branch '%s' has no upstream information", name)
		}
		cf.removeEntries(append(idx, cf.find("branch."+name+".remote")...))
		r.writeGitFile("config", cf.bytes())
		return 0
	}
	listing := p.flag("list") || len(p.args) == 0 || p.given("contains") || p.given("merged") || p.given("no-merged") || p.given("points-at")
	if p.flag("all") || p.flag("remotes") {
		if len(p.args) == 0 || p.flag("list") {
			listing = true
		}
	}
	if listing {
		return r.listBranches(p)
	}
	// Create.
	name := p.args[0]
	if len(p.args) > 2 {
		g.fatal("too many arguments")
	}
	if !checkRefName(name) {
		g.fatal("'%s' is not a valid branch name", name)
	}
	ref := "refs/heads/" + name
	start := "HEAD"
	if len(p.args) == 2 {
		start = p.args[1]
	}
	h, err := r.resolveRev(start)
	if err != nil {
		if start == "HEAD" {
			g.fatal("not a valid object name: '%s'", hd.branch())
		}
		g.fatal("not a valid object name: '%s'", start)
	}
	c, ok := r.commitOf(h)
	if !ok {
		g.fatal("not a valid branch point: '%s'", start)
	}
	exists := r.refExists(ref)
	if exists && !force {
		g.fatal("a branch named '%s' already exists", name)
	}
	if exists && hd.symbolic && hd.target == ref {
		g.fatal("cannot force update the branch '%s' checked out at '%s'", name, r.work)
	}
	msg := "branch: Created from " + start
	if exists {
		msg = "branch: Reset to " + start
	}
	r.updateRef(ref, c, msg)
	track, hasTrack := p.str("track")
	if hasTrack || p.given("track") {
		_ = track
		if full, _, ok := r.dwimRef(start); ok && (strings.HasPrefix(full, "refs/remotes/") || strings.HasPrefix(full, "refs/heads/")) {
			up := strings.TrimPrefix(strings.TrimPrefix(full, "refs/remotes/"), "refs/heads/")
			r.setUpstream(name, up, quiet)
		}
	} else if !p.given("no-track") {
		if full, _, ok := r.dwimRef(start); ok && strings.HasPrefix(full, "refs/remotes/") && r.cfg.getBool("branch.autosetupmerge", true) {
			r.setUpstream(name, strings.TrimPrefix(full, "refs/remotes/"), quiet)
		}
	}
	return 0
}

// listBranches prints branches as git branch does.
func (r *repo) listBranches(p *parsedArgs) int {
	g := r.g
	hd := r.head()
	type item struct {
		name    string // as shown
		full    string
		hash    plumbing.Hash
		current bool
		target  string // symbolic target (remote HEAD)
		remote  bool
	}
	var items []item
	if !hd.symbolic && !hd.unborn() && !p.flag("remotes") {
		desc := "(HEAD detached at " + r.abbrev(hd.hash) + ")"
		if from, at := r.detachedFrom(hd.hash); from != "" {
			if at {
				desc = "(HEAD detached at " + from + ")"
			} else {
				desc = "(HEAD detached from " + from + ")"
			}
		}
		items = append(items, item{name: desc, hash: hd.hash, current: true})
	}
	patterns := p.args
	match := func(name string) bool {
		if len(patterns) == 0 || !p.flag("list") && len(patterns) == 0 {
			return true
		}
		for _, pat := range patterns {
			if wildmatch(pat, name, false) {
				return true
			}
		}
		return false
	}
	if !p.flag("remotes") {
		for _, ref := range r.listRefs("refs/heads/") {
			name := strings.TrimPrefix(ref.name, "refs/heads/")
			if !match(name) {
				continue
			}
			items = append(items, item{name: name, full: ref.name, hash: ref.hash, current: hd.symbolic && hd.target == ref.name})
		}
	}
	if p.flag("all") || p.flag("remotes") {
		for _, ref := range r.listRefs("refs/remotes/") {
			name := strings.TrimPrefix(ref.name, "refs/remotes/")
			if !match(name) {
				continue
			}
			shown := name
			if p.flag("all") {
				shown = "remotes/" + name
			}
			it := item{name: shown, full: ref.name, hash: ref.hash, remote: true}
			if ref.target != "" {
				it.target = strings.TrimPrefix(ref.target, "refs/remotes/")
			}
			items = append(items, it)
		}
	}
	// Filters.
	filterCommit := func(key string) (plumbing.Hash, bool) {
		v, ok := p.str(key)
		if !ok && !p.given(key) {
			return plumbing.ZeroHash, false
		}
		if v == "" {
			v = "HEAD"
		}
		return r.commitOrDie(v), true
	}
	if c, ok := filterCommit("contains"); ok {
		var kept []item
		for _, it := range items {
			if r.reachableFrom(it.hash, c) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if c, ok := filterCommit("no-contains"); ok {
		var kept []item
		for _, it := range items {
			if !r.reachableFrom(it.hash, c) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if c, ok := filterCommit("merged"); ok {
		var kept []item
		for _, it := range items {
			if r.reachableFrom(c, it.hash) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if c, ok := filterCommit("no-merged"); ok {
		var kept []item
		for _, it := range items {
			if !r.reachableFrom(c, it.hash) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	if v, ok := p.str("points-at"); ok {
		h := r.commitOrDie(v)
		var kept []item
		for _, it := range items {
			if it.hash == h {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	var w bytes.Buffer
	if f, ok := p.str("format"); ok {
		for _, it := range items {
			w.WriteString(r.formatRef(f, it.full, it.hash) + "\n")
		}
		g.out.Write(w.Bytes())
		return 0
	}
	verbose := p.count("verbose")
	width := 0
	for _, it := range items {
		n := displayWidth(it.name)
		if it.target != "" {
			continue
		}
		if n > width {
			width = n
		}
	}
	for _, it := range items {
		mark := "  "
		if it.current {
			mark = "* "
		}
		if it.target != "" {
			fmt.Fprintf(&w, "%s%s -> %s\n", mark, it.name, it.target)
			continue
		}
		if verbose == 0 {
			fmt.Fprintf(&w, "%s%s\n", mark, it.name)
			continue
		}
		c := r.getCommit(it.hash)
		track := ""
		if !it.remote && it.full != "" {
			short := strings.TrimPrefix(it.full, "refs/heads/")
			if ref, upName, ok := r.upstream(short); ok {
				uh, exists := r.resolveRef(ref)
				var parts []string
				if !exists {
					parts = append(parts, "gone")
				} else {
					ahead, behind := r.aheadBehind(it.hash, uh)
					if ahead > 0 {
						parts = append(parts, fmt.Sprintf("ahead %d", ahead))
					}
					if behind > 0 {
						parts = append(parts, fmt.Sprintf("behind %d", behind))
					}
				}
				switch {
				case verbose >= 2 && len(parts) > 0:
					track = "[" + upName + ": " + strings.Join(parts, ", ") + "] "
				case verbose >= 2:
					track = "[" + upName + "] "
				case len(parts) > 0:
					track = "[" + strings.Join(parts, ", ") + "] "
				}
			}
		}
		pad := width - displayWidth(it.name)
		fmt.Fprintf(&w, "%s%s%s %s %s%s\n", mark, it.name, strings.Repeat(" ", pad), r.abbrev(it.hash), track, c.subject())
	}
	g.out.Write(w.Bytes())
	return 0
}

// formatRef expands a for-each-ref style format for a ref.
func (r *repo) formatRef(f, full string, h plumbing.Hash) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] == '%' && i+1 < len(f) && f[i+1] == '(' {
			end := strings.IndexByte(f[i:], ')')
			if end < 0 {
				b.WriteString(f[i:])
				break
			}
			atom := f[i+2 : i+end]
			i += end
			switch atom {
			case "refname":
				b.WriteString(full)
			case "refname:short":
				s := full
				for _, pre := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
					s = strings.TrimPrefix(s, pre)
				}
				b.WriteString(s)
			case "objectname":
				b.WriteString(h.String())
			case "objectname:short":
				b.WriteString(r.abbrev(h))
			case "objecttype":
				b.WriteString(r.objectType(h).String())
			case "subject", "contents:subject":
				if c, ok := r.commitOf(h); ok {
					b.WriteString(r.getCommit(c).subject())
				}
			case "HEAD":
				hd := r.head()
				if hd.symbolic && hd.target == full {
					b.WriteString("*")
				} else {
					b.WriteString(" ")
				}
			case "upstream", "upstream:short":
				short := strings.TrimPrefix(full, "refs/heads/")
				if ref, s, ok := r.upstream(short); ok {
					if atom == "upstream" {
						b.WriteString(ref)
					} else {
						b.WriteString(s)
					}
				}
			case "authorname":
				if c, ok := r.commitOf(h); ok {
					b.WriteString(r.getCommit(c).author.name)
				}
			case "authoremail":
				if c, ok := r.commitOf(h); ok {
					b.WriteString("<" + r.getCommit(c).author.email + ">")
				}
			}
			continue
		}
		if f[i] == '%' && i+2 < len(f) && isHexPair(f[i+1:i+3]) {
			b.WriteByte(unhex(f[i+1])<<4 | unhex(f[i+2]))
			i += 2
			continue
		}
		b.WriteByte(f[i])
	}
	return b.String()
}
