package git

import (
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// refRules are git's ref lookup rules for a short name.
var refRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// dwimRef expands a short ref name to the full name and its value.
func (r *repo) dwimRef(name string) (string, plumbing.Hash, bool) {
	if name == "" || name == "@" {
		name = "HEAD"
	}
	for _, rule := range refRules {
		full := strings.Replace(rule, "%s", name, 1)
		if rule == "%s" {
			// Only pseudo refs at the top of the git directory.
			if !(name == "HEAD" || name == "ORIG_HEAD" || name == "FETCH_HEAD" || name == "MERGE_HEAD" ||
				name == "CHERRY_PICK_HEAD" || strings.HasPrefix(name, "refs/")) {
				continue
			}
		}
		if !checkRefPath(full) {
			continue
		}
		if h, ok := r.resolveRef(full); ok {
			return full, h, true
		}
	}
	return "", plumbing.ZeroHash, false
}

func checkRefPath(full string) bool {
	if strings.Contains(full, "..") || strings.ContainsAny(full, " ~^:?*[\\") {
		return false
	}
	return true
}

// revError says why a revision did not resolve.
type revError struct {
	msg string // full message after "fatal: ", or "" for the generic one
}

// resolveRev resolves an extended SHA-1 expression to an object name.
func (r *repo) resolveRev(spec string) (plumbing.Hash, *revError) {
	generic := &revError{}
	if spec == "" {
		return plumbing.ZeroHash, generic
	}
	// ":path" and ":N:path" name index entries.
	if strings.HasPrefix(spec, ":") && !strings.HasPrefix(spec, ":/") {
		rest := spec[1:]
		stage := 0
		if len(rest) >= 2 && rest[1] == ':' && rest[0] >= '0' && rest[0] <= '3' {
			stage = int(rest[0] - '0')
			rest = rest[2:]
		}
		p := r.resolveRelPath(rest)
		if stage == 0 {
			if e := r.index().get(p); e != nil {
				return e.Hash, nil
			}
		}
		if r.work != "" && r.fileExists(r.workPath(p)) {
			return plumbing.ZeroHash, &revError{"path '" + p + "' exists on disk, but not in the index"}
		}
		return plumbing.ZeroHash, &revError{"path '" + p + "' does not exist (neither on disk nor in the index)"}
	}
	// "rev:path"
	if i := strings.IndexByte(spec, ':'); i > 0 {
		revPart, p := spec[:i], spec[i+1:]
		h, err := r.resolveRev(revPart)
		if err != nil {
			return h, err
		}
		treeH, ok := r.toTree(h)
		if !ok {
			return plumbing.ZeroHash, generic
		}
		full := strings.Trim(p, "/")
		if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || p == "." || p == ".." {
			full = r.resolveRelPath(p)
		}
		e, ok := r.treeLookup(treeH, full)
		if !ok {
			if r.work != "" && full != "" && r.fileExists(r.workPath(full)) {
				return plumbing.ZeroHash, &revError{"path '" + full + "' exists on disk, but not in '" + revPart + "'"}
			}
			return plumbing.ZeroHash, &revError{"path '" + full + "' does not exist in '" + revPart + "'"}
		}
		return e.hash, nil
	}
	// Base name, then ~ ^ @{...} operators.
	base, ops := splitRevOps(spec)
	var h plumbing.Hash
	switch {
	case base == "" && strings.HasPrefix(ops, "@{"):
		base = "HEAD"
		fallthrough
	default:
		var ok bool
		h, ok = r.resolveBase(base, ops)
		if !ok {
			return plumbing.ZeroHash, generic
		}
		if strings.HasPrefix(ops, "@{") {
			end := strings.IndexByte(ops, '}')
			ops = ops[end+1:]
		}
	}
	for len(ops) > 0 {
		switch ops[0] {
		case '~':
			n, rest := readNum(ops[1:], 1)
			ops = rest
			for k := 0; k < n; k++ {
				c, ok := r.commitOf(h)
				if !ok {
					return plumbing.ZeroHash, generic
				}
				cm := r.getCommit(c)
				if len(cm.parents) == 0 {
					return plumbing.ZeroHash, generic
				}
				h = cm.parents[0]
			}
		case '^':
			if strings.HasPrefix(ops, "^{") {
				end := strings.IndexByte(ops, '}')
				if end < 0 {
					return plumbing.ZeroHash, generic
				}
				kind := ops[2:end]
				ops = ops[end+1:]
				switch kind {
				case "":
					h, _ = r.peel(h)
				case "commit":
					c, ok := r.commitOf(h)
					if !ok {
						return plumbing.ZeroHash, generic
					}
					h = c
				case "tree":
					t, ok := r.toTree(h)
					if !ok {
						return plumbing.ZeroHash, generic
					}
					h = t
				case "blob":
					p, t := r.peel(h)
					if t != plumbing.BlobObject {
						return plumbing.ZeroHash, generic
					}
					h = p
				case "tag":
					if r.objectType(h) != plumbing.TagObject {
						return plumbing.ZeroHash, generic
					}
				default:
					return plumbing.ZeroHash, generic
				}
				continue
			}
			n, rest := readNum(ops[1:], 1)
			ops = rest
			c, ok := r.commitOf(h)
			if !ok {
				return plumbing.ZeroHash, generic
			}
			if n == 0 {
				h = c
				continue
			}
			cm := r.getCommit(c)
			if n > len(cm.parents) {
				return plumbing.ZeroHash, generic
			}
			h = cm.parents[n-1]
		default:
			return plumbing.ZeroHash, generic
		}
	}
	return h, nil
}

// splitRevOps separates "main~2^" into "main" and "~2^".
func splitRevOps(spec string) (string, string) {
	for i := 0; i < len(spec); i++ {
		switch spec[i] {
		case '~', '^':
			return spec[:i], spec[i:]
		case '@':
			if i+1 < len(spec) && spec[i+1] == '{' {
				return spec[:i], spec[i:]
			}
		}
	}
	return spec, ""
}

func readNum(s string, def int) (int, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return def, s
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i:]
}

// resolveBase resolves a name (and a leading @{...} selector in ops).
func (r *repo) resolveBase(base, ops string) (plumbing.Hash, bool) {
	if base == "@" {
		base = "HEAD"
	}
	if strings.HasPrefix(ops, "@{") {
		end := strings.IndexByte(ops, '}')
		if end < 0 {
			return plumbing.ZeroHash, false
		}
		sel := ops[2:end]
		if base == "" {
			base = "HEAD"
		}
		if strings.HasPrefix(sel, "-") {
			n, err := strconv.Atoi(sel[1:])
			if err != nil || n < 1 {
				return plumbing.ZeroHash, false
			}
			name, ok := r.previousBranch(n)
			if !ok {
				return plumbing.ZeroHash, false
			}
			return r.resolveBase(name, "")
		}
		if sel == "u" || sel == "upstream" || sel == "push" {
			b := base
			if base == "HEAD" {
				b = r.head().branch()
			}
			ref, _, ok := r.upstream(b)
			if !ok {
				return plumbing.ZeroHash, false
			}
			return r.resolveRef(ref)
		}
		n, err := strconv.Atoi(sel)
		if err != nil {
			return plumbing.ZeroHash, false
		}
		full := "HEAD"
		if base != "HEAD" {
			f, _, ok := r.dwimRef(base)
			if !ok {
				return plumbing.ZeroHash, false
			}
			full = f
		}
		log := r.readReflog(full)
		if n == 0 {
			if len(log) == 0 {
				return r.resolveRef(full)
			}
			return log[0].new, true
		}
		if n < len(log) {
			return log[n].new, true
		}
		if n == len(log) && n > 0 {
			return log[n-1].old, !log[n-1].old.IsZero()
		}
		return plumbing.ZeroHash, false
	}
	if _, h, ok := r.dwimRef(base); ok {
		return h, true
	}
	if len(base) >= 4 && len(base) <= 40 && isHex(strings.ToLower(base)) {
		b := strings.ToLower(base)
		if len(b) == 40 {
			h := plumbing.NewHash(b)
			if r.hasObject(h) {
				return h, true
			}
			return plumbing.ZeroHash, false
		}
		hs, _ := r.hashesWithPrefix(b)
		if len(hs) == 1 {
			return hs[0], true
		}
		if len(hs) > 1 {
			// git prefers a unique commit among ambiguous candidates.
			var commits []plumbing.Hash
			for _, h := range hs {
				if r.objectType(h) == plumbing.CommitObject {
					commits = append(commits, h)
				}
			}
			if len(commits) == 1 {
				return commits[0], true
			}
		}
	}
	return plumbing.ZeroHash, false
}

// previousBranch finds the n-th previously checked out branch.
func (r *repo) previousBranch(n int) (string, bool) {
	for _, e := range r.readReflog("HEAD") {
		prev, _, ok := checkoutMove(e.msg)
		if !ok {
			continue
		}
		n--
		if n == 0 {
			return prev, true
		}
	}
	return "", false
}

// commitOf peels h to a commit.
func (r *repo) commitOf(h plumbing.Hash) (plumbing.Hash, bool) {
	p, t := r.peel(h)
	if t != plumbing.CommitObject {
		return plumbing.ZeroHash, false
	}
	return p, true
}

// toTree peels h to a tree.
func (r *repo) toTree(h plumbing.Hash) (plumbing.Hash, bool) {
	p, t := r.peel(h)
	switch t {
	case plumbing.TreeObject:
		return p, true
	case plumbing.CommitObject:
		return r.getCommit(p).tree, true
	}
	return plumbing.ZeroHash, false
}

// resolveRelPath turns a path relative to the working directory into a
// repository path ("./x", "../y" and plain names relative to the prefix
// for ":path").
func (r *repo) resolveRelPath(p string) string {
	ps := r.makePathspec([]string{p})
	return ps.items[0].match
}

// revOrDie resolves a revision to a commit or dies with git's "ambiguous
// argument" message.
func (r *repo) commitOrDie(spec string) plumbing.Hash {
	h, err := r.resolveRev(spec)
	if err != nil {
		r.dieBadRev(spec, err)
	}
	c, ok := r.commitOf(h)
	if !ok {
		r.g.fatal("invalid reference: %s", spec)
	}
	return c
}

func (r *repo) dieBadRev(spec string, err *revError) {
	if err.msg != "" {
		r.g.fatal("%s", err.msg)
	}
	r.g.fatal("ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", spec)
}

// splitRange splits a range argument "L..R" or "L...R" (sym) into its two
// ends, an empty end meaning HEAD as in git; ok is false for a single revision.
func splitRange(a string) (left, right string, sym, ok bool) {
	if i := strings.Index(a, "..."); i >= 0 {
		left, right, sym = a[:i], a[i+3:], true
	} else if i := strings.Index(a, ".."); i >= 0 {
		left, right = a[:i], a[i+2:]
	} else {
		return "", "", false, false
	}
	if left == "" {
		left = "HEAD"
	}
	if right == "" {
		right = "HEAD"
	}
	return left, right, sym, true
}

// resolveCommit resolves spec and peels it to a commit.
func (r *repo) resolveCommit(spec string) (plumbing.Hash, bool) {
	h, err := r.resolveRev(spec)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	return r.commitOf(h)
}

// trailingPaths takes the arguments from the first one naming a path on as
// paths, as git does without "--": every one of them must exist.
func (r *repo) trailingPaths(rest []string) []string {
	for _, q := range rest[1:] {
		if !r.pathExists(q) {
			r.dieBadRev(q, &revError{})
		}
	}
	return rest
}

// checkoutMove splits a HEAD reflog message "checkout: moving from A to B"
// into A and B.
func checkoutMove(msg string) (from, to string, ok bool) {
	msg, ok = strings.CutPrefix(msg, "checkout: moving from ")
	if !ok {
		return "", "", false
	}
	from, to, ok = strings.Cut(msg, " to ")
	return from, to, ok
}
