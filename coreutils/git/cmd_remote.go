package git

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"

	"github.com/bashbox/bashbox/builtins"
)

var remoteSpecs = []optSpec{
	{short: 'v', long: "verbose"},
}

var remoteAddSpecs = []optSpec{
	{short: 'f', long: "fetch"},
	{long: "tags"},
	{long: "no-tags"},
	{short: 't', long: "track", arg: argRequired},
	{short: 'm', long: "master", arg: argRequired},
	{long: "mirror", arg: argOptional},
}

func cmdRemote(g *cmd, args []string) int {
	verbose := false
	for len(args) > 0 && (args[0] == "-v" || args[0] == "--verbose") {
		verbose = true
		args = args[1:]
	}
	r := g.repo()
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		g.parse(args, remoteSpecs)
		var w bytes.Buffer
		for _, name := range r.remoteNames() {
			if !verbose {
				w.WriteString(name + "\n")
				continue
			}
			url, _ := r.cfg.get("remote." + name + ".url")
			push := url
			if pu, ok := r.cfg.get("remote." + name + ".pushurl"); ok {
				push = pu
			}
			fmt.Fprintf(&w, "%s\t%s (fetch)\n%s\t%s (push)\n", name, url, name, push)
		}
		g.out.Write(w.Bytes())
		return 0
	}
	sub := args[0]
	args = args[1:]
	cf := r.cfg.local
	exists := func(name string) bool {
		for _, n := range r.remoteNames() {
			if n == name {
				return true
			}
		}
		return false
	}
	switch sub {
	case "add":
		p := g.parse(args, remoteAddSpecs)
		if len(p.args) != 2 {
			g.subHelp(129, g.stderr)
			return 129
		}
		name, url := p.args[0], p.args[1]
		if exists(name) {
			g.msg("error: remote %s already exists.", name)
			return 3
		}
		if !checkRefName("refs/remotes/"+name) || strings.Contains(name, "/") && false {
			g.fatal("'%s' is not a valid remote name", name)
		}
		cf.add("remote."+name+".url", url)
		cf.add("remote."+name+".fetch", "+refs/heads/*:refs/remotes/"+name+"/*")
		r.writeGitFile("config", cf.bytes())
		if p.flag("fetch") {
			return r.fetchLocal(name)
		}
		return 0
	case "remove", "rm":
		if len(args) != 1 {
			g.subHelp(129, g.stderr)
			return 129
		}
		name := args[0]
		if !exists(name) {
			g.msg("error: No such remote: '%s'", name)
			return 2
		}
		cf.removeSection("remote." + name)
		// Branches tracking it lose their upstream.
		for _, e := range append([]cfgEntry{}, cf.entries...) {
			if e.section == "branch" && e.key == "remote" && e.value == name {
				idx := append(cf.find("branch."+e.sub+".remote"), cf.find("branch."+e.sub+".merge")...)
				cf.removeEntries(idx)
			}
		}
		r.writeGitFile("config", cf.bytes())
		for _, ref := range r.listRefs("refs/remotes/" + name + "/") {
			r.deleteRef(ref.name)
		}
		return 0
	case "rename":
		if len(args) != 2 {
			g.subHelp(129, g.stderr)
			return 129
		}
		old, nw := args[0], args[1]
		if !exists(old) {
			g.msg("error: No such remote: '%s'", old)
			return 2
		}
		if exists(nw) {
			g.msg("error: remote %s already exists.", nw)
			return 3
		}
		cf.renameSection("remote."+old, "remote."+nw)
		for i := range cf.entries {
			e := cf.entries[i]
			if e.section == "remote" && e.sub == nw && e.key == "fetch" {
				cf.replaceEntry(i, "remote."+nw+".fetch", strings.ReplaceAll(e.value, "refs/remotes/"+old+"/", "refs/remotes/"+nw+"/"))
			}
		}
		for i := range cf.entries {
			e := cf.entries[i]
			if e.section == "branch" && e.key == "remote" && e.value == old {
				cf.replaceEntry(i, "branch."+e.sub+".remote", nw)
			}
		}
		r.writeGitFile("config", cf.bytes())
		for _, ref := range r.listRefs("refs/remotes/" + old + "/") {
			newName := "refs/remotes/" + nw + "/" + strings.TrimPrefix(ref.name, "refs/remotes/"+old+"/")
			if ref.target != "" {
				target := "refs/remotes/" + nw + "/" + strings.TrimPrefix(ref.target, "refs/remotes/"+old+"/")
				r.st.SetReference(plumbing.NewSymbolicReference(plumbing.ReferenceName(newName), plumbing.ReferenceName(target)))
			} else {
				r.st.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(newName), ref.hash))
			}
			r.deleteRef(ref.name)
		}
		return 0
	case "get-url":
		if len(args) < 1 {
			g.subHelp(129, g.stderr)
			return 129
		}
		name := args[len(args)-1]
		if !exists(name) {
			g.msg("error: No such remote '%s'", name)
			return 2
		}
		url, _ := r.cfg.get("remote." + name + ".url")
		fmt.Fprintln(g.out, url)
		return 0
	case "set-url":
		var rest []string
		push := false
		for _, a := range args {
			if a == "--push" {
				push = true
				continue
			}
			if a == "--add" || a == "--delete" {
				g.fatal("set-url %s is not supported in the sandbox", a)
			}
			rest = append(rest, a)
		}
		if len(rest) < 2 {
			g.subHelp(129, g.stderr)
			return 129
		}
		name := rest[0]
		if !exists(name) {
			g.msg("error: No such remote '%s'", name)
			return 2
		}
		key := "remote." + name + ".url"
		if push {
			key = "remote." + name + ".pushurl"
		}
		cf.set(key, rest[1])
		r.writeGitFile("config", cf.bytes())
		return 0
	case "show":
		var names []string
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				names = append(names, a)
			}
		}
		if len(names) == 0 {
			for _, n := range r.remoteNames() {
				fmt.Fprintln(g.out, n)
			}
			return 0
		}
		for _, name := range names {
			if !exists(name) {
				g.fatal("'%s' does not appear to be a git repository", name)
			}
			url, _ := r.cfg.get("remote." + name + ".url")
			fmt.Fprintf(g.out, "* remote %s\n  Fetch URL: %s\n  Push  URL: %s\n", name, url, url)
			if t, err := r.st.Reference(plumbing.ReferenceName("refs/remotes/" + name + "/HEAD")); err == nil && t.Type() == plumbing.SymbolicReference {
				fmt.Fprintf(g.out, "  HEAD branch: %s\n", strings.TrimPrefix(t.Target().String(), "refs/remotes/"+name+"/"))
			}
		}
		return 0
	case "update", "prune", "set-head", "set-branches":
		g.fatal("'git remote %s' needs network access, which is not available in the sandbox", sub)
	}
	g.msg("error: Unknown subcommand: %s", sub)
	g.subHelp(129, g.stderr)
	return 129
}

// fetchLocal copies a local remote's objects and branches.
func (r *repo) fetchLocal(name string) int {
	url, _ := r.cfg.get("remote." + name + ".url")
	src, ok := r.g.openSourceRepo(url)
	if !ok {
		r.g.fatal("'%s' does not appear to be a git repository", url)
	}
	r.copyObjects(src)
	for _, ref := range src.listRefs("refs/heads/") {
		short := strings.TrimPrefix(ref.name, "refs/heads/")
		r.updateRef("refs/remotes/"+name+"/"+short, ref.hash, "fetch: storing head")
	}
	return 0
}

// isNetworkURL reports whether a repository address needs the network.
func isNetworkURL(s string) bool {
	if strings.HasPrefix(s, "file://") {
		return false
	}
	for _, pre := range []string{"http://", "https://", "git://", "ssh://", "git+ssh://", "ssh+git://", "ftp://", "ftps://", "rsync://"} {
		if strings.HasPrefix(s, pre) {
			return true
		}
	}
	// scp-like user@host:path
	if i := strings.IndexByte(s, ':'); i > 0 && !strings.Contains(s[:i], "/") {
		return true
	}
	return false
}

// openSourceRepo opens a repository given by path (or file:// URL).
func (g *cmd) openSourceRepo(src string) (*repo, bool) {
	p := strings.TrimPrefix(src, "file://")
	abs := path.Clean(g.abs(p))
	fsys := g.c.FS
	for _, cand := range []string{abs, abs + "/.git", abs + ".git"} {
		if isGitDir(fsys, cand) {
			work := ""
			if strings.HasSuffix(cand, "/.git") {
				work = strings.TrimSuffix(cand, "/.git")
			}
			return g.newRepo(work, cand), true
		}
		if data, ok := readGitFile(fsys, cand); ok && cand == abs+"/.git" {
			t := data
			if !path.IsAbs(t) {
				t = path.Join(abs, t)
			}
			if isGitDir(fsys, t) {
				return g.newRepo(abs, t), true
			}
		}
	}
	return nil, false
}

// copyObjects copies the objects of src: pack files as they are, and the
// loose objects into one new pack (far fewer files to create than one per
// object), or one by one when there are few of them.
func (r *repo) copyObjects(src *repo) {
	fsys := r.fs
	count := 0
	copyFile := func(from, to string, perm fs.FileMode) {
		count++
		if count&1023 == 0 {
			r.g.check()
		}
		data, err := readAll(fsys, from)
		if err != nil {
			return
		}
		if err := writeFile(fsys, to, data, perm); err != nil {
			r.g.fatal("cannot copy %s: %s", from, builtins.ErrText(err))
		}
	}
	srcObjects := src.gitPath("objects")
	dstObjects := r.gitPath("objects")
	fsys.MkdirAll(dstObjects+"/pack", 0o755)
	// Packs.
	if entries, err := fsys.ReadDir(srcObjects + "/pack"); err == nil {
		for _, e := range entries {
			n := e.Name()
			if !strings.HasSuffix(n, ".pack") && !strings.HasSuffix(n, ".idx") {
				continue
			}
			if _, err := fsys.Stat(dstObjects + "/pack/" + n); err == nil {
				continue
			}
			copyFile(srcObjects+"/pack/"+n, dstObjects+"/pack/"+n, 0o444)
		}
	}
	// Loose objects.
	var loose []plumbing.Hash
	dirs, _ := fsys.ReadDir(srcObjects)
	for _, d := range dirs {
		if !d.IsDir() || len(d.Name()) != 2 || !isHex(d.Name()) {
			continue
		}
		files, _ := fsys.ReadDir(srcObjects + "/" + d.Name())
		for _, f := range files {
			name := d.Name() + f.Name()
			if len(name) == 40 && isHex(name) {
				loose = append(loose, plumbing.NewHash(name))
			}
		}
	}
	var missing []plumbing.Hash
	for _, h := range loose {
		if !r.hasObject(h) {
			missing = append(missing, h)
		}
	}
	if len(missing) > 64 && r.packLoose(src, missing) {
		r.st.Reindex()
	} else {
		for _, h := range missing {
			hex := h.String()
			fsys.MkdirAll(dstObjects+"/"+hex[:2], 0o755)
			copyFile(srcObjects+"/"+hex[:2]+"/"+hex[2:], dstObjects+"/"+hex[:2]+"/"+hex[2:], 0o444)
		}
	}
	// Objects the source borrows from alternates are needed too.
	if data, err := src.readGitFile("objects/info/alternates"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !path.IsAbs(line) {
				line = path.Join(srcObjects, line)
			}
			if isGitDir(r.fs, path.Dir(line)) {
				r.copyObjects(r.g.newRepo("", path.Dir(line)))
			}
		}
	}
	r.st.Reindex()
}

// packLoose writes the given objects of src into one pack of r.
func (r *repo) packLoose(src *repo, hashes []plumbing.Hash) bool {
	w, err := r.st.PackfileWriter()
	if err != nil {
		return false
	}
	enc := packfile.NewEncoder(w, src.st, false)
	if _, err := enc.Encode(hashes, 0); err != nil {
		w.Close()
		return false
	}
	return w.Close() == nil
}

var cloneSpecs = []optSpec{
	{short: 'q', long: "quiet"},
	{short: 'v', long: "verbose"},
	{long: "progress"},
	{short: 'n', long: "no-checkout"},
	{long: "bare"},
	{long: "mirror"},
	{short: 'l', long: "local"},
	{long: "no-hardlinks"},
	{short: 's', long: "shared"},
	{long: "recurse-submodules", arg: argOptional},
	{long: "recursive", arg: argOptional},
	{short: 'j', long: "jobs", arg: argRequired},
	{long: "template", arg: argRequired},
	{long: "reference", arg: argRequired},
	{long: "dissociate"},
	{short: 'o', long: "origin", arg: argRequired},
	{short: 'b', long: "branch", arg: argRequired},
	{long: "depth", arg: argRequired},
	{long: "shallow-since", arg: argRequired},
	{long: "shallow-exclude", arg: argRequired},
	{long: "single-branch"},
	{long: "no-tags"},
	{long: "shallow-submodules"},
	{long: "separate-git-dir", arg: argRequired},
	{short: 'c', long: "config", arg: argRequired},
	{long: "filter", arg: argRequired},
	{long: "sparse"},
	{long: "also-filter-submodules"},
	{long: "remote-submodules"},
	{long: "reject-shallow"},
	{long: "bundle-uri", arg: argRequired},
	{short: 'u', long: "upload-pack", arg: argRequired},
}

func cmdClone(g *cmd, args []string) int {
	p := g.parse(args, cloneSpecs)
	if len(p.args) == 0 {
		g.msg("fatal: You must specify a repository to clone.")
		g.subHelp(129, g.stderr)
		return 129
	}
	if len(p.args) > 2 {
		g.msg("fatal: Too many arguments.")
		g.subHelp(129, g.stderr)
		return 129
	}
	srcArg := p.args[0]
	if isNetworkURL(srcArg) {
		g.fatal("network access is not available in the sandbox (%s)", srcArg)
	}
	if _, ok := p.str("upload-pack"); ok {
		g.fatal("--upload-pack is not allowed in the sandbox")
	}
	if _, ok := p.str("separate-git-dir"); ok {
		g.fatal("--separate-git-dir is not supported in the sandbox")
	}
	quiet := p.flag("quiet")
	bare := p.flag("bare") || p.flag("mirror")
	src, ok := g.openSourceRepo(srcArg)
	if !ok {
		g.fatal("repository '%s' does not exist", srcArg)
	}
	dstArg := ""
	if len(p.args) == 2 {
		dstArg = p.args[1]
	} else {
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(srcArg, "file://"), "/"), "/.git")
		base = path.Base(base)
		if bare {
			if !strings.HasSuffix(base, ".git") {
				base += ".git"
			}
		} else {
			base = strings.TrimSuffix(base, ".git")
		}
		dstArg = base
	}
	dst := path.Clean(g.abs(dstArg))
	if entries, err := g.c.FS.ReadDir(dst); err == nil && len(entries) > 0 {
		g.fatal("destination path '%s' already exists and is not an empty directory.", dstArg)
	} else if err == nil || !builtins.IsNotExist(err) {
		if fi, err2 := g.c.FS.Stat(dst); err2 == nil && !fi.IsDir() {
			g.fatal("destination path '%s' already exists and is not an empty directory.", dstArg)
		}
	}
	if !quiet {
		g.out.Flush()
		if bare {
			fmt.Fprintf(g.stderr, "Cloning into bare repository '%s'...\n", dstArg)
		} else {
			fmt.Fprintf(g.stderr, "Cloning into '%s'...\n", dstArg)
		}
	}
	g.initRepo(dst, bare, "master", true, true)
	gitDir := path.Join(dst, ".git")
	work := dst
	if bare {
		gitDir, work = dst, ""
	}
	r := g.newRepo(work, gitDir)
	remote := "origin"
	if v, ok := p.str("origin"); ok {
		remote = v
	}
	srcURL := path.Clean(g.abs(strings.TrimPrefix(srcArg, "file://")))
	if src.work != "" && src.gitDir == src.work+"/.git" && !strings.HasSuffix(srcURL, "/.git") {
		srcURL = src.work
	} else {
		srcURL = src.gitDir
		if src.work != "" && srcURL == src.work+"/.git" {
			srcURL = src.work + "/.git"
		}
	}
	cf := r.cfg.local
	for _, kv := range p.all("config") {
		k, v, _ := strings.Cut(kv, "=")
		cf.add(k, v)
	}
	if bare {
		cf.add("remote."+remote+".url", srcURL)
		if p.flag("mirror") {
			cf.add("remote."+remote+".fetch", "+refs/*:refs/*")
			cf.add("remote."+remote+".mirror", "true")
		}
	} else {
		cf.add("remote."+remote+".url", srcURL)
		cf.add("remote."+remote+".fetch", "+refs/heads/*:refs/remotes/"+remote+"/*")
	}
	r.copyObjects(src)
	srcHead := src.head()
	branches := src.listRefs("refs/heads/")
	tags := src.listRefs("refs/tags/")
	// The branch to check out.
	checkout := ""
	if b, ok := p.str("branch"); ok {
		if _, ok := src.resolveRef("refs/heads/" + b); ok {
			checkout = "refs/heads/" + b
		} else if _, ok := src.resolveRef("refs/tags/" + b); ok {
			checkout = "refs/tags/" + b
		} else {
			g.fatal("Remote branch %s not found in upstream %s", b, remote)
		}
	} else if srcHead.symbolic && !srcHead.unborn() {
		checkout = srcHead.target
	} else if !srcHead.symbolic && !srcHead.unborn() {
		for _, b := range branches {
			if b.hash == srcHead.hash {
				checkout = b.name
				break
			}
		}
	}
	// Refs, in packed-refs as git writes them.
	var packed bytes.Buffer
	packed.WriteString("# pack-refs with: peeled fully-peeled sorted \n")
	type pref struct {
		name string
		hash plumbing.Hash
	}
	var prefs []pref
	if bare {
		for _, b := range branches {
			prefs = append(prefs, pref{b.name, b.hash})
		}
	} else {
		for _, b := range branches {
			if p.flag("single-branch") && b.name != checkout {
				continue
			}
			prefs = append(prefs, pref{"refs/remotes/" + remote + "/" + strings.TrimPrefix(b.name, "refs/heads/"), b.hash})
		}
	}
	if !p.flag("no-tags") {
		for _, t := range tags {
			prefs = append(prefs, pref{t.name, t.hash})
		}
	}
	sort.Slice(prefs, func(i, j int) bool { return prefs[i].name < prefs[j].name })
	for _, pr := range prefs {
		fmt.Fprintf(&packed, "%s %s\n", pr.hash, pr.name)
		if r.objectType(pr.hash) == plumbing.TagObject {
			ph, _ := r.peel(pr.hash)
			fmt.Fprintf(&packed, "^%s\n", ph)
		}
	}
	if len(prefs) > 0 {
		r.writeGitFile("packed-refs", packed.Bytes())
	}
	who := "clone: from " + srcURL
	if checkout == "" {
		if srcHead.symbolic {
			r.writeGitFile("HEAD", []byte("ref: "+srcHead.target+"\n"))
		}
		r.writeGitFile("config", cf.bytes())
		if !quiet {
			g.msg("warning: You appear to have cloned an empty repository.")
		}
		if !quiet {
			g.msg("done.")
		}
		return 0
	}
	target, _ := src.resolveRef(checkout)
	if commitH, ok := r.commitOf(target); ok {
		target = commitH
	}
	if !bare {
		if strings.HasPrefix(checkout, "refs/heads/") {
			short := strings.TrimPrefix(checkout, "refs/heads/")
			headRef := "refs/remotes/" + remote + "/HEAD"
			remoteHead := short
			if srcHead.symbolic && !srcHead.unborn() {
				remoteHead = strings.TrimPrefix(srcHead.target, "refs/heads/")
			}
			r.st.SetReference(plumbing.NewSymbolicReference(plumbing.ReferenceName(headRef), plumbing.ReferenceName("refs/remotes/"+remote+"/"+remoteHead)))
			rh, _ := src.resolveRef("refs/heads/" + remoteHead)
			r.appendReflog(headRef, plumbing.ZeroHash, rh, who)
			r.writeGitFile("HEAD", []byte("ref: "+checkout+"\n"))
			r.updateRef(checkout, target, who)
			cf.add("branch."+short+".remote", remote)
			cf.add("branch."+short+".merge", checkout)
		} else {
			r.writeGitFile("HEAD", []byte(target.String()+"\n"))
			r.appendReflog("HEAD", plumbing.ZeroHash, target, who)
		}
	} else {
		if strings.HasPrefix(checkout, "refs/heads/") {
			r.writeGitFile("HEAD", []byte("ref: "+checkout+"\n"))
		}
	}
	r.writeGitFile("config", cf.bytes())
	r.cfg = g.loadConfig(r)
	if !bare && !p.flag("no-checkout") {
		tree := r.getCommit(target).tree
		files := r.flattenTree(tree)
		for i, f := range files {
			if i&1023 == 1023 {
				g.check()
			}
			r.checkoutEntry(f)
		}
		r.writeIndex()
	}
	if !quiet {
		g.msg("done.")
	}
	return 0
}
