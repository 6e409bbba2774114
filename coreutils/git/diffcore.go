package git

import (
	"bytes"
	"path"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// diffSide is one side of a file pair; a zero mode means "absent".
type diffSide struct {
	path string
	mode filemode.FileMode
	hash plumbing.Hash
	wt   bool // content comes from the work tree
}

func (s diffSide) valid() bool { return s.mode != 0 }

// diffPair is a changed file.
type diffPair struct {
	status byte // 'A', 'D', 'M', 'T', 'R', 'C'
	a, b   diffSide
	score  int // similarity, 0..maxScore, for renames
}

const maxScore = 60000

// diffLists compares two sorted file lists.
func diffLists(a, b []fileEntry, ps *pathspec) []diffPair {
	var out []diffPair
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j >= len(b) || (i < len(a) && a[i].path < b[j].path):
			if ps.match(a[i].path) {
				out = append(out, diffPair{status: 'D', a: sideOf(a[i]), b: diffSide{path: a[i].path}})
			}
			i++
		case i >= len(a) || b[j].path < a[i].path:
			if ps.match(b[j].path) {
				out = append(out, diffPair{status: 'A', a: diffSide{path: b[j].path}, b: sideOf(b[j])})
			}
			j++
		default:
			if (a[i].hash != b[j].hash || a[i].mode != b[j].mode) && ps.match(a[i].path) {
				st := byte('M')
				if typeOf(a[i].mode) != typeOf(b[j].mode) {
					st = 'T'
				}
				out = append(out, diffPair{status: st, a: sideOf(a[i]), b: sideOf(b[j])})
			}
			i++
			j++
		}
	}
	return out
}

func sideOf(f fileEntry) diffSide { return diffSide{path: f.path, mode: f.mode, hash: f.hash} }

// typeOf groups modes by object kind: regular files (any permission),
// symlinks, gitlinks.
func typeOf(m filemode.FileMode) int {
	switch m {
	case filemode.Symlink:
		return 2
	case filemode.Submodule:
		return 3
	case filemode.Dir:
		return 4
	}
	return 1
}

func isRegular(m filemode.FileMode) bool {
	return m == filemode.Regular || m == filemode.Executable || m == filemode.Deprecated
}

// content returns a side's data.
func (r *repo) content(s diffSide) []byte {
	if !s.valid() {
		return nil
	}
	if r.noIndexData != nil {
		return r.noIndexData[s.hash]
	}
	if s.mode == filemode.Submodule {
		return []byte("Subproject commit " + s.hash.String() + "\n")
	}
	if s.wt {
		fi, err := r.lstat(s.path)
		if err != nil {
			return nil
		}
		data, _ := r.readWork(s.path, fi)
		return data
	}
	if s.hash.IsZero() {
		return nil
	}
	return r.blob(s.hash)
}

// isBinary is git's heuristic: a NUL in the first 8000 bytes.
func isBinary(data []byte) bool {
	n := len(data)
	if n > 8000 {
		n = 8000
	}
	return bytes.IndexByte(data[:n], 0) >= 0
}

// ---- rename detection ----

// detectRenames pairs deletions with additions of identical or similar
// content, as git's diffcore-rename does with its defaults (50%).
func (r *repo) detectRenames(pairs []diffPair, minScore int) []diffPair {
	var srcs, dsts []int
	for i, p := range pairs {
		switch p.status {
		case 'D':
			srcs = append(srcs, i)
		case 'A':
			dsts = append(dsts, i)
		}
	}
	if len(srcs) == 0 || len(dsts) == 0 {
		return pairs
	}
	used := map[int]bool{}   // src pair index -> used
	renamed := map[int]int{} // dst pair index -> src pair index
	score := map[int]int{}   // dst pair index -> score
	// Exact renames.
	for _, d := range dsts {
		dst := pairs[d].b
		best, bestScore := -1, -1
		for _, s := range srcs {
			src := pairs[s].a
			if src.hash != dst.hash {
				continue
			}
			if !isRegular(src.mode) || !isRegular(dst.mode) {
				if src.mode != dst.mode {
					continue
				}
			}
			if used[s] {
				continue
			}
			sc := 1
			if path.Base(src.path) == path.Base(dst.path) {
				sc++
			}
			if sc > bestScore {
				best, bestScore = s, sc
				if sc == 2 {
					break
				}
			}
		}
		if best >= 0 {
			used[best] = true
			renamed[d] = best
			score[d] = maxScore
		}
	}
	// Inexact renames.
	var remSrc, remDst []int
	for _, s := range srcs {
		if !used[s] {
			remSrc = append(remSrc, s)
		}
	}
	for _, d := range dsts {
		if _, ok := renamed[d]; !ok {
			remDst = append(remDst, d)
		}
	}
	limit := 1000
	if v, ok := r.cfg.get("diff.renamelimit"); ok {
		if n, ok := atoi(v); ok && n > 0 {
			limit = n
		}
	}
	if len(remSrc) > 0 && len(remDst) > 0 && len(remSrc)*len(remDst) <= limit*limit {
		sigs := map[int]*spanSig{}
		sig := func(i int, s diffSide) *spanSig {
			if sg, ok := sigs[i]; ok {
				return sg
			}
			sg := newSpanSig(r.content(s))
			sigs[i] = sg
			return sg
		}
		// Unique basenames first.
		baseCount := func(idx []int, src bool) map[string]int {
			m := map[string]int{}
			for _, i := range idx {
				p := pairs[i].b.path
				if src {
					p = pairs[i].a.path
				}
				m[path.Base(p)]++
			}
			return m
		}
		sb, db := baseCount(remSrc, true), baseCount(remDst, false)
		minBase := minScore + (maxScore-minScore)/2
		for _, d := range remDst {
			base := path.Base(pairs[d].b.path)
			if db[base] != 1 || sb[base] != 1 {
				continue
			}
			for _, s := range remSrc {
				if used[s] || path.Base(pairs[s].a.path) != base {
					continue
				}
				sc := estimateSimilarity(pairs[s].a, pairs[d].b, sig(s, pairs[s].a), sig(d, pairs[d].b), minScore)
				if sc >= minBase {
					used[s] = true
					renamed[d] = s
					score[d] = sc
				}
			}
		}
		type cand struct{ d, s, score, nameScore, order int }
		var cands []cand
		order := 0
		for _, d := range remDst {
			if _, ok := renamed[d]; ok {
				continue
			}
			var mine []cand
			for _, s := range remSrc {
				if used[s] {
					continue
				}
				sc := estimateSimilarity(pairs[s].a, pairs[d].b, sig(s, pairs[s].a), sig(d, pairs[d].b), minScore)
				if sc < minScore {
					continue
				}
				ns := 0
				if path.Base(pairs[s].a.path) == path.Base(pairs[d].b.path) {
					ns = 1
				}
				mine = append(mine, cand{d, s, sc, ns, 0})
			}
			sort.SliceStable(mine, func(i, j int) bool {
				if mine[i].score != mine[j].score {
					return mine[i].score > mine[j].score
				}
				return mine[i].nameScore > mine[j].nameScore
			})
			if len(mine) > 4 {
				mine = mine[:4]
			}
			for _, c := range mine {
				c.order = order
				order++
				cands = append(cands, c)
			}
		}
		sort.SliceStable(cands, func(i, j int) bool {
			if cands[i].score != cands[j].score {
				return cands[i].score > cands[j].score
			}
			return cands[i].nameScore > cands[j].nameScore
		})
		for _, c := range cands {
			if _, ok := renamed[c.d]; ok || used[c.s] {
				continue
			}
			used[c.s] = true
			renamed[c.d] = c.s
			score[c.d] = c.score
		}
	}
	if len(renamed) == 0 {
		return pairs
	}
	var out []diffPair
	for i, p := range pairs {
		if p.status == 'D' && used[i] {
			continue
		}
		if s, ok := renamed[i]; ok {
			out = append(out, diffPair{status: 'R', a: pairs[s].a, b: p.b, score: score[i]})
			continue
		}
		out = append(out, p)
	}
	return out
}

// spanSig is git's content signature for similarity: byte counts per hash
// of line-or-64-byte chunks.
type spanSig struct {
	size   int
	hashes []uint32
	counts []int
}

func newSpanSig(data []byte) *spanSig {
	const hashBase = 107927
	m := map[uint32]int{}
	isText := !isBinary(data)
	var accum1, accum2 uint32
	n := 0
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		old1 := accum1
		if isText && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		accum1 = (accum1 << 7) ^ (accum2 >> 25)
		accum2 = (accum2 << 7) ^ (old1 >> 25)
		accum1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		h := (accum1 + accum2*0x61) % hashBase
		m[h] += n
		n = 0
		accum1, accum2 = 0, 0
	}
	if n > 0 {
		h := (accum1 + accum2*0x61) % hashBase
		m[h] += n
	}
	sg := &spanSig{size: len(data)}
	for h := range m {
		sg.hashes = append(sg.hashes, h)
	}
	sort.Slice(sg.hashes, func(i, j int) bool { return sg.hashes[i] < sg.hashes[j] })
	sg.counts = make([]int, len(sg.hashes))
	for i, h := range sg.hashes {
		sg.counts[i] = m[h]
	}
	return sg
}

// estimateSimilarity scores how much of dst comes from src (0..maxScore).
func estimateSimilarity(src, dst diffSide, ss, ds *spanSig, minScore int) int {
	if !isRegular(src.mode) || !isRegular(dst.mode) {
		return 0
	}
	maxSize := max(ss.size, ds.size)
	baseSize := min(ss.size, ds.size)
	delta := maxSize - baseSize
	if maxSize*(maxScore-minScore) < delta*maxScore {
		return 0
	}
	srcCopied := 0
	i, j := 0, 0
	for j < len(ds.hashes) {
		for i < len(ss.hashes) && ss.hashes[i] < ds.hashes[j] {
			i++
		}
		if i < len(ss.hashes) && ss.hashes[i] == ds.hashes[j] {
			sc, dc := ss.counts[i], ds.counts[j]
			if sc < dc {
				srcCopied += sc
			} else {
				srcCopied += dc
			}
			i++
		}
		j++
	}
	if ds.size == 0 || maxSize == 0 {
		return 0
	}
	return srcCopied * maxScore / maxSize
}

func similarityIndex(score int) int { return score * 100 / maxScore }
