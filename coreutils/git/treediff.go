package git

import (
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// diffTrees compares two trees (zero for an empty tree), descending only
// into subtrees that differ, and returns the changed files in path order.
func (r *repo) diffTrees(a, b plumbing.Hash, ps *pathspec) []diffPair {
	var out []diffPair
	r.diffTreesRec(a, b, "", ps, &out)
	sort.SliceStable(out, func(i, j int) bool { return pairPath(out[i]) < pairPath(out[j]) })
	return out
}

func pairPath(p diffPair) string {
	if p.b.valid() {
		return p.b.path
	}
	return p.a.path
}

func (r *repo) diffTreesRec(a, b plumbing.Hash, prefix string, ps *pathspec, out *[]diffPair) {
	if a == b {
		return
	}
	var ea, eb []treeEntry
	if !a.IsZero() {
		ea = r.readTree(a)
	}
	if !b.IsZero() {
		eb = r.readTree(b)
	}
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		var cmp int
		switch {
		case i >= len(ea):
			cmp = 1
		case j >= len(eb):
			cmp = -1
		default:
			ka, kb := ea[i].name, eb[j].name
			if ka == kb {
				cmp = 0
			} else if treeSortKey(ea[i]) < treeSortKey(eb[j]) {
				cmp = -1
			} else {
				cmp = 1
			}
		}
		switch cmp {
		case -1:
			r.treeSideOnly(ea[i], prefix, ps, true, out)
			i++
		case 1:
			r.treeSideOnly(eb[j], prefix, ps, false, out)
			j++
		default:
			x, y := ea[i], eb[j]
			p := prefix + x.name
			switch {
			case x.isTree() && y.isTree():
				if x.hash != y.hash && ps.couldMatchUnder(p) {
					r.diffTreesRec(x.hash, y.hash, p+"/", ps, out)
				}
			case x.isTree():
				r.treeSideOnly(x, prefix, ps, true, out)
				r.treeSideOnly(y, prefix, ps, false, out)
			case y.isTree():
				r.treeSideOnly(x, prefix, ps, true, out)
				r.treeSideOnly(y, prefix, ps, false, out)
			default:
				if (x.hash != y.hash || x.mode != y.mode) && ps.match(p) {
					st := byte('M')
					if typeOf(x.mode) != typeOf(y.mode) {
						st = 'T'
					}
					*out = append(*out, diffPair{status: st,
						a: diffSide{path: p, mode: x.mode, hash: x.hash},
						b: diffSide{path: p, mode: y.mode, hash: y.hash}})
				}
			}
			i++
			j++
		}
	}
}

// treeSideOnly records an entry present on one side only.
func (r *repo) treeSideOnly(e treeEntry, prefix string, ps *pathspec, deleted bool, out *[]diffPair) {
	p := prefix + e.name
	if e.isTree() {
		if !ps.couldMatchUnder(p) {
			return
		}
		for _, sub := range r.readTree(e.hash) {
			r.treeSideOnly(sub, p+"/", ps, deleted, out)
		}
		return
	}
	if !ps.match(p) {
		return
	}
	s := diffSide{path: p, mode: e.mode, hash: e.hash}
	if deleted {
		*out = append(*out, diffPair{status: 'D', a: s, b: diffSide{path: p}})
	} else {
		*out = append(*out, diffPair{status: 'A', a: diffSide{path: p}, b: s})
	}
}
