package git

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

func cmdRevParse(g *cmd, args []string) int {
	// rev-parse keeps the order of its arguments: handle them one by one.
	var w bytes.Buffer
	defer func() { g.out.Write(w.Bytes()) }()
	short := -1
	abbrevRef := false
	symFull := false
	verify := false
	quiet := false
	var r *repo
	getRepo := func() *repo {
		if r == nil {
			r = g.repo()
		}
		return r
	}
	for _, a := range args {
		switch {
		case a == "--verify":
			verify = true
		case a == "-q" || a == "--quiet":
			quiet = true
		}
	}
	if len(args) == 1 && args[0] == "-h" {
		g.shortHelp()
	}
	var revs []string
	seenDD := false
	for _, a := range args {
		if seenDD {
			fmt.Fprintln(&w, a)
			continue
		}
		switch {
		case a == "--":
			seenDD = true
			if !verify {
				fmt.Fprintln(&w, a)
			}
		case a == "--verify" || a == "-q" || a == "--quiet":
		case a == "--short":
			short = 0
		case strings.HasPrefix(a, "--short="):
			n, _ := atoi(a[8:])
			if n < 4 {
				n = 4
			}
			short = n
		case a == "--abbrev-ref" || strings.HasPrefix(a, "--abbrev-ref="):
			abbrevRef = true
		case a == "--symbolic-full-name":
			symFull = true
		case a == "--symbolic":
		case a == "--show-toplevel":
			r := getRepo()
			if r.work == "" {
				g.fatal("this operation must be run in a work tree")
			}
			fmt.Fprintln(&w, r.work)
		case a == "--git-dir":
			r := getRepo()
			if r.work != "" && path0(g.dir) == r.work && r.gitDir == r.work+"/.git" {
				fmt.Fprintln(&w, ".git")
			} else if path0(g.dir) == r.gitDir {
				fmt.Fprintln(&w, ".")
			} else {
				fmt.Fprintln(&w, r.gitDir)
			}
		case a == "--absolute-git-dir":
			fmt.Fprintln(&w, getRepo().gitDir)
		case a == "--git-common-dir":
			r := getRepo()
			if r.work != "" && path0(g.dir) == r.work {
				fmt.Fprintln(&w, ".git")
			} else {
				fmt.Fprintln(&w, r.gitDir)
			}
		case a == "--is-inside-work-tree":
			r := getRepo()
			fmt.Fprintln(&w, r.work != "")
		case a == "--is-inside-git-dir":
			r := getRepo()
			d := path0(g.dir)
			fmt.Fprintln(&w, d == r.gitDir || strings.HasPrefix(d, r.gitDir+"/"))
		case a == "--is-bare-repository":
			r := getRepo()
			fmt.Fprintln(&w, r.work == "")
		case a == "--is-shallow-repository":
			getRepo()
			fmt.Fprintln(&w, "false")
		case a == "--show-prefix":
			fmt.Fprintln(&w, getRepo().prefix)
		case a == "--show-cdup":
			r := getRepo()
			fmt.Fprintln(&w, strings.Repeat("../", strings.Count(r.prefix, "/")))
		case a == "--show-object-format" || strings.HasPrefix(a, "--show-object-format="):
			fmt.Fprintln(&w, "sha1")
		case a == "--local-env-vars":
			for _, v := range []string{"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR"} {
				fmt.Fprintln(&w, v)
			}
		case a == "--all" || a == "--branches" || a == "--tags":
			r := getRepo()
			prefix := "refs/"
			if a == "--branches" {
				prefix = "refs/heads/"
			} else if a == "--tags" {
				prefix = "refs/tags/"
			}
			for _, ref := range r.listRefs(prefix) {
				fmt.Fprintln(&w, ref.hash)
			}
		case strings.HasPrefix(a, "-") && a != "-":
			if verify {
				g.out.Write(w.Bytes())
				w.Reset()
				g.fatal("Needed a single revision")
			}
			fmt.Fprintln(&w, a)
		default:
			revs = append(revs, a)
			r := getRepo()
			if verify && len(revs) > 1 {
				if quiet {
					panic(exitCode(1))
				}
				g.fatal("Needed a single revision")
			}
			if left, right, sym, ok := splitRange(a); ok && !verify {
				lh, e1 := r.resolveRev(left)
				rh, e2 := r.resolveRev(right)
				if e1 == nil && e2 == nil {
					fmt.Fprintln(&w, rh)
					if sym {
						fmt.Fprintln(&w, lh)
						for _, b := range r.mergeBases(lh, rh) {
							fmt.Fprintf(&w, "^%s\n", b)
						}
					} else {
						fmt.Fprintf(&w, "^%s\n", lh)
					}
					continue
				}
			}
			spec := a
			neg := ""
			if strings.HasPrefix(spec, "^") && !verify {
				neg = "^"
				spec = spec[1:]
			}
			h, err := r.resolveRev(spec)
			if err != nil {
				if verify {
					if quiet {
						g.out.Write(w.Bytes())
						w.Reset()
						panic(exitCode(1))
					}
					g.out.Write(w.Bytes())
					w.Reset()
					g.fatal("Needed a single revision")
				}
				if r.pathExists(a) {
					fmt.Fprintln(&w, a)
					continue
				}
				fmt.Fprintln(&w, a)
				g.out.Write(w.Bytes())
				w.Reset()
				r.dieBadRev(a, err)
			}
			switch {
			case abbrevRef || symFull:
				full := ""
				if spec == "HEAD" || spec == "@" {
					hd := r.head()
					if hd.symbolic {
						full = hd.target
					} else {
						full = "HEAD"
					}
				} else if f, _, ok := r.dwimRef(strings.TrimSuffix(spec, "@{upstream}")); ok {
					full = f
				}
				if strings.HasSuffix(spec, "@{u}") || strings.HasSuffix(spec, "@{upstream}") {
					base := strings.TrimSuffix(strings.TrimSuffix(spec, "@{u}"), "@{upstream}")
					b := base
					if b == "" || b == "HEAD" {
						b = r.head().branch()
					}
					if ref, _, ok := r.upstream(b); ok {
						full = ref
					}
				}
				if full == "" {
					continue
				}
				if symFull {
					fmt.Fprintln(&w, neg+full)
					continue
				}
				name := full
				for _, pre := range []string{"refs/heads/", "refs/tags/", "refs/remotes/", "refs/"} {
					if strings.HasPrefix(name, pre) {
						name = name[len(pre):]
						break
					}
				}
				fmt.Fprintln(&w, neg+name)
			case short >= 0:
				fmt.Fprintln(&w, neg+r.abbrevN(h, short))
			default:
				fmt.Fprintln(&w, neg+h.String())
			}
		}
	}
	if verify && len(revs) == 0 {
		g.out.Write(w.Bytes())
		w.Reset()
		if quiet {
			panic(exitCode(1))
		}
		g.fatal("Needed a single revision")
	}
	return 0
}

func path0(p string) string {
	if len(p) > 1 {
		return strings.TrimSuffix(p, "/")
	}
	return p
}

var lsFilesSpecs = []optSpec{
	{short: 'c', long: "cached"},
	{short: 'd', long: "deleted"},
	{short: 'm', long: "modified"},
	{short: 'o', long: "others"},
	{short: 'i', long: "ignored"},
	{short: 's', long: "stage"},
	{short: 'u', long: "unmerged"},
	{short: 'k', long: "killed"},
	{short: 'z'},
	{short: 't'},
	{short: 'v'},
	{short: 'f'},
	{long: "directory"},
	{long: "no-empty-directory"},
	{long: "eol"},
	{long: "deduplicate"},
	{short: 'x', long: "exclude", arg: argRequired},
	{short: 'X', long: "exclude-from", arg: argRequired},
	{long: "exclude-per-directory", arg: argRequired},
	{long: "exclude-standard"},
	{long: "error-unmatch"},
	{long: "with-tree", arg: argRequired},
	{long: "full-name"},
	{long: "recurse-submodules"},
	{long: "abbrev", arg: argOptional},
	{long: "debug"},
	{long: "sparse"},
	{long: "format", arg: argRequired},
}

func cmdLsFiles(g *cmd, args []string) int {
	p := g.parse(args, lsFilesSpecs)
	r := g.worktreeRepo()
	ix := r.index()
	nul := p.flag("z")
	term := "\n"
	if nul {
		term = "\x00"
	}
	full := p.flag("full-name")
	name := func(s string) string {
		if !full {
			s = r.relPath(s)
		}
		if nul {
			return s
		}
		return r.quoteName(s)
	}
	var paths []string
	paths = append(paths, p.args...)
	ps := r.makePathspec(paths)
	if len(paths) == 0 && r.prefix != "" {
		ps = r.makePathspec([]string{"."})
	}
	seen := make([]bool, len(ps.items))
	cached := p.flag("cached")
	deleted := p.flag("deleted")
	modified := p.flag("modified")
	others := p.flag("others")
	ignored := p.flag("ignored")
	stage := p.flag("stage")
	tag := p.flag("t")
	if !cached && !deleted && !modified && !others && !ignored && !stage && !p.flag("unmerged") {
		cached = true
	}
	if stage {
		cached = true
	}
	abbrev := 0
	if v, ok := p.str("abbrev"); ok || p.given("abbrev") {
		abbrev = r.defaultAbbrev()
		if v != "" {
			abbrev, _ = atoi(v)
		}
	}
	var w bytes.Buffer
	tagOf := func(t string) string {
		if tag {
			return t + " "
		}
		return ""
	}
	if cached || deleted || modified {
		for _, e := range ix.entries() {
			if !ps.markMatches(e.Name, seen) {
				continue
			}
			if cached {
				if stage {
					h := e.Hash.String()
					if abbrev > 0 {
						h = r.abbrevN(e.Hash, abbrev)
					}
					fmt.Fprintf(&w, "%s%06o %s %d\t%s%s", tagOf("H"), uint32(e.Mode), h, e.Stage, name(e.Name), term)
				} else {
					fmt.Fprintf(&w, "%s%s%s", tagOf("H"), name(e.Name), term)
				}
			}
			if deleted || modified {
				st, _, _ := r.checkWork(e)
				if deleted && st == wtDeleted {
					fmt.Fprintf(&w, "%s%s%s", tagOf("R"), name(e.Name), term)
				}
				if modified && st != wtClean {
					fmt.Fprintf(&w, "%s%s%s", tagOf("C"), name(e.Name), term)
				}
			}
		}
	}
	if others || ignored {
		r.leadingDirWarning(ps)
		mode := untrackedAll
		if p.flag("directory") {
			mode = untrackedNormal
		}
		useStd := p.flag("exclude-standard")
		wo := walkOpts{mode: mode, ps: ps, showEmptyDirs: p.flag("directory") && !p.flag("no-empty-directory")}
		if ignored {
			wo.wantIgnored = true
			wo.ignoredAll = !p.flag("directory")
		}
		var res walkResult
		if !useStd && !ignored {
			res = r.walkWorktree(walkOpts{mode: mode, ps: ps, noIgnore: true, showEmptyDirs: wo.showEmptyDirs})
		} else {
			res = r.walkWorktree(wo)
		}
		var list []string
		if ignored {
			list = res.ignored
		} else {
			list = res.untracked
		}
		for _, f := range list {
			ps.markMatches(strings.TrimSuffix(f, "/"), seen)
			fmt.Fprintf(&w, "%s%s%s", tagOf("?"), name(f), term)
		}
	}
	if p.flag("error-unmatch") {
		for i, it := range ps.items {
			if !seen[i] && !it.exclude {
				g.out.Write(w.Bytes())
				g.errorf("pathspec '%s' did not match any file(s) known to git", it.orig)
				g.msg("Did you forget to 'git add'?")
				return 1
			}
		}
	}
	g.out.Write(w.Bytes())
	return 0
}

var tagSpecs = []optSpec{
	{short: 'l', long: "list"},
	{short: 'n', arg: argOptional},
	{short: 'd', long: "delete"},
	{short: 'v', long: "verify"},
	{short: 'a', long: "annotate"},
	{short: 'm', long: "message", arg: argRequired},
	{short: 'F', long: "file", arg: argRequired},
	{short: 'e', long: "edit"},
	{short: 's', long: "sign"},
	{short: 'u', long: "local-user", arg: argRequired},
	{short: 'f', long: "force"},
	{long: "cleanup", arg: argRequired},
	{long: "create-reflog"},
	{long: "contains", arg: argLastDefault},
	{long: "no-contains", arg: argLastDefault},
	{long: "merged", arg: argLastDefault},
	{long: "no-merged", arg: argLastDefault},
	{long: "points-at", arg: argLastDefault},
	{long: "sort", arg: argRequired},
	{long: "format", arg: argRequired},
	{long: "column", arg: argOptional},
	{short: 'i', long: "ignore-case"},
	{long: "color", arg: argOptional},
}

func cmdTag(g *cmd, args []string) int {
	p := g.parse(args, tagSpecs)
	r := g.repo()
	if p.flag("delete") {
		status := 0
		for _, name := range p.args {
			ref := "refs/tags/" + name
			h, ok := r.resolveRef(ref)
			if !ok {
				g.errorf("tag '%s' not found.", name)
				status = 1
				continue
			}
			r.deleteRef(ref)
			fmt.Fprintf(g.out, "Deleted tag '%s' (was %s)\n", name, r.abbrev(h))
		}
		return status
	}
	msgs := p.all("message")
	file, hasFile := p.str("file")
	annotate := p.flag("annotate") || len(msgs) > 0 || hasFile || p.flag("sign")
	list := p.flag("list") || len(p.args) == 0 || p.given("n") || p.given("contains") || p.given("points-at") || p.given("merged") || p.given("no-merged")
	if len(p.args) > 0 && !p.flag("list") && !annotate && (p.given("n") || p.given("contains") || p.given("points-at")) {
		list = true
	}
	if list && !annotate && (len(p.args) == 0 || p.flag("list") || p.given("n")) {
		return r.listTags(p)
	}
	if len(p.args) == 0 {
		return r.listTags(p)
	}
	if len(p.args) > 2 {
		g.fatal("too many arguments")
	}
	name := p.args[0]
	if !checkRefName(name) {
		g.fatal("'%s' is not a valid tag name.", name)
	}
	target := "HEAD"
	if len(p.args) == 2 {
		target = p.args[1]
	}
	h, err := r.resolveRev(target)
	if err != nil {
		g.fatal("Failed to resolve '%s' as a valid ref.", target)
	}
	ref := "refs/tags/" + name
	old, exists := r.resolveRef(ref)
	if exists && !p.flag("force") {
		g.fatal("tag '%s' already exists", name)
	}
	if annotate {
		var msg string
		switch {
		case len(msgs) > 0:
			msg = strings.Join(msgs, "\n\n")
		case hasFile:
			var data []byte
			var err error
			if file == "-" {
				data, err = g.c.ReadAll(g.ctx, g.c.Stdin)
			} else {
				data, err = readAll(g.c.FS, g.abs(file))
			}
			if err != nil {
				g.fatal("could not open or read '%s': %s", file, errText(err))
			}
			msg = string(data)
		default:
			g.msg("error: Terminal is dumb, but EDITOR unset")
			g.fatal("no tag message?")
		}
		cleanup := "strip"
		if v, ok := p.str("cleanup"); ok {
			cleanup = v
		}
		switch cleanup {
		case "verbatim":
		case "whitespace":
			msg = cleanupMessage(msg, false)
		default:
			msg = cleanupMessage(msg, true)
		}
		typ := r.objectType(h)
		tagger := r.identity("COMMITTER")
		var b bytes.Buffer
		fmt.Fprintf(&b, "object %s\ntype %s\ntag %s\ntagger %s\n", h, typ, name, tagger)
		if msg != "" {
			b.WriteString("\n" + msg)
		}
		h = r.writeObject(plumbing.TagObject, b.Bytes())
	}
	if err := r.st.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(ref), h)); err != nil {
		g.fatal("unable to write tag")
	}
	if exists && old != h {
		fmt.Fprintf(g.out, "Updated tag '%s' (was %s)\n", name, r.abbrev(old))
	}
	return 0
}

// listTags prints tags, optionally with annotation lines.
func (r *repo) listTags(p *parsedArgs) int {
	g := r.g
	refs := r.listRefs("refs/tags/")
	lines := -1
	if v, ok := p.str("n"); ok || p.given("n") {
		lines = 1
		if v != "" {
			lines, _ = atoi(v)
		}
	}
	if s, ok := p.str("sort"); ok {
		rev := strings.HasPrefix(s, "-")
		key := strings.TrimPrefix(s, "-")
		switch key {
		case "version:refname", "v:refname":
			sort.SliceStable(refs, func(i, j int) bool { return versionLess(refs[i].name, refs[j].name) })
		case "refname":
		case "creatordate", "taggerdate", "committerdate":
			date := func(h plumbing.Hash) int64 {
				t, data, err := r.readObject(h)
				if err != nil {
					return 0
				}
				if t == plumbing.TagObject {
					return parseTag(data).tagger.when
				}
				if c, ok := r.commitOf(h); ok {
					return r.getCommit(c).committer.when
				}
				return 0
			}
			sort.SliceStable(refs, func(i, j int) bool { return date(refs[i].hash) < date(refs[j].hash) })
		}
		if rev {
			for i, j := 0, len(refs)-1; i < j; i, j = i+1, j-1 {
				refs[i], refs[j] = refs[j], refs[i]
			}
		}
	}
	var containsC, noContainsC, pointsAt plumbing.Hash
	hasContains, hasNoContains, hasPoints := false, false, false
	if v, ok := p.str("no-contains"); ok || p.given("no-contains") {
		if v == "" {
			v = "HEAD"
		}
		noContainsC = r.commitOrDie(v)
		hasNoContains = true
	}
	if v, ok := p.str("contains"); ok || p.given("contains") {
		if v == "" {
			v = "HEAD"
		}
		containsC = r.commitOrDie(v)
		hasContains = true
	}
	if v, ok := p.str("points-at"); ok || p.given("points-at") {
		if v == "" {
			v = "HEAD"
		}
		h, err := r.resolveRev(v)
		if err != nil {
			g.fatal("malformed object name %s", v)
		}
		pointsAt = h
		hasPoints = true
	}
	var w bytes.Buffer
	for _, ref := range refs {
		name := strings.TrimPrefix(ref.name, "refs/tags/")
		if len(p.args) > 0 {
			ok := false
			for _, pat := range p.args {
				if wildmatch(pat, name, false) {
					ok = true
				}
			}
			if !ok {
				continue
			}
		}
		if hasContains {
			c, ok := r.commitOf(ref.hash)
			if !ok || !r.reachableFrom(c, containsC) {
				continue
			}
		}
		if hasNoContains {
			if c, ok := r.commitOf(ref.hash); ok && r.reachableFrom(c, noContainsC) {
				continue
			}
		}
		if hasPoints {
			peeled, _ := r.peel(ref.hash)
			if ref.hash != pointsAt && peeled != pointsAt {
				continue
			}
		}
		if f, ok := p.str("format"); ok {
			w.WriteString(r.formatRef(f, ref.name, ref.hash) + "\n")
			continue
		}
		if lines < 0 {
			w.WriteString(name + "\n")
			continue
		}
		fmt.Fprintf(&w, "%-15s ", name)
		if lines == 0 {
			w.WriteString("\n")
			continue
		}
		var msg string
		t, data, err := r.readObject(ref.hash)
		if err == nil && t == plumbing.TagObject {
			msg = parseTag(data).message
		} else if c, ok := r.commitOf(ref.hash); ok {
			msg = r.getCommit(c).message
		}
		msgLines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
		for i := 0; i < lines && i < len(msgLines); i++ {
			if i > 0 {
				w.WriteString("\n    ")
			}
			w.WriteString(msgLines[i])
		}
		w.WriteString("\n")
	}
	g.out.Write(w.Bytes())
	return 0
}

// versionLess compares names with embedded numbers numerically.
func versionLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigitByte(ca) && isDigitByte(cb) {
			si := i
			for i < len(a) && isDigitByte(a[i]) {
				i++
			}
			sj := j
			for j < len(b) && isDigitByte(b[j]) {
				j++
			}
			na := strings.TrimLeft(a[si:i], "0")
			nb := strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			continue
		}
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
	return len(a)-i < len(b)-j
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
