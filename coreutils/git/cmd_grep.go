package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/bashbox/bashbox/coreutils/internal/posixre"
)

var grepSpecs = []optSpec{
	{short: 'e', arg: argRequired},
	{short: 'f', arg: argRequired},
	{short: 'i', long: "ignore-case"},
	{short: 'I'},
	{short: 'w', long: "word-regexp"},
	{short: 'v', long: "invert-match"},
	{short: 'h'},
	{short: 'H'},
	{long: "full-name"},
	{short: 'E', long: "extended-regexp"},
	{short: 'G', long: "basic-regexp"},
	{short: 'F', long: "fixed-strings"},
	{short: 'P', long: "perl-regexp"},
	{short: 'n', long: "line-number"},
	{long: "column"},
	{short: 'l', long: "files-with-matches"},
	{long: "name-only"},
	{short: 'L', long: "files-without-match"},
	{short: 'z', long: "null"},
	{short: 'o', long: "only-matching"},
	{short: 'c', long: "count"},
	{short: 'q', long: "quiet"},
	{short: 'x', long: "line-regexp"},
	{short: 'A', long: "after-context", arg: argRequired},
	{short: 'B', long: "before-context", arg: argRequired},
	{short: 'C', long: "context", arg: argRequired},
	{long: "cached"},
	{long: "untracked"},
	{long: "no-index"},
	{long: "exclude-standard"},
	{long: "recurse-submodules"},
	{short: 'a', long: "text"},
	{long: "textconv"},
	{long: "max-depth", arg: argRequired},
	{short: 'r', long: "recursive"},
	{long: "and"},
	{long: "or"},
	{long: "not"},
	{long: "all-match"},
	{long: "color", arg: argOptional},
	{long: "no-color"},
	{long: "break"},
	{long: "heading"},
	{short: 'p', long: "show-function"},
	{short: 'W', long: "function-context"},
	{short: 'm', long: "max-count", arg: argRequired},
	{long: "threads", arg: argRequired},
}

// grepFile is one file to search.
type grepFile struct {
	path string // repository path
	name string // as shown
	data []byte
}

func cmdGrep(g *cmd, args []string) int {
	// Numbers like -3 mean -C 3.
	var cleaned []string
	for i, a := range args {
		if a == "--" {
			cleaned = append(cleaned, args[i:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && isDigits(a[1:]) {
			cleaned = append(cleaned, "-C", a[1:])
			continue
		}
		cleaned = append(cleaned, a)
	}
	p := g.parse(cleaned, grepSpecs)
	for _, k := range []string{"and", "or", "not", "all-match", "show-function", "function-context"} {
		if p.flag(k) {
			g.fatal("--%s is not supported in the sandbox", k)
		}
	}
	r := g.worktreeRepo()
	patterns := p.all("e")
	for _, f := range p.all("f") {
		data, err := readAll(g.c.FS, g.abs(f))
		if err != nil {
			g.fatal("cannot open '%s': %s", f, errText(err))
		}
		patterns = append(patterns, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	before, after, hasDD := p.split()
	if len(patterns) == 0 {
		if len(before) == 0 {
			g.fatal("no pattern given")
		}
		patterns = []string{before[0]}
		before = before[1:]
	}
	syn := posixre.BRE
	switch {
	case p.flag("extended-regexp"):
		syn = posixre.ERE
	case p.flag("fixed-strings"):
		syn = posixre.Fixed
	case p.flag("perl-regexp"):
		syn = posixre.PCRE
	}
	if v, ok := r.cfg.get("grep.extendedregexp"); ok && parseBool(v) == 1 && !p.given("basic-regexp") && syn == posixre.BRE {
		syn = posixre.ERE
	}
	re, err := posixre.CompileList(patterns, syn, posixre.Flags{IgnoreCase: p.flag("ignore-case")},
		posixre.ListOptions{Word: p.flag("word-regexp"), Line: p.flag("line-regexp")})
	if err != nil {
		g.fatal("command line, '%s': %s", strings.Join(patterns, "\n"), err.Error())
	}
	// Trees to search, then paths.
	var trees []string
	var paths []string
	for i, a := range before {
		if hasDD || !r.pathExists(a) {
			if h, err := r.resolveRev(a); err == nil {
				if _, ok := r.toTree(h); ok {
					trees = append(trees, a)
					continue
				}
			}
		}
		if hasDD {
			r.dieBadRev(a, &revError{})
		}
		for _, q := range before[i:] {
			if !r.pathExists(q) {
				r.dieBadRev(q, &revError{})
			}
		}
		paths = append(paths, before[i:]...)
		break
	}
	paths = append(paths, after...)
	var ps *pathspec
	if len(paths) == 0 && r.prefix != "" {
		ps = r.makePathspec([]string{"."})
	} else {
		ps = r.makePathspec(paths)
	}
	full := p.flag("full-name")
	show := func(prefix, path string) string {
		if full || prefix != "" {
			return prefix + path
		}
		return r.relPath(path)
	}
	var files []grepFile
	switch {
	case len(trees) > 0:
		for _, t := range trees {
			h, _ := r.resolveRev(t)
			tree, _ := r.toTree(h)
			sep := ":"
			if strings.Contains(t, ":") {
				sep = "/"
			}
			for _, f := range r.flattenTree(tree) {
				if !ps.match(f.path) || f.mode == filemode.Submodule {
					continue
				}
				files = append(files, grepFile{path: f.path, name: show(t+sep, f.path), data: r.blob(f.hash)})
			}
		}
	default:
		cached := p.flag("cached")
		for i, e := range r.index().entries() {
			if i&1023 == 1023 {
				g.check()
			}
			if !ps.match(e.Name) || e.Mode == filemode.Submodule {
				continue
			}
			var data []byte
			if cached {
				data = r.blob(e.Hash)
			} else {
				fi, err := r.lstat(e.Name)
				if err != nil {
					continue
				}
				data, err = r.readWork(e.Name, fi)
				if err != nil {
					continue
				}
			}
			files = append(files, grepFile{path: e.Name, name: show("", e.Name), data: data})
		}
		if p.flag("untracked") && !cached {
			for _, f := range r.walkWorktree(walkOpts{mode: untrackedAll, ps: ps, noIgnore: !p.flag("exclude-standard") && false}).untracked {
				fi, err := r.lstat(f)
				if err != nil {
					continue
				}
				data, _ := r.readWork(f, fi)
				files = append(files, grepFile{path: f, name: show("", f), data: data})
			}
			sortGrepFiles(files)
		}
	}
	o := grepOpts{
		re: re, invert: p.flag("invert-match"), lineNo: p.flag("line-number"), count: p.flag("count"),
		filesWith: p.flag("files-with-matches") || p.flag("name-only"), filesWithout: p.flag("files-without-match"),
		quiet: p.flag("quiet"), only: p.flag("only-matching"), noName: p.flag("h") && !p.flag("H"),
		text: p.flag("text"), noBinary: p.flag("I"), null: p.flag("null"), column: p.flag("column"),
		maxCount: -1,
	}
	if v, ok := p.str("max-count"); ok {
		o.maxCount, _ = strconv.Atoi(v)
	}
	if v, ok := p.str("context"); ok {
		o.before, _ = strconv.Atoi(v)
		o.after = o.before
	}
	if v, ok := p.str("after-context"); ok {
		o.after, _ = strconv.Atoi(v)
	}
	if v, ok := p.str("before-context"); ok {
		o.before, _ = strconv.Atoi(v)
	}
	var w bytes.Buffer
	found := false
	printedGroup := false
	for i, f := range files {
		if i&255 == 255 {
			g.check()
		}
		if grepOne(&w, f, &o, &printedGroup) {
			found = true
			if o.quiet {
				break
			}
		}
		if w.Len() > 64<<10 {
			g.flushPart(&w)
		}
	}
	g.out.Write(w.Bytes())
	if found {
		return 0
	}
	return 1
}

func sortGrepFiles(fs []grepFile) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].path < fs[j-1].path; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}

type grepOpts struct {
	re                      *posixre.Regexp
	invert, lineNo, count   bool
	filesWith, filesWithout bool
	quiet, only, noName     bool
	text, noBinary, null    bool
	column                  bool
	before, after, maxCount int
}

// grepOne searches one file; it reports whether anything matched.
func grepOne(w *bytes.Buffer, f grepFile, o *grepOpts, printedGroup *bool) bool {
	data := f.data
	binary := !o.text && isBinary(data)
	if binary && o.noBinary {
		return false
	}
	lines := splitLines(data)
	sepName := ":"
	if o.null {
		sepName = "\x00"
	}
	var hits []int
	for i, l := range lines {
		body := bytes.TrimSuffix(l, []byte{'\n'})
		if o.re.Match(body) != o.invert {
			hits = append(hits, i)
			if o.maxCount >= 0 && len(hits) >= o.maxCount {
				break
			}
		}
	}
	if o.filesWithout {
		if len(hits) == 0 {
			w.WriteString(f.name)
			if o.null {
				w.WriteByte(0)
			} else {
				w.WriteByte('\n')
			}
		}
		return len(hits) == 0
	}
	if len(hits) == 0 {
		return false
	}
	if o.quiet {
		return true
	}
	if o.filesWith {
		w.WriteString(f.name)
		if o.null {
			w.WriteByte(0)
		} else {
			w.WriteByte('\n')
		}
		return true
	}
	if o.count {
		if !o.noName {
			w.WriteString(f.name + sepName)
		}
		fmt.Fprintf(w, "%d\n", len(hits))
		return true
	}
	if binary {
		fmt.Fprintf(w, "Binary file %s matches\n", f.name)
		return true
	}
	prefix := func(i int, sep string) {
		if !o.noName {
			w.WriteString(f.name)
			if o.null {
				w.WriteByte(0)
			} else {
				w.WriteString(sep)
			}
		}
		if o.lineNo {
			w.WriteString(strconv.Itoa(i + 1))
			w.WriteString(sep)
		}
	}
	writeLine := func(l []byte) {
		w.Write(l)
		if len(l) == 0 || l[len(l)-1] != '\n' {
			w.WriteByte('\n')
		}
	}
	if o.before == 0 && o.after == 0 {
		for _, i := range hits {
			body := bytes.TrimSuffix(lines[i], []byte{'\n'})
			if o.only && !o.invert {
				for _, m := range o.re.FindAllIndex(body, -1) {
					if m[1] == m[0] {
						continue
					}
					prefix(i, ":")
					if o.column {
						fmt.Fprintf(w, "%d:", m[0]+1)
					}
					w.Write(body[m[0]:m[1]])
					w.WriteByte('\n')
				}
				continue
			}
			prefix(i, ":")
			if o.column {
				col := 1
				if m := o.re.FindIndex(body); m != nil && !o.invert {
					col = m[0] + 1
				}
				fmt.Fprintf(w, "%d:", col)
			}
			writeLine(lines[i])
		}
		return true
	}
	// With context: groups separated by "--", also between files.
	mark := make([]byte, len(lines))
	for _, i := range hits {
		mark[i] = 2
		for k := max(i-o.before, 0); k <= min(i+o.after, len(lines)-1); k++ {
			if mark[k] == 0 {
				mark[k] = 1
			}
		}
	}
	prev := -1
	for k := range lines {
		if mark[k] == 0 {
			continue
		}
		if (prev >= 0 && k > prev+1) || (prev < 0 && *printedGroup) {
			w.WriteString("--\n")
		}
		if mark[k] == 2 {
			prefix(k, ":")
		} else {
			prefix(k, "-")
		}
		writeLine(lines[k])
		prev = k
	}
	*printedGroup = true
	return true
}
