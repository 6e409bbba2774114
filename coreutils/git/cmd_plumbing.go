package git

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

var catFileSpecs = []optSpec{
	{short: 't'},
	{short: 's'},
	{short: 'p'},
	{short: 'e'},
	{long: "batch", arg: argOptional},
	{long: "batch-check", arg: argOptional},
	{long: "batch-all-objects"},
	{long: "allow-unknown-type"},
	{long: "textconv"},
	{long: "filters"},
	{long: "buffer"},
	{long: "unordered"},
	{long: "follow-symlinks"},
	{short: 'z'},
}

func cmdCatFile(g *cmd, args []string) int {
	p := g.parse(args, catFileSpecs)
	r := g.repo()
	batch, isBatch := p.str("batch")
	check, isCheck := p.str("batch-check")
	if isBatch || isCheck || p.given("batch") || p.given("batch-check") {
		format := "%(objectname) %(objecttype) %(objectsize)"
		if isBatch && batch != "" {
			format = batch
		}
		if isCheck && check != "" {
			format = check
		}
		withContent := p.given("batch")
		sc := bufio.NewScanner(g.c.Stdin)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			name := sc.Text()
			h, err := r.resolveRev(name)
			if err != nil {
				fmt.Fprintf(g.out, "%s missing\n", name)
				continue
			}
			t, data, err2 := r.readObject(h)
			if err2 != nil {
				fmt.Fprintf(g.out, "%s missing\n", name)
				continue
			}
			line := strings.NewReplacer("%(objectname)", h.String(), "%(objecttype)", t.String(),
				"%(objectsize)", fmt.Sprint(len(data)), "%(rest)", "").Replace(format)
			g.out.WriteString(line + "\n")
			if withContent {
				g.out.Write(data)
				g.out.WriteString("\n")
			}
		}
		return 0
	}
	mode := ""
	for _, k := range []string{"t", "s", "p", "e"} {
		if p.flag(k) {
			mode = k
		}
	}
	var name string
	switch {
	case mode != "" && len(p.args) == 1:
		name = p.args[0]
	case mode == "" && len(p.args) == 2:
		mode = "type:" + p.args[0]
		name = p.args[1]
	default:
		g.subHelp(129, g.stderr)
		return 129
	}
	h, rerr := r.resolveRev(name)
	if rerr != nil {
		if mode == "e" && len(name) == 40 && isHex(name) {
			return 1
		}
		if rerr.msg != "" {
			g.fatal("%s", rerr.msg)
		}
		g.fatal("Not a valid object name %s", name)
	}
	t, data, err := r.readObject(h)
	if err != nil {
		if mode == "e" {
			return 1
		}
		g.fatal("Not a valid object name %s", name)
	}
	switch mode {
	case "e":
		return 0
	case "t":
		fmt.Fprintln(g.out, t.String())
	case "s":
		fmt.Fprintln(g.out, len(data))
	case "p":
		if t == plumbing.TreeObject {
			entries, _ := parseTree(data)
			for _, e := range entries {
				kind := "blob"
				if e.isTree() {
					kind = "tree"
				} else if e.mode == 0o160000 {
					kind = "commit"
				}
				fmt.Fprintf(g.out, "%06o %s %s\t%s\n", uint32(e.mode), kind, e.hash, r.quoteName(e.name))
			}
			return 0
		}
		g.out.Write(data)
	default:
		want := strings.TrimPrefix(mode, "type:")
		wt, err := plumbing.ParseObjectType(want)
		if err != nil {
			g.fatal("invalid object type \"%s\"", want)
		}
		if t != wt {
			if wt == plumbing.TreeObject {
				if th, ok := r.toTree(h); ok {
					_, data = r.mustObject(th)
					g.out.Write(data)
					return 0
				}
			}
			if wt == plumbing.CommitObject {
				if ch, ok := r.commitOf(h); ok {
					_, data = r.mustObject(ch)
					g.out.Write(data)
					return 0
				}
			}
			g.fatal("git cat-file %s: bad file", name)
		}
		g.out.Write(data)
	}
	return 0
}

var lsTreeSpecs = []optSpec{
	{short: 'd'},
	{short: 'r'},
	{short: 't'},
	{short: 'z'},
	{short: 'l', long: "long"},
	{long: "name-only"},
	{long: "name-status"},
	{long: "object-only"},
	{long: "full-name"},
	{long: "full-tree"},
	{long: "abbrev", arg: argOptional},
	{long: "format", arg: argRequired},
}

func cmdLsTree(g *cmd, args []string) int {
	p := g.parse(args, lsTreeSpecs)
	r := g.repo()
	if len(p.args) == 0 {
		g.subHelp(129, g.stderr)
		return 129
	}
	h, err := r.resolveRev(p.args[0])
	if err != nil {
		g.fatal("Not a valid object name %s", p.args[0])
	}
	tree, ok := r.toTree(h)
	if !ok {
		g.fatal("not a tree object")
	}
	recursive := p.flag("r")
	showTrees := p.flag("t")
	dirsOnly := p.flag("d")
	nameOnly := p.flag("name-only") || p.flag("name-status")
	objOnly := p.flag("object-only")
	long := p.flag("long")
	term := "\n"
	if p.flag("z") {
		term = "\x00"
	}
	abbrev := 0
	if v, ok := p.str("abbrev"); ok || p.given("abbrev") {
		abbrev = r.defaultAbbrev()
		if v != "" {
			abbrev, _ = atoi(v)
		}
	}
	prefix := r.prefix
	if p.flag("full-tree") {
		prefix = ""
	}
	var pats []string
	for _, a := range p.args[1:] {
		pats = append(pats, strings.TrimPrefix(path0join(prefix, a), "/"))
	}
	if len(pats) == 0 && prefix != "" {
		pats = []string{strings.TrimSuffix(prefix, "/")}
	}
	matchPat := func(pth string, isTree bool) (show bool, descend bool) {
		if len(pats) == 0 {
			return true, recursive
		}
		for _, pt := range pats {
			pt = strings.TrimSuffix(pt, "/")
			if pth == pt {
				return true, recursive
			}
			if strings.HasPrefix(pt, pth+"/") && isTree {
				return false, true
			}
			if strings.HasPrefix(pth, pt+"/") {
				return true, recursive
			}
		}
		return false, false
	}
	var w bytes.Buffer
	var walk func(t plumbing.Hash, base string)
	walk = func(t plumbing.Hash, base string) {
		for _, e := range r.readTree(t) {
			full := base + e.name
			show, descend := matchPat(full, e.isTree())
			if e.isTree() && descend {
				if showTrees && show {
					r.lsTreeLine(&w, e, full, nameOnly, objOnly, long, abbrev, term, p.flag("full-name"))
				}
				walk(e.hash, full+"/")
				continue
			}
			if !show {
				continue
			}
			if dirsOnly && !e.isTree() {
				continue
			}
			r.lsTreeLine(&w, e, full, nameOnly, objOnly, long, abbrev, term, p.flag("full-name"))
		}
	}
	walk(tree, "")
	g.out.Write(w.Bytes())
	return 0
}

func path0join(prefix, a string) string {
	if a == "." || a == "./" {
		return strings.TrimSuffix(prefix, "/")
	}
	return prefix + a
}

func (r *repo) lsTreeLine(w *bytes.Buffer, e treeEntry, full string, nameOnly, objOnly, long bool, abbrev int, term string, fullName bool) {
	name := full
	if !fullName {
		name = r.relPath(full)
	}
	if term == "\n" {
		name = r.quoteName(name)
	}
	h := e.hash.String()
	if abbrev > 0 {
		h = r.abbrevN(e.hash, abbrev)
	}
	switch {
	case nameOnly:
		w.WriteString(name + term)
		return
	case objOnly:
		w.WriteString(h + term)
		return
	}
	kind := "blob"
	if e.isTree() {
		kind = "tree"
	} else if e.mode == 0o160000 {
		kind = "commit"
	}
	if long {
		size := "-"
		if kind == "blob" {
			if obj, err := r.st.EncodedObject(plumbing.AnyObject, e.hash); err == nil {
				size = fmt.Sprint(obj.Size())
			}
		}
		fmt.Fprintf(w, "%06o %s %s %7s\t%s%s", uint32(e.mode), kind, h, size, name, term)
		return
	}
	fmt.Fprintf(w, "%06o %s %s\t%s%s", uint32(e.mode), kind, h, name, term)
}

func cmdRevList(g *cmd, args []string) int {
	lr, r := g.parseLogArgs(args, false)
	if len(lr.includes) == 0 {
		if len(lr.excludes) == 0 {
			g.subHelp(129, g.stderr)
			return 129
		}
		return 0
	}
	commits := lr.walk()
	if lr.count {
		fmt.Fprintln(g.out, len(commits))
		return 0
	}
	var w bytes.Buffer
	for _, c := range commits {
		if lr.pretty.kind != "medium" || lr.pretty.format != "" {
			fmt.Fprintf(&w, "commit %s\n", c.hash)
			if lr.pretty.kind == "format" {
				w.WriteString(lr.lc.formatUser(c, lr.pretty.format) + "\n")
			} else {
				w.WriteString(lr.lc.formatBuiltin(c, lr.pretty))
			}
			continue
		}
		w.WriteString(c.hash.String())
		if lr.parents {
			for _, p := range c.parents {
				w.WriteString(" " + p.String())
			}
		}
		w.WriteString("\n")
	}
	_ = r
	g.out.Write(w.Bytes())
	return 0
}

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

var hashObjectSpecs = []optSpec{
	{short: 't', arg: argRequired},
	{short: 'w'},
	{long: "stdin"},
	{long: "stdin-paths"},
	{long: "path", arg: argRequired},
	{long: "no-filters"},
	{long: "literally"},
}

func cmdHashObject(g *cmd, args []string) int {
	p := g.parse(args, hashObjectSpecs)
	typ := plumbing.BlobObject
	if v, ok := p.str("t"); ok {
		t, err := plumbing.ParseObjectType(v)
		if err != nil {
			g.fatal("invalid object type \"%s\"", v)
		}
		typ = t
	}
	write := p.flag("w")
	var r *repo
	if write {
		r = g.repo()
	}
	hashIt := func(data []byte) {
		var h plumbing.Hash
		if write {
			h = r.writeObject(typ, data)
		} else {
			h = plumbing.ComputeHash(typ, data)
		}
		fmt.Fprintln(g.out, h)
	}
	if p.flag("stdin") {
		data, err := g.c.ReadAll(g.ctx, g.c.Stdin)
		if err != nil {
			g.fatal("could not read from stdin")
		}
		hashIt(data)
	}
	files := p.args
	if p.flag("stdin-paths") {
		sc := bufio.NewScanner(g.c.Stdin)
		for sc.Scan() {
			files = append(files, sc.Text())
		}
	}
	for _, f := range files {
		data, err := readAll(g.c.FS, g.abs(f))
		if err != nil {
			g.fatal("could not open '%s' for reading: %s", f, errText(err))
		}
		hashIt(data)
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

var writeTreeSpecs = []optSpec{
	{long: "missing-ok"},
	{long: "prefix", arg: argRequired},
}

func cmdWriteTree(g *cmd, args []string) int {
	p := g.parse(args, writeTreeSpecs)
	r := g.repo()
	files := r.index().files()
	if pre, ok := p.str("prefix"); ok && pre != "" {
		pre = strings.TrimSuffix(pre, "/") + "/"
		var kept []fileEntry
		for _, f := range files {
			if strings.HasPrefix(f.path, pre) {
				f.path = f.path[len(pre):]
				kept = append(kept, f)
			}
		}
		files = kept
	}
	fmt.Fprintln(g.out, r.writeTreeFrom(files))
	return 0
}

var cleanSpecs = []optSpec{
	{short: 'd'},
	{short: 'f', long: "force"},
	{short: 'i', long: "interactive"},
	{short: 'n', long: "dry-run"},
	{short: 'q', long: "quiet"},
	{short: 'e', long: "exclude", arg: argRequired},
	{short: 'x'},
	{short: 'X'},
}

func cmdClean(g *cmd, args []string) int {
	p := g.parse(args, cleanSpecs)
	r := g.worktreeRepo()
	if p.flag("interactive") {
		g.fatal("interactive clean is not available in the sandbox")
	}
	force := p.count("force")
	dry := p.flag("dry-run")
	if force == 0 && !dry && r.cfg.getBool("clean.requireforce", true) {
		g.fatal("clean.requireForce defaults to true and neither -i, -n, nor -f given; refusing to clean")
	}
	dirs := p.flag("d")
	quiet := p.flag("quiet")
	ps := r.makePathspec(p.args)
	r.leadingDirWarning(ps)
	mode := untrackedNormal
	wo := walkOpts{mode: mode, ps: ps, cleanEmptyDirs: dirs}
	ig := r.newIgnorer()
	for _, e := range p.all("exclude") {
		ig.cmdline = append(ig.cmdline, parseIgnore([]byte(e), "", "command line"))
	}
	var list []string
	switch {
	case p.flag("x"):
		wo.noIgnore = true
		list = r.walkWorktree(wo).untracked
	case p.flag("X"):
		wo.wantIgnored = true
		list = r.walkWorktree(wo).ignored
	default:
		wo.wantIgnored = true
		list = r.walkWorktree(wo).untracked
	}
	if len(ig.cmdline) > 0 {
		var kept []string
		for _, f := range list {
			if ig.cmdline[0].match(strings.TrimSuffix(f, "/"), strings.HasSuffix(f, "/")) == nil {
				kept = append(kept, f)
			}
		}
		list = kept
	}
	sort.Strings(list)
	var w bytes.Buffer
	for _, f := range list {
		isDir := strings.HasSuffix(f, "/")
		if isDir && !dirs {
			// Without -d, only the untracked files named by a pathspec
			// inside untracked directories are removed.
			continue
		}
		if isDir && r.fileExists(r.workPath(strings.TrimSuffix(f, "/"))+"/.git") && force < 2 {
			if !quiet || dry {
				fmt.Fprintf(&w, "Skipping repository %s\n", r.relPath(f))
			}
			continue
		}
		if dry {
			fmt.Fprintf(&w, "Would remove %s\n", r.quoteName(r.relPath(f)))
			continue
		}
		if !quiet {
			fmt.Fprintf(&w, "Removing %s\n", r.quoteName(r.relPath(f)))
		}
		r.removeAll(r.workPath(strings.TrimSuffix(f, "/")))
	}
	g.out.Write(w.Bytes())
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

var checkIgnoreSpecs = []optSpec{
	{short: 'q', long: "quiet"},
	{short: 'v', long: "verbose"},
	{short: 'n', long: "non-matching"},
	{long: "stdin"},
	{short: 'z'},
	{long: "no-index"},
}

func cmdCheckIgnore(g *cmd, args []string) int {
	p := g.parse(args, checkIgnoreSpecs)
	r := g.worktreeRepo()
	paths := p.args
	if p.flag("stdin") {
		data, _ := g.c.ReadAll(g.ctx, g.c.Stdin)
		sep := "\n"
		if p.flag("z") {
			sep = "\x00"
		}
		for _, l := range strings.Split(strings.TrimSuffix(string(data), sep), sep) {
			if l != "" {
				paths = append(paths, l)
			}
		}
	} else if len(paths) == 0 {
		g.fatal("no path specified")
	}
	verbose := p.flag("verbose")
	nonMatching := p.flag("non-matching")
	if nonMatching && !verbose {
		g.fatal("--non-matching is only valid with --verbose")
	}
	ig := r.newIgnorer()
	ix := r.index()
	found := false
	var w bytes.Buffer
	for _, a := range paths {
		rel := r.resolveRelPath(a)
		isDir := strings.HasSuffix(a, "/")
		if fi, err := r.lstat(rel); err == nil && fi.IsDir() {
			isDir = true
		}
		var pat *ignorePattern
		if p.flag("no-index") || ix.get(rel) == nil {
			// An excluded parent directory decides; else the path itself.
			parts := strings.Split(rel, "/")
			for i := 1; i < len(parts); i++ {
				if m := ig.matchPattern(strings.Join(parts[:i], "/"), true); m != nil && !m.negate {
					pat = m
					break
				}
			}
			if pat == nil {
				pat = ig.matchPattern(rel, isDir)
			}
		}
		ignored := pat != nil && !pat.negate
		if ignored || (verbose && pat != nil) {
			found = true
		}
		if p.flag("quiet") {
			continue
		}
		switch {
		case verbose && pat != nil:
			fmt.Fprintf(&w, "%s:%d:%s\t%s\n", pat.source, pat.line, pat.text, r.quoteName(a))
		case verbose && nonMatching:
			fmt.Fprintf(&w, "::\t%s\n", r.quoteName(a))
		case ignored:
			fmt.Fprintf(&w, "%s\n", r.quoteName(a))
		}
	}
	g.out.Write(w.Bytes())
	if found {
		return 0
	}
	return 1
}
