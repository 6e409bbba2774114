package git

import (
	"bufio"
	"bytes"
	"fmt"
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
