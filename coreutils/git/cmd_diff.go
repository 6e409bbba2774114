package git

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

var diffOnlySpecs = []optSpec{
	{long: "cached"},
	{long: "staged"},
	{long: "no-index"},
	{long: "merge-base"},
	{long: "check"},
	{long: "word-diff", arg: argOptional},
	{long: "function-context"},
	{short: 'W'},
	{long: "inter-hunk-context", arg: argRequired},
}

func cmdDiff(g *cmd, args []string) int {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" {
			g.shortHelp()
		}
	}
	specs := append(append([]optSpec{}, diffOnlySpecs...), diffOptSpecs...)
	p, err := parseOpts(args, specs, false)
	if err != nil {
		if opt, ok := unknownOption(err); ok {
			g.msg("error: invalid option: %s", opt)
			return 129
		}
		g.fatal("%s", err.Error())
	}
	o := defaultDiffOpts()
	cached := false
	noIndex := false
	for _, v := range p.opts {
		if g.applyDiffOpt(&o, v) {
			continue
		}
		switch v.key {
		case "cached", "staged":
			cached = true
		case "no-index":
			noIndex = true
		case "check", "word-diff", "function-context", "W":
			g.fatal("--%s is not supported in the sandbox", v.key)
		}
	}
	if o.format == 0 {
		o.format = fmtPatch
	}
	r, rerr := g.openRepo()
	if noIndex || rerr != nil {
		if !noIndex && len(p.args) != 2 {
			g.msg("error: Not a git repository. Use --no-index to compare two paths outside a working tree")
			g.msg("usage: git diff --no-index [<options>] <path> <path>")
			return 129
		}
		return g.diffNoIndex(r, p.args, &o)
	}
	if r.cfg.get("diff.renames"); true {
		o.renames = r.cfg.getBool("diff.renames", true)
	}
	if v, ok := r.cfg.get("diff.context"); ok {
		if n, ok := atoi(v); ok && !p.given("unified") {
			o.ctx = n
		}
	}
	if v, ok := r.cfg.get("diff.noprefix"); ok && parseBool(v) == 1 && !p.given("src-prefix") {
		o.srcPrefix, o.dstPrefix = "", ""
	}
	before, after, hasDD := p.split()
	var revs []string
	var paths []string
	for i, a := range before {
		if _, err := r.resolveRev(strings.Split(strings.Replace(a, "...", "..", 1), "..")[0]); err == nil || strings.Contains(a, "..") {
			revs = append(revs, a)
			continue
		}
		if hasDD {
			r.dieBadRev(a, &revError{})
		}
		if r.pathExists(a) {
			paths = append(paths, r.trailingPaths(before[i:])...)
			break
		}
		r.dieBadRev(a, &revError{})
	}
	paths = append(paths, after...)
	ps := r.makePathspec(paths)
	var pairs []diffPair
	// Expand ranges.
	var hashes []plumbing.Hash
	for _, rv := range revs {
		if left, right, sym, ok := splitRange(rv); ok {
			if sym {
				lc, rc := r.commitOrDie(left), r.commitOrDie(right)
				bases := r.mergeBases(lc, rc)
				if len(bases) == 0 {
					g.fatal("%s: no merge base", rv)
				}
				hashes = append(hashes, bases[0], rc)
				continue
			}
			h1, err := r.resolveRev(left)
			if err != nil {
				r.dieBadRev(rv, err)
			}
			h2, err := r.resolveRev(right)
			if err != nil {
				r.dieBadRev(rv, err)
			}
			hashes = append(hashes, h1, h2)
			continue
		}
		h, err := r.resolveRev(rv)
		if err != nil {
			r.dieBadRev(rv, err)
		}
		hashes = append(hashes, h)
	}
	switch {
	case len(hashes) == 0 && !cached:
		if r.work == "" {
			g.fatal("this operation must be run in a work tree")
		}
		pairs = r.unstagedPairs(ps)
		pairs = r.filterPairs(pairs, &o)
	case len(hashes) == 0 && cached, len(hashes) == 1 && cached:
		var base plumbing.Hash
		if len(hashes) == 1 {
			t, ok := r.toTree(hashes[0])
			if !ok {
				g.fatal("bad object %s", revs[0])
			}
			base = t
		} else if hd := r.head(); !hd.unborn() {
			base = r.getCommit(hd.hash).tree
		}
		pairs = r.stagedPairsFrom(base, ps, false)
		pairs = r.preparePairs(pairs, &o)
	case len(hashes) == 1:
		t, ok := r.toTree(hashes[0])
		if !ok {
			g.fatal("bad object %s", revs[0])
		}
		pairs = diffLists(r.flattenTree(t), r.worktreeFiles(), ps)
		for i := range pairs {
			if pairs[i].b.valid() {
				pairs[i].b.wt = true
			}
		}
		pairs = r.preparePairs(pairs, &o)
	case len(hashes) == 2:
		t1, ok1 := r.peel(hashes[0])
		t2, ok2 := r.peel(hashes[1])
		if ok1 == plumbing.BlobObject && ok2 == plumbing.BlobObject {
			pairs = []diffPair{{status: 'M', a: diffSide{path: revs[0], mode: filemode.Regular, hash: t1}, b: diffSide{path: revs[len(revs)-1], mode: filemode.Regular, hash: t2}}}
			break
		}
		a, okA := r.toTree(hashes[0])
		b, okB := r.toTree(hashes[1])
		if !okA || !okB {
			g.fatal("bad object")
		}
		pairs = r.diffTrees(a, b, ps)
		pairs = r.preparePairs(pairs, &o)
	default:
		g.fatal("combined diffs are not supported in the sandbox")
	}
	var w bytes.Buffer
	r.streamTo, r.flush = &w, g.flushPart
	r.writeDiff(&w, pairs, &o)
	g.out.Write(w.Bytes())
	if o.exitCode && r.pairsDiffer(pairs, &o) {
		return 1
	}
	return 0
}

// worktreeFiles lists tracked files as they are in the work tree.
func (r *repo) worktreeFiles() []fileEntry {
	var out []fileEntry
	for _, e := range r.index().entries() {
		st, fi, h := r.checkWork(e)
		switch st {
		case wtDeleted:
			continue
		case wtClean:
			out = append(out, fileEntry{path: e.Name, mode: e.Mode, hash: e.Hash})
		default:
			if h.IsZero() {
				h, _ = r.workHash(e.Name, fi)
			}
			out = append(out, fileEntry{path: e.Name, mode: r.fileMode(fi, e), hash: h})
		}
	}
	return out
}

// diffNoIndex compares two paths outside of any repository.
func (g *cmd) diffNoIndex(r *repo, args []string, o *diffOpts) int {
	if len(args) != 2 {
		g.msg("usage: git diff --no-index [<options>] <path> <path>")
		return 129
	}
	if r == nil {
		r = &repo{g: g, fs: g.c.FS, cfg: g.loadConfig(nil)}
	}
	type item struct {
		rel  string
		data []byte
		mode filemode.FileMode
	}
	load := func(p string) (map[string]item, bool, error) {
		abs := g.abs(p)
		fi, err := g.c.FS.Stat(abs)
		if err != nil {
			return nil, false, err
		}
		out := map[string]item{}
		if !fi.IsDir() {
			data, err := readAll(g.c.FS, abs)
			if err != nil {
				return nil, false, err
			}
			m := filemode.Regular
			if fi.Mode()&0o100 != 0 {
				m = filemode.Executable
			}
			out[""] = item{data: data, mode: m}
			return out, false, nil
		}
		var walk func(dir, rel string)
		walk = func(dir, rel string) {
			entries, _ := g.c.FS.ReadDir(dir)
			for _, e := range entries {
				sub := path.Join(rel, e.Name())
				full := dir + "/" + e.Name()
				if e.IsDir() {
					walk(full, sub)
					continue
				}
				data, _ := readAll(g.c.FS, full)
				m := filemode.Regular
				if e.Mode()&fs.ModeSymlink != 0 {
					m = filemode.Symlink
					t, _ := g.c.FS.ReadlinkIfPossible(full)
					data = []byte(t)
				} else if e.Mode()&0o100 != 0 {
					m = filemode.Executable
				}
				out[sub] = item{rel: sub, data: data, mode: m}
			}
		}
		walk(abs, "")
		return out, true, nil
	}
	a, aDir, err := load(args[0])
	if err != nil {
		g.msg("error: Could not access '%s'", args[0])
		return 1
	}
	b, bDir, err := load(args[1])
	if err != nil {
		g.msg("error: Could not access '%s'", args[1])
		return 1
	}
	if aDir != bDir {
		// file vs directory: compare with the file of the same name inside
		if aDir {
			name := path.Base(args[1])
			a = map[string]item{"": a[name]}
		} else {
			name := path.Base(args[0])
			b = map[string]item{"": b[name]}
		}
	}
	var names []string
	seen := map[string]bool{}
	for k := range a {
		names = append(names, k)
		seen[k] = true
	}
	for k := range b {
		if !seen[k] {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	contents := map[plumbing.Hash][]byte{}
	var pairs []diffPair
	strip := func(s string) string { return strings.TrimPrefix(s, "/") }
	for _, n := range names {
		x, inA := a[n]
		y, inB := b[n]
		pa := strip(path.Join(args[0], n))
		pb := strip(path.Join(args[1], n))
		if n == "" {
			pa, pb = strip(args[0]), strip(args[1])
		}
		var sa, sb diffSide
		if inA && x.data != nil {
			h := hashBlob(x.data)
			contents[h] = x.data
			sa = diffSide{path: pa, mode: x.mode, hash: h}
		} else {
			sa = diffSide{path: pa}
		}
		if inB && y.data != nil {
			h := hashBlob(y.data)
			contents[h] = y.data
			sb = diffSide{path: pb, mode: y.mode, hash: h}
		} else {
			sb = diffSide{path: pb}
		}
		if !sa.valid() {
			sa.path = pb
		}
		if !sb.valid() {
			sb.path = pa
		}
		if sa.valid() && sb.valid() && sa.hash == sb.hash && sa.mode == sb.mode {
			continue
		}
		st := byte('M')
		switch {
		case !sa.valid():
			st = 'A'
		case !sb.valid():
			st = 'D'
		}
		pairs = append(pairs, diffPair{status: st, a: sa, b: sb})
	}
	r.noIndexData = contents
	var w bytes.Buffer
	r.writeDiff(&w, pairs, o)
	g.out.Write(w.Bytes())
	if len(pairs) > 0 {
		return 1
	}
	return 0
}
