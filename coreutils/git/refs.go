package git

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/bashbox/bashbox/builtins"
)

// headInfo describes HEAD.
type headInfo struct {
	symbolic bool
	target   string        // the branch ref when symbolic ("refs/heads/main")
	hash     plumbing.Hash // zero when the branch is unborn
}

func (h headInfo) unborn() bool { return h.hash.IsZero() }

// branch is the short branch name, "" when detached.
func (h headInfo) branch() string {
	if !h.symbolic {
		return ""
	}
	return strings.TrimPrefix(h.target, "refs/heads/")
}

func (r *repo) head() headInfo {
	data, err := r.readGitFile("HEAD")
	if err != nil {
		r.g.fatal("unable to read HEAD")
	}
	s := strings.TrimSpace(string(data))
	if t, ok := strings.CutPrefix(s, "ref:"); ok {
		t = strings.TrimSpace(t)
		h, _ := r.resolveRef(t)
		return headInfo{symbolic: true, target: t, hash: h}
	}
	if len(s) == 40 && isHex(s) {
		return headInfo{hash: plumbing.NewHash(s)}
	}
	r.g.fatal("bad HEAD")
	return headInfo{}
}

// resolveRef reads a full ref name, following symbolic refs.
func (r *repo) resolveRef(name string) (plumbing.Hash, bool) {
	for depth := 0; depth < 5; depth++ {
		if name == "HEAD" || !strings.HasPrefix(name, "refs/") {
			data, err := r.readGitFile(name)
			if err != nil {
				return plumbing.ZeroHash, false
			}
			s := strings.TrimSpace(string(data))
			if t, ok := strings.CutPrefix(s, "ref:"); ok {
				name = strings.TrimSpace(t)
				continue
			}
			if len(s) >= 40 && isHex(s[:40]) {
				return plumbing.NewHash(s[:40]), true
			}
			return plumbing.ZeroHash, false
		}
		ref, err := r.st.Reference(plumbing.ReferenceName(name))
		if err != nil {
			return plumbing.ZeroHash, false
		}
		if ref.Type() == plumbing.SymbolicReference {
			name = ref.Target().String()
			continue
		}
		return ref.Hash(), true
	}
	return plumbing.ZeroHash, false
}

func (r *repo) refExists(name string) bool {
	_, ok := r.resolveRef(name)
	return ok
}

// refEntry is a ref and the object it names.
type refEntry struct {
	name   string
	hash   plumbing.Hash
	target string // for symbolic refs
}

// listRefs lists refs under prefix ("refs/heads/"), sorted by name.
func (r *repo) listRefs(prefix string) []refEntry {
	it, err := r.st.IterReferences()
	if err != nil {
		return nil
	}
	var out []refEntry
	seen := map[string]bool{}
	it.ForEach(func(ref *plumbing.Reference) error {
		name := ref.Name().String()
		if !strings.HasPrefix(name, prefix) || seen[name] || name == "HEAD" {
			return nil
		}
		seen[name] = true
		e := refEntry{name: name}
		if ref.Type() == plumbing.SymbolicReference {
			e.target = ref.Target().String()
			e.hash, _ = r.resolveRef(e.target)
		} else {
			e.hash = ref.Hash()
		}
		out = append(out, e)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// logsRef reports whether updates of ref are logged.
func (r *repo) logsRef(name string) bool {
	if name == "refs/stash" {
		return true
	}
	if !r.cfg.getBool("core.logallrefupdates", r.work != "") {
		return r.fileExists(r.gitPath("logs/" + name))
	}
	return name == "HEAD" || strings.HasPrefix(name, "refs/heads/") || strings.HasPrefix(name, "refs/remotes/") || strings.HasPrefix(name, "refs/notes/")
}

func (r *repo) fileExists(p string) bool {
	_, err := r.fs.Stat(p)
	return err == nil
}

// appendReflog adds an entry to a ref's log.
func (r *repo) appendReflog(name string, old, new plumbing.Hash, msg string) {
	if !r.logsRef(name) {
		return
	}
	id := r.identity("COMMITTER")
	line := fmt.Sprintf("%s %s %s", old, new, id)
	msg = reflogMessage(msg)
	if msg != "" {
		line += "\t" + msg
	}
	line += "\n"
	p := r.gitPath("logs/" + name)
	r.fs.MkdirAll(p[:strings.LastIndexByte(p, '/')], 0o755)
	f, err := r.fs.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	f.Write([]byte(line))
	f.Close()
}

// reflogMessage collapses a message to one line as git does.
func reflogMessage(msg string) string {
	var b strings.Builder
	wasSpace := true
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c == '\n' || c == '\t' || c == ' ' || c == '\r' {
			if !wasSpace {
				b.WriteByte(' ')
			}
			wasSpace = true
			continue
		}
		wasSpace = false
		b.WriteByte(c)
	}
	return strings.TrimRight(b.String(), " ")
}

// updateRef points ref name at h, logging the update (and HEAD's, when
// HEAD is a symbolic ref to name).
func (r *repo) updateRef(name string, h plumbing.Hash, msg string) {
	old, _ := r.resolveRef(name)
	if name == "HEAD" {
		hd := r.head()
		if hd.symbolic {
			r.updateRef(hd.target, h, msg)
			return
		}
		r.writeGitFile("HEAD", []byte(h.String()+"\n"))
		r.appendReflog("HEAD", old, h, msg)
		return
	}
	if err := r.st.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(name), h)); err != nil {
		r.g.fatal("cannot update ref '%s': %s", name, builtins.ErrText(err))
	}
	r.appendReflog(name, old, h, msg)
	if hd := r.head(); hd.symbolic && hd.target == name {
		r.appendReflog("HEAD", old, h, msg)
	}
}

// detachHead points HEAD at a commit.
func (r *repo) detachHead(h plumbing.Hash, msg string) {
	old := r.head().hash
	r.writeGitFile("HEAD", []byte(h.String()+"\n"))
	r.appendReflog("HEAD", old, h, msg)
}

// setHeadBranch points HEAD at a branch (which may not exist yet).
func (r *repo) setHeadBranch(ref string, msg string) {
	old := r.head().hash
	r.writeGitFile("HEAD", []byte("ref: "+ref+"\n"))
	if msg != "" {
		newH, _ := r.resolveRef(ref)
		if !newH.IsZero() || !old.IsZero() {
			r.appendReflog("HEAD", old, newH, msg)
		}
	}
}

// deleteRef removes a ref and its log.
func (r *repo) deleteRef(name string) {
	if err := r.st.RemoveReference(plumbing.ReferenceName(name)); err != nil {
		r.g.fatal("cannot delete ref '%s': %s", name, builtins.ErrText(err))
	}
	r.fs.Remove(r.gitPath("logs/" + name))
	// Remove now-empty directories of the ref and its log.
	for _, base := range []string{"", "logs/"} {
		dir := name
		for {
			i := strings.LastIndexByte(dir, '/')
			if i < 0 {
				break
			}
			dir = dir[:i]
			if dir == "refs" || dir == "refs/heads" || dir == "refs/tags" || dir == "refs/remotes" {
				break
			}
			p := r.gitPath(base + dir)
			if entries, err := r.fs.ReadDir(p); err == nil && len(entries) == 0 {
				r.fs.Remove(p)
			} else {
				break
			}
		}
	}
}

// reflogEntry is one line of a ref's log.
type reflogEntry struct {
	old, new plumbing.Hash
	who      ident
	msg      string
}

// readReflog returns a ref's log, newest first.
func (r *repo) readReflog(name string) []reflogEntry {
	data, err := r.readGitFile("logs/" + name)
	if err != nil {
		return nil
	}
	var out []reflogEntry
	for _, line := range strings.Split(string(data), "\n") {
		if len(line) < 83 {
			continue
		}
		e := reflogEntry{old: plumbing.NewHash(line[:40]), new: plumbing.NewHash(line[41:81])}
		rest := line[82:]
		who, msg, _ := strings.Cut(rest, "\t")
		e.who = parseIdent(who)
		e.msg = msg
		out = append(out, e)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// writeReflog replaces a ref's log with entries (newest first).
func (r *repo) writeReflog(name string, entries []reflogEntry) {
	var b strings.Builder
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		fmt.Fprintf(&b, "%s %s %s", e.old, e.new, e.who)
		if e.msg != "" {
			b.WriteString("\t" + e.msg)
		}
		b.WriteString("\n")
	}
	r.writeGitFile("logs/"+name, []byte(b.String()))
}

// checkRefName validates a branch or tag name as git check-ref-format does.
func checkRefName(name string) bool {
	if name == "" || name == "@" || strings.HasPrefix(name, "-") || strings.HasSuffix(name, "/") ||
		strings.HasSuffix(name, ".") || strings.Contains(name, "..") || strings.Contains(name, "@{") ||
		strings.Contains(name, "//") || strings.HasSuffix(name, ".lock") || strings.HasPrefix(name, "/") {
		return false
	}
	for _, comp := range strings.Split(name, "/") {
		if comp == "" || strings.HasPrefix(comp, ".") || strings.HasSuffix(comp, ".lock") {
			return false
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' || c == '[' || c == '\\' {
			return false
		}
	}
	return true
}
