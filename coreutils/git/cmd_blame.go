package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

var blameSpecs = []optSpec{
	{short: 'l'},
	{short: 't'},
	{short: 's'},
	{short: 'e', long: "show-email"},
	{short: 'n', long: "show-number"},
	{short: 'f', long: "show-name"},
	{short: 'p', long: "porcelain"},
	{long: "line-porcelain"},
	{short: 'L', arg: argRequired},
	{short: 'b'},
	{long: "root"},
	{long: "show-stats"},
	{long: "score-debug"},
	{short: 'c'},
	{long: "incremental"},
	{long: "first-parent"},
	{short: 'w'},
	{short: 'M', arg: argOptional},
	{short: 'C', arg: argOptional},
	{long: "abbrev", arg: argOptional},
	{long: "date", arg: argRequired},
	{long: "reverse"},
	{long: "progress"},
	{long: "minimal"},
	{long: "contents", arg: argRequired},
	{short: 'S', arg: argRequired},
	{long: "ignore-rev", arg: argRequired},
	{long: "ignore-revs-file", arg: argRequired},
	{long: "color-lines"},
	{long: "color-by-age"},
	{long: "encoding", arg: argRequired},
}

// blameOrigin is a file version in one commit.
type blameOrigin struct {
	commit   *commit
	path     string
	blob     plumbing.Hash
	data     []byte
	lines    [][]byte
	previous *blameOrigin // set when blame passed through this commit to a parent
	fake     bool         // uncommitted work tree
}

// blameEntry is a run of final lines blamed on one origin.
type blameEntry struct {
	lno     int // first final line (0-based)
	num     int
	suspect *blameOrigin
	slno    int // first line in the suspect's version
	final   bool
}

func cmdBlame(g *cmd, args []string) int {
	p := g.parse(args, blameSpecs)
	r := g.repo()
	if p.flag("reverse") || p.flag("incremental") {
		g.fatal("this blame mode is not supported in the sandbox")
	}
	before, after, _ := p.split()
	var rev, file string
	switch {
	case len(after) == 1 && len(before) <= 1:
		file = after[0]
		if len(before) == 1 {
			rev = before[0]
		}
	case len(after) == 0 && len(before) == 1:
		file = before[0]
	case len(after) == 0 && len(before) == 2:
		rev, file = before[0], before[1]
	default:
		g.subHelp(129, g.stderr)
		return 129
	}
	path := r.resolveRelPath(file)
	r.blamePath = path
	var top *commit
	var topOrigin *blameOrigin
	if rev == "" {
		hd := r.head()
		if hd.unborn() {
			g.fatal("no such ref: HEAD")
		}
		top = r.getCommit(hd.hash)
	} else {
		top = r.getCommit(r.commitOrDie(rev))
	}
	e, ok := r.treeLookup(top.tree, path)
	if rev == "" && r.work != "" {
		// Blame the work tree version when it differs.
		fi, err := r.lstat(path)
		if err != nil {
			if !ok {
				g.fatal("no such path '%s' in HEAD", path)
			}
			g.fatal("Cannot lstat '%s': No such file or directory", file)
		}
		data, err := r.readWork(path, fi)
		if err == nil && (!ok || hashBlob(data) != e.hash) {
			now := time.Now().In(g.location())
			_, off := now.Zone()
			fake := &commit{hash: plumbing.ZeroHash, tree: plumbing.ZeroHash, parents: []plumbing.Hash{top.hash},
				author:    ident{name: "Not Committed Yet", email: "not.committed.yet", when: now.Unix(), tz: formatTZ(off)},
				committer: ident{name: "Not Committed Yet", email: "not.committed.yet", when: now.Unix(), tz: formatTZ(off)},
				message:   "Version of " + path + " from " + path + "\n"}
			topOrigin = &blameOrigin{commit: fake, path: path, data: data, fake: true}
		}
	}
	if topOrigin == nil {
		if !ok || e.isTree() {
			name := "HEAD"
			if rev != "" {
				name = rev
			}
			g.fatal("no such path '%s' in %s", path, name)
		}
		topOrigin = &blameOrigin{commit: top, path: path, blob: e.hash}
	}
	r.blameLoad(topOrigin)
	final := topOrigin.lines
	entries := []*blameEntry{{lno: 0, num: len(final), suspect: topOrigin, slno: 0}}
	if len(final) == 0 {
		entries = nil
	}
	entries = r.assignBlame(entries, topOrigin, p.flag("first-parent"), p.flag("root"))
	// Line range.
	from, to := 1, len(final)
	if l, ok := p.str("L"); ok {
		a, b, _ := strings.Cut(l, ",")
		if n, err := strconv.Atoi(a); err == nil {
			from = n
		}
		if b != "" {
			if strings.HasPrefix(b, "+") {
				n, _ := strconv.Atoi(b[1:])
				to = from + n - 1
			} else if n, err := strconv.Atoi(b); err == nil {
				to = n
			}
		}
		if from < 1 || from > len(final) {
			g.fatal("file %s has only %d lines", path, len(final))
		}
		if to > len(final) {
			to = len(final)
		}
	}
	// Order entries by final line.
	for i := 1; i < len(entries); i++ {
		for j := i; j > 0 && entries[j].lno < entries[j-1].lno; j-- {
			entries[j], entries[j-1] = entries[j-1], entries[j]
		}
	}
	var w bytes.Buffer
	if p.flag("porcelain") || p.flag("line-porcelain") {
		r.blamePorcelain(&w, entries, final, from, to, p.flag("line-porcelain"))
	} else {
		r.blameDefault(&w, entries, final, from, to, p, g)
	}
	g.out.Write(w.Bytes())
	return 0
}

func (r *repo) blameLoad(o *blameOrigin) {
	if o.lines != nil || o.data != nil && o.fake && o.lines != nil {
		return
	}
	if o.data == nil && !o.fake {
		o.data = r.blob(o.blob)
	}
	o.lines = splitLines(o.data)
	if o.lines == nil {
		o.lines = [][]byte{}
	}
}

// assignBlame passes blame from the top origin down the history.
func (r *repo) assignBlame(entries []*blameEntry, top *blameOrigin, firstParent, showRoot bool) []*blameEntry {
	queue := []*blameOrigin{top}
	queued := map[*blameOrigin]bool{top: true}
	origins := map[string]*blameOrigin{} // commit+path -> origin
	key := func(h plumbing.Hash, p string) string { return h.String() + ":" + p }
	n := 0
	for len(queue) > 0 {
		n++
		if n&255 == 0 {
			r.g.check()
		}
		// Newest commit first; first queued among equal dates.
		best := 0
		for i, o := range queue {
			if o.commit.committer.when > queue[best].commit.committer.when {
				best = i
			}
		}
		o := queue[best]
		queue = append(queue[:best], queue[best+1:]...)
		var mine []*blameEntry
		for _, e := range entries {
			if e.suspect == o && !e.final {
				mine = append(mine, e)
			}
		}
		if len(mine) == 0 {
			continue
		}
		parents := o.commit.parents
		if firstParent && len(parents) > 1 {
			parents = parents[:1]
		}
		if len(parents) == 0 {
			for _, e := range mine {
				e.final = true
			}
			continue
		}
		passed := false
		for _, ph := range parents {
			pc := r.getCommit(ph)
			ppath := o.path
			pe, ok := r.treeLookup(pc.tree, ppath)
			if !ok || pe.isTree() {
				// Follow a rename.
				ppath = ""
				if !o.fake {
					pairs := r.detectRenames(r.diffTrees(pc.tree, o.commit.tree, nil), maxScore/2)
					for _, pr := range pairs {
						if pr.status == 'R' && pr.b.path == o.path {
							ppath = pr.a.path
						}
					}
				}
				if ppath == "" {
					continue
				}
				pe, ok = r.treeLookup(pc.tree, ppath)
				if !ok {
					continue
				}
			}
			k := key(ph, ppath)
			po, exists := origins[k]
			if !exists {
				po = &blameOrigin{commit: pc, path: ppath, blob: pe.hash}
				origins[k] = po
			}
			if o.previous == nil {
				o.previous = po
			}
			if !o.fake && po.blob == o.blob {
				for _, e := range mine {
					e.suspect = po
				}
				if !queued[po] {
					queued[po] = true
					queue = append(queue, po)
				}
				passed = true
				break
			}
			r.blameLoad(o)
			r.blameLoad(po)
			moved := r.passBlame(&entries, mine, o, po)
			if moved && !queued[po] {
				queued[po] = true
				queue = append(queue, po)
			}
			// Entries still ours may be passed to the next parent.
			mine = mine[:0]
			for _, e := range entries {
				if e.suspect == o && !e.final {
					mine = append(mine, e)
				}
			}
			if len(mine) == 0 {
				passed = true
				break
			}
		}
		_ = passed
		for _, e := range entries {
			if e.suspect == o {
				e.final = true
			}
		}
	}
	if !showRoot {
		for _, e := range entries {
			if len(e.suspect.commit.parents) == 0 {
				e.suspect.commit.boundary = true
			}
		}
	}
	return entries
}

// passBlame gives the parent the lines of o that the diff finds
// unchanged, splitting entries as needed. It reports whether any moved.
func (r *repo) passBlame(entries *[]*blameEntry, mine []*blameEntry, o, po *blameOrigin) bool {
	a, b := trimCommonTail(po.data, o.data)
	res := xdiff(a, b)
	// Build the list of o's line ranges that map to the parent: between
	// changes, o line x maps to parent line x + offset.
	type seg struct{ start, end, offset int } // [start,end) in o
	var segs []seg
	prevB, prevA := 0, 0
	for _, c := range res.changes {
		if c.i2 > prevB {
			segs = append(segs, seg{prevB, c.i2, prevA - prevB})
		}
		prevB = c.i2 + c.chg2
		prevA = c.i1 + c.chg1
	}
	segs = append(segs, seg{prevB, 1 << 30, prevA - prevB})
	moved := false
	for _, e := range mine {
		// Split e over the segments.
		start, end := e.slno, e.slno+e.num
		var pieces []*blameEntry
		cur := start
		for _, s := range segs {
			if s.end <= cur || s.start >= end {
				continue
			}
			if s.start > cur {
				pieces = append(pieces, &blameEntry{lno: e.lno + cur - start, num: s.start - cur, suspect: o, slno: cur})
				cur = s.start
			}
			hi := min(end, s.end)
			pieces = append(pieces, &blameEntry{lno: e.lno + cur - start, num: hi - cur, suspect: po, slno: cur + s.offset})
			moved = true
			cur = hi
		}
		if cur < end {
			pieces = append(pieces, &blameEntry{lno: e.lno + cur - start, num: end - cur, suspect: o, slno: cur})
		}
		// Replace e with the pieces.
		for i, x := range *entries {
			if x == e {
				rest := append([]*blameEntry{}, (*entries)[i+1:]...)
				*entries = append(append((*entries)[:i], pieces...), rest...)
				break
			}
		}
	}
	return moved
}

func (r *repo) blameDefault(w *bytes.Buffer, entries []*blameEntry, final [][]byte, from, to int, p *parsedArgs, g *cmd) {
	abbrev := r.defaultAbbrev() + 1
	if v, ok := p.str("abbrev"); ok {
		if n, ok := atoi(v); ok {
			abbrev = n + 1
		}
	}
	if p.flag("l") {
		abbrev = 40
	}
	noAuthor := p.flag("s")
	showEmail := p.flag("show-email")
	showNum := p.flag("show-number")
	showName := p.flag("show-name")
	dateMode := dateISO
	if v, ok := p.str("date"); ok {
		if m, ok := parseDateMode(v); ok {
			dateMode = m
		}
	}
	rawTime := p.flag("t")
	longestAuthor, maxOrig, longestFile := 0, 0, 0
	final0path := ""
	if len(entries) > 0 {
		final0path = r.blamePath
	}
	for _, e := range entries {
		if e.lno+e.num < from || e.lno >= to {
			continue
		}
		c := e.suspect.commit
		name := c.author.name
		if showEmail {
			name = "<" + c.author.email + ">"
		}
		if l := displayWidth(name); l > longestAuthor {
			longestAuthor = l
		}
		if n := e.slno + e.num; n > maxOrig {
			maxOrig = n
		}
		if l := displayWidth(e.suspect.path); l > longestFile {
			longestFile = l
		}
		if e.suspect.path != final0path {
			showName = true
		}
	}
	maxDigits := decimalWidth(to)
	origDigits := decimalWidth(maxOrig)
	for _, e := range entries {
		c := e.suspect.commit
		for k := 0; k < e.num; k++ {
			lno := e.lno + k + 1
			if lno < from || lno > to {
				continue
			}
			hex := c.hash.String()
			if abbrev < 40 {
				if c.hash.IsZero() {
					hex = hex[:abbrev]
				} else {
					hex = r.abbrevN(c.hash, abbrev)
				}
			}
			length := len(hex)
			if c.boundary && abbrev < 40 {
				w.WriteByte('^')
				length--
			} else if c.boundary {
				w.WriteByte('^')
				length--
			}
			w.WriteString(hex[:length])
			if showName {
				fmt.Fprintf(w, " %-*s", longestFile, e.suspect.path)
			}
			if showNum {
				fmt.Fprintf(w, " %*d", origDigits, e.slno+k+1)
			}
			if !noAuthor {
				name := c.author.name
				if showEmail {
					name = "<" + c.author.email + ">"
				}
				pad := longestAuthor - displayWidth(name)
				date := g.formatDate(c.author, dateMode)
				if rawTime {
					date = fmt.Sprintf("%d %s", c.author.when, c.author.tz)
				}
				fmt.Fprintf(w, " (%s%s %10s", name, strings.Repeat(" ", pad), date)
			}
			fmt.Fprintf(w, " %*d) ", maxDigits, lno)
			line := final[lno-1]
			w.Write(line)
			if len(line) == 0 || line[len(line)-1] != '\n' {
				w.WriteByte('\n')
			}
		}
	}
}

func (r *repo) blamePorcelain(w *bytes.Buffer, entries []*blameEntry, final [][]byte, from, to int, every bool) {
	shown := map[*commit]bool{}
	for _, e := range entries {
		c := e.suspect.commit
		first := true
		for k := 0; k < e.num; k++ {
			lno := e.lno + k + 1
			if lno < from || lno > to {
				continue
			}
			if first {
				fmt.Fprintf(w, "%s %d %d %d\n", c.hash, e.slno+k+1, lno, min(e.num-k, to-lno+1))
			} else {
				fmt.Fprintf(w, "%s %d %d\n", c.hash, e.slno+k+1, lno)
			}
			if every || (first && !shown[c]) {
				shown[c] = true
				fmt.Fprintf(w, "author %s\nauthor-mail <%s>\nauthor-time %d\nauthor-tz %s\n", c.author.name, c.author.email, c.author.when, c.author.tz)
				fmt.Fprintf(w, "committer %s\ncommitter-mail <%s>\ncommitter-time %d\ncommitter-tz %s\n", c.committer.name, c.committer.email, c.committer.when, c.committer.tz)
				fmt.Fprintf(w, "summary %s\n", c.subject())
				if c.boundary {
					w.WriteString("boundary\n")
				}
				if pv := e.suspect.previous; pv != nil {
					fmt.Fprintf(w, "previous %s %s\n", pv.commit.hash, pv.path)
				}
				fmt.Fprintf(w, "filename %s\n", e.suspect.path)
			}
			first = false
			line := final[lno-1]
			w.WriteByte('\t')
			w.Write(line)
			if len(line) == 0 || line[len(line)-1] != '\n' {
				w.WriteByte('\n')
			}
		}
	}
}
