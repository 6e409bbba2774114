package git

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var showRefSpecs = []optSpec{
	{long: "head"},
	{long: "heads"},
	{long: "tags"},
	{short: 'd', long: "dereference"},
	{short: 's', long: "hash", arg: argOptional},
	{long: "verify"},
	{short: 'q', long: "quiet"},
	{long: "abbrev", arg: argOptional},
	{long: "exclude-existing", arg: argOptional},
}

func cmdShowRef(g *cmd, args []string) int {
	p := g.parse(args, showRefSpecs)
	r := g.repo()
	quiet := p.flag("quiet")
	hashOnly := p.given("hash")
	hashLen := 40
	if v, _ := p.str("hash"); v != "" {
		hashLen, _ = atoi(v)
	}
	if v, ok := p.str("abbrev"); ok || p.given("abbrev") {
		hashLen = r.defaultAbbrev()
		if v != "" {
			hashLen, _ = atoi(v)
		}
	}
	fmtHash := func(h plumbing.Hash) string {
		if hashLen >= 40 {
			return h.String()
		}
		return r.abbrevN(h, hashLen)
	}
	var w bytes.Buffer
	show := func(name string, h plumbing.Hash) {
		if quiet {
			return
		}
		if hashOnly {
			w.WriteString(fmtHash(h) + "\n")
		} else {
			w.WriteString(fmtHash(h) + " " + name + "\n")
		}
		if p.flag("dereference") && r.objectType(h) == plumbing.TagObject {
			ph, _ := r.peel(h)
			if hashOnly {
				w.WriteString(fmtHash(ph) + "\n")
			} else {
				w.WriteString(fmtHash(ph) + " " + name + "^{}\n")
			}
		}
	}
	if p.flag("verify") {
		status := 0
		for _, a := range p.args {
			h, ok := r.resolveRef(a)
			if !ok || !(strings.HasPrefix(a, "refs/") || a == "HEAD") {
				if !quiet {
					g.out.Write(w.Bytes())
					w.Reset()
					g.fatal("'%s' - not a valid ref", a)
				}
				status = 1
				continue
			}
			show(a, h)
		}
		g.out.Write(w.Bytes())
		return status
	}
	found := false
	if p.flag("head") {
		if hd := r.head(); !hd.unborn() {
			show("HEAD", hd.hash)
			found = true
		}
	}
	for _, ref := range r.listRefs("refs/") {
		if p.flag("heads") || p.flag("tags") {
			ok := (p.flag("heads") && strings.HasPrefix(ref.name, "refs/heads/")) || (p.flag("tags") && strings.HasPrefix(ref.name, "refs/tags/"))
			if !ok {
				continue
			}
		}
		if len(p.args) > 0 {
			ok := false
			for _, pat := range p.args {
				if ref.name == pat || strings.HasSuffix(ref.name, "/"+pat) {
					ok = true
				}
			}
			if !ok {
				continue
			}
		}
		found = true
		show(ref.name, ref.hash)
	}
	g.out.Write(w.Bytes())
	if !found {
		return 1
	}
	return 0
}

var symbolicRefSpecs = []optSpec{
	{short: 'q', long: "quiet"},
	{short: 'd', long: "delete"},
	{long: "short"},
	{long: "no-recurse"},
	{long: "recurse"},
	{short: 'm', arg: argRequired},
}

func cmdSymbolicRef(g *cmd, args []string) int {
	p := g.parse(args, symbolicRefSpecs)
	r := g.repo()
	switch len(p.args) {
	case 1:
		name := p.args[0]
		if p.flag("delete") {
			if name == "HEAD" {
				g.fatal("deleting '%s' is not allowed", name)
			}
			r.deleteRef(name)
			return 0
		}
		var target string
		if name == "HEAD" {
			hd := r.head()
			if !hd.symbolic {
				if p.flag("quiet") {
					return 1
				}
				g.fatal("ref HEAD is not a symbolic ref")
			}
			target = hd.target
		} else {
			ref, err := r.st.Reference(plumbing.ReferenceName(name))
			if err != nil || ref.Type() != plumbing.SymbolicReference {
				if p.flag("quiet") {
					return 1
				}
				g.fatal("ref %s is not a symbolic ref", name)
			}
			target = ref.Target().String()
		}
		if p.flag("short") {
			for _, pre := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
				target = strings.TrimPrefix(target, pre)
			}
		}
		fmt.Fprintln(g.out, target)
	case 2:
		name, target := p.args[0], p.args[1]
		if !strings.HasPrefix(target, "refs/") {
			g.fatal("Refusing to point %s outside of refs/", name)
		}
		msg, _ := p.str("m")
		if name == "HEAD" {
			r.setHeadBranch(target, msg)
			return 0
		}
		if err := r.st.SetReference(plumbing.NewSymbolicReference(plumbing.ReferenceName(name), plumbing.ReferenceName(target))); err != nil {
			g.fatal("cannot set %s", name)
		}
	default:
		g.subHelp(129, g.stderr)
		return 129
	}
	return 0
}

var updateRefSpecs = []optSpec{
	{short: 'm', arg: argRequired},
	{short: 'd'},
	{long: "no-deref"},
	{long: "create-reflog"},
	{long: "stdin"},
	{short: 'z'},
}

func cmdUpdateRef(g *cmd, args []string) int {
	p := g.parse(args, updateRefSpecs)
	r := g.repo()
	msg, _ := p.str("m")
	if p.flag("stdin") {
		g.fatal("--stdin is not supported in the sandbox")
	}
	if p.flag("d") {
		if len(p.args) < 1 || len(p.args) > 2 {
			g.subHelp(129, g.stderr)
			return 129
		}
		name := p.args[0]
		cur, ok := r.resolveRef(name)
		if !ok {
			g.fatal("cannot lock ref '%s': unable to resolve reference '%s'", name, name)
		}
		if len(p.args) == 2 {
			old, err := r.resolveRev(p.args[1])
			if err != nil || old != cur {
				g.fatal("cannot lock ref '%s': is at %s but expected %s", name, cur, p.args[1])
			}
		}
		r.deleteRef(name)
		return 0
	}
	if len(p.args) < 2 || len(p.args) > 3 {
		g.subHelp(129, g.stderr)
		return 129
	}
	name := p.args[0]
	h, err := r.resolveRev(p.args[1])
	if err != nil {
		g.fatal("%s: not a valid SHA1", p.args[1])
	}
	if len(p.args) == 3 {
		cur, _ := r.resolveRef(name)
		var old plumbing.Hash
		if p.args[2] != "" && strings.Trim(p.args[2], "0") != "" {
			o, err := r.resolveRev(p.args[2])
			if err != nil {
				g.fatal("%s: not a valid old SHA1", p.args[2])
			}
			old = o
		}
		if cur != old {
			g.fatal("cannot lock ref '%s': is at %s but expected %s", name, cur, old)
		}
	}
	if name == "HEAD" && p.flag("no-deref") {
		r.detachHead(h, msg)
		return 0
	}
	r.updateRef(name, h, msg)
	return 0
}

func cmdReflog(g *cmd, args []string) int {
	if len(args) > 0 && (args[0] == "show") {
		args = args[1:]
	}
	if len(args) > 0 && args[0] == "exists" {
		if len(args) != 2 {
			g.subHelp(129, g.stderr)
			return 129
		}
		r := g.repo()
		if r.fileExists(r.gitPath("logs/" + args[1])) {
			return 0
		}
		return 1
	}
	if len(args) > 0 && (args[0] == "expire" || args[0] == "delete") {
		g.fatal("git reflog %s is not supported in the sandbox", args[0])
	}
	r := g.repo()
	ref := "HEAD"
	var rest []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && ref == "HEAD" {
			ref = a
			continue
		}
		rest = append(rest, a)
	}
	full := ref
	short := ref
	if ref != "HEAD" {
		f, _, ok := r.dwimRef(ref)
		if !ok {
			g.fatal("ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", ref)
		}
		full = f
	}
	lr, _ := g.parseLogArgs(rest, false)
	var w bytes.Buffer
	for i, e := range r.readReflog(full) {
		if lr.maxCount >= 0 && i >= lr.maxCount {
			break
		}
		name := fmt.Sprintf("%s@{%d}", short, i)
		if e.new.IsZero() {
			continue
		}
		if lr.pretty.kind == "format" {
			f := strings.NewReplacer("%gd", name, "%gs", e.msg, "%gn", e.who.name, "%ge", e.who.email).Replace(lr.pretty.format)
			c := r.getCommit(e.new)
			w.WriteString(lr.lc.formatUser(c, f) + "\n")
			continue
		}
		fmt.Fprintf(&w, "%s %s: %s\n", r.abbrev(e.new), name, e.msg)
	}
	g.out.Write(w.Bytes())
	return 0
}
