package git

import (
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Walking history for log and show: merge bases, reachability, the walk
// in git's order and the commit filters.

// mergeBases finds the best common ancestors of a and b.
func (r *repo) mergeBases(a, b plumbing.Hash) []plumbing.Hash {
	ra := r.reachable(a)
	rb := r.reachable(b)
	var common []plumbing.Hash
	for h := range ra {
		if rb[h] {
			common = append(common, h)
		}
	}
	// Keep those not reachable from another common ancestor.
	var out []plumbing.Hash
	for _, c := range common {
		best := true
		for _, o := range common {
			if o == c {
				continue
			}
			if r.reachableFrom(o, c) {
				best = false
				break
			}
		}
		if best {
			out = append(out, c)
		}
	}
	return out
}

// reachableFrom reports whether target is an ancestor of (or equal to)
// from.
func (r *repo) reachableFrom(from, target plumbing.Hash) bool {
	if from == target {
		return true
	}
	return r.reachable(from)[target]
}

// walk lists the commits to show, in git's default order (by committer
// date, first come first served among equal dates).
func (lr *logRun) walk() []*commit {
	r := lr.r
	excluded := map[plumbing.Hash]bool{}
	for _, e := range lr.excludes {
		for h := range r.reachable(e) {
			excluded[h] = true
		}
	}
	var queue []*commit
	seen := map[plumbing.Hash]bool{}
	insert := func(c *commit) {
		i := 0
		for i < len(queue) && queue[i].committer.when >= c.committer.when {
			i++
		}
		queue = append(queue, nil)
		copy(queue[i+1:], queue[i:])
		queue[i] = c
	}
	var start []*commit
	for _, h := range lr.includes {
		c, ok := r.commitOf(h)
		if !ok || seen[c] {
			continue
		}
		seen[c] = true
		start = append(start, r.getCommit(c))
	}
	// Stable sort by date, newest first.
	for i := 1; i < len(start); i++ {
		for j := i; j > 0 && start[j].committer.when > start[j-1].committer.when; j-- {
			start[j], start[j-1] = start[j-1], start[j]
		}
	}
	queue = start
	var out []*commit
	skip := lr.skip
	n := 0
	for len(queue) > 0 {
		n++
		if n&1023 == 0 {
			r.g.check()
		}
		c := queue[0]
		queue = queue[1:]
		parents := c.parents
		if lr.firstParent && len(parents) > 1 {
			parents = parents[:1]
		}
		show := !excluded[c.hash]
		// History simplification by paths.
		if show && !lr.ps.empty() {
			same := -1
			for i, p := range parents {
				if len(r.diffTrees(r.getCommit(p).tree, c.tree, lr.ps)) == 0 {
					same = i
					break
				}
			}
			if len(parents) == 0 {
				if len(r.diffTrees(plumbing.ZeroHash, c.tree, lr.ps)) == 0 {
					show = false
				}
			} else if same >= 0 {
				show = false
				parents = parents[same : same+1]
			}
		}
		if !lr.noWalk {
			for _, p := range parents {
				if seen[p] {
					continue
				}
				seen[p] = true
				if excluded[p] && len(lr.excludes) > 0 {
					// Still walk through to keep order simple; excluded
					// commits are never shown.
				}
				insert(r.getCommit(p))
			}
		}
		if !show || !lr.filter(c) {
			continue
		}
		if lr.pick != nil && (len(c.parents) > 1 || len(lr.commitDiff(c)) == 0) {
			continue
		}
		if lr.topo {
			out = append(out, c)
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		out = append(out, c)
		if lr.maxCount >= 0 && len(out) >= lr.maxCount {
			break
		}
	}
	if lr.topo {
		out = topoSort(out)
		if skip > len(out) {
			skip = len(out)
		}
		out = out[skip:]
		if lr.maxCount >= 0 && len(out) > lr.maxCount {
			out = out[:lr.maxCount]
		}
	}
	if lr.graph {
		interesting := map[plumbing.Hash]bool{}
		for h := range r.reachableSet(lr.includes) {
			if !excluded[h] {
				interesting[h] = true
			}
		}
		lr.gr = newGraph(interesting)
	}
	if lr.reverse {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// filter applies --author, --grep, --since and merge filters.
func (lr *logRun) filter(c *commit) bool {
	if lr.noMerges && len(c.parents) > 1 {
		return false
	}
	if lr.merges && len(c.parents) < 2 {
		return false
	}
	if lr.since != 0 && c.committer.when < lr.since {
		return false
	}
	if lr.until != 0 && c.committer.when > lr.until {
		return false
	}
	if len(lr.authors) > 0 && !anyMatch(lr.authors, c.author.name+" <"+c.author.email+">") {
		return false
	}
	if len(lr.committers) > 0 && !anyMatch(lr.committers, c.committer.name+" <"+c.committer.email+">") {
		return false
	}
	if len(lr.greps) > 0 {
		matched := 0
		for _, re := range lr.greps {
			for _, line := range strings.Split(c.message, "\n") {
				if re.MatchString(line) {
					matched++
					break
				}
			}
		}
		ok := matched > 0
		if lr.allMatch {
			ok = matched == len(lr.greps)
		}
		if lr.invertGrep {
			ok = !ok
		}
		if !ok {
			return false
		}
	}
	return true
}

// anyMatch reports whether one of res matches s.
func anyMatch(res []*regexp.Regexp, s string) bool {
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
