package git

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// commit is a parsed commit object.
type commit struct {
	hash      plumbing.Hash
	tree      plumbing.Hash
	parents   []plumbing.Hash
	author    ident
	committer ident
	extra     []string // other header lines, as stored
	encoding  string
	message   string
	boundary  bool // blame: shown with '^'
}

func parseCommit(h plumbing.Hash, data []byte) *commit {
	c := &commit{hash: h}
	s := string(data)
	hdr, msg, _ := strings.Cut(s, "\n\n")
	c.message = msg
	lines := strings.Split(hdr, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "tree":
			c.tree = plumbing.NewHash(val)
		case "parent":
			c.parents = append(c.parents, plumbing.NewHash(val))
		case "author":
			c.author = parseIdent(val)
		case "committer":
			c.committer = parseIdent(val)
		case "encoding":
			c.encoding = val
			c.extra = append(c.extra, line)
		default:
			// multi-line headers (gpgsig, mergetag) continue with a space
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") {
				i++
				line += "\n" + lines[i]
			}
			c.extra = append(c.extra, line)
		}
	}
	return c
}

// encodeCommit renders a commit object's content.
func encodeCommit(tree plumbing.Hash, parents []plumbing.Hash, author, committer ident, message string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", tree)
	for _, p := range parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	fmt.Fprintf(&b, "author %s\ncommitter %s\n\n%s", author, committer, message)
	return b.Bytes()
}

// subject is the first paragraph of a message joined into one line (%s).
func (c *commit) subject() string {
	return messageSubject(c.message)
}

func messageSubject(msg string) string {
	msg = strings.TrimLeft(msg, "\n")
	para, _, _ := strings.Cut(msg, "\n\n")
	lines := strings.Split(strings.TrimRight(para, "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " \t\r")
	}
	return strings.Join(lines, " ")
}

// body is the message after the subject paragraph (%b).
func (c *commit) body() string {
	msg := strings.TrimLeft(c.message, "\n")
	i := strings.Index(msg, "\n\n")
	if i < 0 {
		return ""
	}
	return strings.TrimLeft(msg[i+2:], "\n")
}

// getCommit reads a commit, dying when h is not one.
func (r *repo) getCommit(h plumbing.Hash) *commit {
	if r.commitCache == nil {
		r.commitCache = map[plumbing.Hash]*commit{}
	}
	if c, ok := r.commitCache[h]; ok {
		return c
	}
	t, data, err := r.readObject(h)
	if err != nil {
		r.g.fatal("bad object %s", h)
	}
	if t != plumbing.CommitObject {
		r.g.fatal("object %s is a %s, not a commit", h, t)
	}
	c := parseCommit(h, data)
	r.commitCache[h] = c
	return c
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

func (e treeEntry) isTree() bool { return e.mode == filemode.Dir }

func parseTree(data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("bad tree")
		}
		var mode uint32
		for _, c := range data[:sp] {
			mode = mode*8 + uint32(c-'0')
		}
		data = data[sp+1:]
		nul := bytes.IndexByte(data, 0)
		if nul < 0 || len(data) < nul+21 {
			return nil, fmt.Errorf("bad tree")
		}
		var h plumbing.Hash
		copy(h[:], data[nul+1:nul+21])
		out = append(out, treeEntry{name: string(data[:nul]), mode: filemode.FileMode(mode), hash: h})
		data = data[nul+21:]
	}
	return out, nil
}

// treeSortKey orders entries as git does: trees compare as if their name
// ended with '/'.
func treeSortKey(e treeEntry) string {
	if e.isTree() {
		return e.name + "/"
	}
	return e.name
}

func encodeTree(entries []treeEntry) []byte {
	sort.Slice(entries, func(i, j int) bool { return treeSortKey(entries[i]) < treeSortKey(entries[j]) })
	var b bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&b, "%o %s\x00", uint32(e.mode), e.name)
		b.Write(e.hash[:])
	}
	return b.Bytes()
}

// readTree reads a tree object's entries.
func (r *repo) readTree(h plumbing.Hash) []treeEntry {
	if r.treeCache == nil {
		r.treeCache = map[plumbing.Hash][]treeEntry{}
	}
	if t, ok := r.treeCache[h]; ok {
		return t
	}
	if h == emptyTree {
		return nil
	}
	t, data, err := r.readObject(h)
	if err != nil {
		r.g.fatal("unable to read tree %s", h)
	}
	if t == plumbing.CommitObject {
		return r.readTree(parseCommit(h, data).tree)
	}
	if t != plumbing.TreeObject {
		r.g.fatal("not a tree object: %s", h)
	}
	entries, err := parseTree(data)
	if err != nil {
		r.g.fatal("corrupt tree %s", h)
	}
	r.treeCache[h] = entries
	return entries
}

// fileEntry is a file of a flattened tree or of the index.
type fileEntry struct {
	path string
	mode filemode.FileMode
	hash plumbing.Hash
}

// flattenTree lists every non-tree entry under a tree, sorted by path (git's
// index order).
func (r *repo) flattenTree(h plumbing.Hash) []fileEntry {
	var out []fileEntry
	if h.IsZero() {
		return out
	}
	var walk func(h plumbing.Hash, prefix string)
	walk = func(h plumbing.Hash, prefix string) {
		for _, e := range r.readTree(h) {
			if e.isTree() {
				walk(e.hash, prefix+e.name+"/")
				continue
			}
			out = append(out, fileEntry{path: prefix + e.name, mode: e.mode, hash: e.hash})
		}
	}
	walk(h, "")
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// treeLookup finds path in a tree; ok is false when absent.
func (r *repo) treeLookup(root plumbing.Hash, p string) (treeEntry, bool) {
	if p == "" {
		return treeEntry{mode: filemode.Dir, hash: root}, true
	}
	cur := root
	parts := strings.Split(p, "/")
	for i, part := range parts {
		found := false
		for _, e := range r.readTree(cur) {
			if e.name == part {
				if i == len(parts)-1 {
					return e, true
				}
				if !e.isTree() {
					return treeEntry{}, false
				}
				cur = e.hash
				found = true
				break
			}
		}
		if !found {
			return treeEntry{}, false
		}
	}
	return treeEntry{}, false
}

// writeTreeFrom builds tree objects for sorted file entries and returns the
// root tree's name.
func (r *repo) writeTreeFrom(files []fileEntry) plumbing.Hash {
	type dir struct {
		entries []treeEntry
		subs    map[string]*dir
		order   []string
	}
	root := &dir{subs: map[string]*dir{}}
	for _, f := range files {
		d := root
		parts := strings.Split(f.path, "/")
		for _, p := range parts[:len(parts)-1] {
			sub, ok := d.subs[p]
			if !ok {
				sub = &dir{subs: map[string]*dir{}}
				d.subs[p] = sub
				d.order = append(d.order, p)
			}
			d = sub
		}
		d.entries = append(d.entries, treeEntry{name: parts[len(parts)-1], mode: f.mode, hash: f.hash})
	}
	// Trees that HEAD already has need no existence check: most of them
	// are unchanged.
	var base plumbing.Hash
	if hd := r.head(); !hd.unborn() {
		if c, ok := r.commitOf(hd.hash); ok {
			base = r.getCommit(c).tree
		}
	}
	var write func(d *dir, path string, baseHash plumbing.Hash) plumbing.Hash
	write = func(d *dir, path string, baseHash plumbing.Hash) plumbing.Hash {
		var baseEntries []treeEntry
		if !baseHash.IsZero() {
			baseEntries = r.readTree(baseHash)
		}
		entries := d.entries
		for _, name := range d.order {
			var sub plumbing.Hash
			for _, be := range baseEntries {
				if be.name == name && be.isTree() {
					sub = be.hash
					break
				}
			}
			entries = append(entries, treeEntry{name: name, mode: filemode.Dir, hash: write(d.subs[name], path+name+"/", sub)})
		}
		data := encodeTree(entries)
		h := plumbing.ComputeHash(plumbing.TreeObject, data)
		if h == baseHash {
			return h
		}
		return r.writeObject(plumbing.TreeObject, data)
	}
	return write(root, "", base)
}

// emptyTree is the name of the empty tree.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// tagObj is a parsed annotated tag.
type tagObj struct {
	object  plumbing.Hash
	typ     string
	tag     string
	tagger  ident
	message string
}

func parseTag(data []byte) *tagObj {
	t := &tagObj{}
	hdr, msg, _ := strings.Cut(string(data), "\n\n")
	t.message = msg
	for _, line := range strings.Split(hdr, "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "object":
			t.object = plumbing.NewHash(val)
		case "type":
			t.typ = val
		case "tag":
			t.tag = val
		case "tagger":
			t.tagger = parseIdent(val)
		}
	}
	return t
}

// peel follows tags to the object they name.
func (r *repo) peel(h plumbing.Hash) (plumbing.Hash, plumbing.ObjectType) {
	for i := 0; i < 10; i++ {
		t, data, err := r.readObject(h)
		if err != nil {
			return h, plumbing.InvalidObject
		}
		if t != plumbing.TagObject {
			return h, t
		}
		h = parseTag(data).object
	}
	return h, plumbing.InvalidObject
}

// objectType returns an object's type, or InvalidObject.
func (r *repo) objectType(h plumbing.Hash) plumbing.ObjectType {
	obj, err := r.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return plumbing.InvalidObject
	}
	return obj.Type()
}
