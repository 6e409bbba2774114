package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/go-git/go-git/v5/plumbing"
)

// Output formats.
const (
	fmtPatch = 1 << iota
	fmtStat
	fmtNumstat
	fmtShortstat
	fmtNameOnly
	fmtNameStatus
	fmtSummary
	fmtRaw
	fmtNoOutput
)

// diffOpts are the diff options shared by diff, log and show.
type diffOpts struct {
	format     int
	ctx        int
	renames    bool
	noRenames  bool
	findRename int // minimum score
	srcPrefix  string
	dstPrefix  string
	fullIndex  bool
	abbrev     int
	statWidth  int
	statName   int
	statGraph  int
	statCount  int
	text       bool
	funcNames  bool
	quiet      bool
	exitCode   bool
	relative   string // strip this prefix (with --relative)
	diffFilter string
	zero       bool // -z
	ws         int  // whitespace flags (-w, -b, --ignore-space-at-eol)
}

func defaultDiffOpts() diffOpts {
	return diffOpts{ctx: 3, srcPrefix: "a/", dstPrefix: "b/", renames: true, findRename: maxScore / 2, funcNames: true}
}

// diffOptSpecs are the option specs diff-like commands accept.
var diffOptSpecs = []optSpec{
	{short: 'p', long: "patch"},
	{short: 'u'},
	{short: 's', long: "no-patch"},
	{long: "stat", arg: argOptional},
	{long: "stat-width", arg: argRequired},
	{long: "stat-name-width", arg: argRequired},
	{long: "stat-graph-width", arg: argRequired},
	{long: "stat-count", arg: argRequired},
	{long: "numstat"},
	{long: "shortstat"},
	{long: "name-only"},
	{long: "name-status"},
	{long: "summary"},
	{long: "raw"},
	{long: "patch-with-stat"},
	{long: "patch-with-raw"},
	{short: 'U', long: "unified", arg: argRequired},
	{short: 'M', long: "find-renames", arg: argOptional},
	{long: "no-renames"},
	{long: "full-index"},
	{long: "abbrev", arg: argOptional},
	{long: "no-prefix"},
	{long: "src-prefix", arg: argRequired},
	{long: "dst-prefix", arg: argRequired},
	{short: 'a', long: "text"},
	{long: "binary"},
	{long: "color", arg: argOptional},
	{long: "no-color"},
	{long: "quiet"},
	{long: "exit-code"},
	{long: "relative", arg: argOptional},
	{long: "diff-filter", arg: argRequired},
	{short: 'z'},
	{long: "ext-diff"},
	{long: "no-ext-diff"},
	{long: "textconv"},
	{long: "no-textconv"},
	{long: "indent-heuristic"},
	{long: "minimal"},
	{long: "histogram"},
	{long: "patience"},
	{long: "diff-algorithm", arg: argRequired},
	{short: 'w', long: "ignore-all-space"},
	{short: 'b', long: "ignore-space-change"},
	{long: "ignore-space-at-eol"},
	{long: "ignore-cr-at-eol"},
	{long: "ignore-blank-lines"},
	{short: 'R'},
}

// applyDiffOpt interprets one diff option; it reports false for options
// that are not diff options.
func (g *cmd) applyDiffOpt(o *diffOpts, v optVal) bool {
	switch v.key {
	case "patch", "u":
		if v.neg {
			o.format &^= fmtPatch
		} else {
			o.format |= fmtPatch
		}
	case "no-patch":
		if v.neg {
			o.format |= fmtPatch
		} else {
			o.format = fmtNoOutput
		}
	case "stat":
		o.format |= fmtStat
		if v.has && v.val != "" {
			// --stat=<width>[,<name-width>[,<count>]]
			fields := []*int{&o.statWidth, &o.statName, &o.statCount}
			for i, part := range strings.Split(v.val, ",") {
				if n, ok := atoi(part); ok && i < len(fields) {
					*fields[i] = n
				}
			}
		}
	case "stat-width", "stat-name-width", "stat-graph-width", "stat-count":
		o.format |= fmtStat
		field := map[string]*int{"stat-width": &o.statWidth, "stat-name-width": &o.statName,
			"stat-graph-width": &o.statGraph, "stat-count": &o.statCount}[v.key]
		*field, _ = atoi(v.val)
	case "numstat":
		o.format |= fmtNumstat
	case "shortstat":
		o.format |= fmtShortstat
	case "name-only":
		o.format |= fmtNameOnly
	case "name-status":
		o.format |= fmtNameStatus
	case "summary":
		o.format |= fmtSummary
	case "raw":
		o.format |= fmtRaw
	case "patch-with-stat":
		o.format |= fmtPatch | fmtStat
	case "patch-with-raw":
		o.format |= fmtPatch | fmtRaw
	case "unified":
		n, ok := atoi(v.val)
		if !ok || n < 0 {
			g.fatal("%s: '%s' expects a numerical value", "-U", v.val)
		}
		o.ctx = n
		o.format |= fmtPatch
	case "find-renames":
		if v.neg {
			o.noRenames = true
			break
		}
		o.renames = true
		o.noRenames = false
		if v.has && v.val != "" {
			o.findRename = parseScore(v.val)
		}
	case "no-renames":
		o.noRenames = true
	case "full-index":
		o.fullIndex = true
	case "abbrev":
		if v.has {
			n, _ := atoi(v.val)
			if n < 4 {
				n = 4
			}
			o.abbrev = n
		}
	case "no-prefix":
		o.srcPrefix, o.dstPrefix = "", ""
	case "src-prefix":
		o.srcPrefix = v.val
	case "dst-prefix":
		o.dstPrefix = v.val
	case "text":
		o.text = true
	case "quiet":
		o.quiet = true
		o.exitCode = true
		o.format = fmtNoOutput
	case "exit-code":
		o.exitCode = true
	case "relative":
		if v.neg {
			o.relative = ""
		} else if v.has {
			o.relative = strings.TrimSuffix(v.val, "/") + "/"
		} else {
			o.relative = "."
		}
	case "diff-filter":
		o.diffFilter = v.val
	case "z":
		o.zero = true
	case "ignore-all-space":
		o.ws |= wsIgnoreAll
	case "ignore-space-change":
		o.ws |= wsIgnoreChange
	case "ignore-space-at-eol", "ignore-cr-at-eol":
		o.ws |= wsIgnoreAtEOL
	case "ignore-blank-lines", "R":
		g.fatal("--%s is not supported in the sandbox", v.key)
	case "color", "no-color", "binary", "ext-diff", "no-ext-diff", "textconv", "no-textconv",
		"indent-heuristic", "minimal", "histogram", "patience", "diff-algorithm":
		if v.key == "diff-algorithm" && v.val != "myers" && v.val != "default" {
			g.warnf("diff algorithm '%s' is not available in the sandbox; using myers", v.val)
		}
	default:
		return false
	}
	return true
}

// parseScore reads a similarity like "50%", "5" (=50%) or "0.5".
func parseScore(s string) int {
	s = strings.TrimSuffix(s, "%")
	if strings.Contains(s, ".") {
		f, err := strconv.ParseFloat(s, 64)
		if err == nil {
			return int(f * maxScore)
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return maxScore / 2
	}
	if strings.HasSuffix(s, "%") {
		return n * maxScore / 100
	}
	// "5" means 50%: digits are a fraction.
	scale := 1
	for range s {
		scale *= 10
	}
	return n * maxScore / scale
}

// finish applies git's precedence between formats.
func (o *diffOpts) finish() {
	if o.format&(fmtNameOnly|fmtNameStatus|fmtNoOutput) != 0 {
		o.format &^= fmtRaw | fmtNumstat | fmtStat | fmtShortstat | fmtSummary | fmtPatch
	}
}

// filterPairs applies --diff-filter and --relative.
func (r *repo) filterPairs(pairs []diffPair, o *diffOpts) []diffPair {
	if o.relative != "" {
		rel := o.relative
		if rel == "." {
			rel = r.prefix
		}
		if rel != "" && rel != "/" {
			var out []diffPair
			for _, p := range pairs {
				ap, bp := p.a.path, p.b.path
				if !strings.HasPrefix(ap, rel) && !strings.HasPrefix(bp, rel) {
					continue
				}
				p.a.path = strings.TrimPrefix(ap, rel)
				p.b.path = strings.TrimPrefix(bp, rel)
				out = append(out, p)
			}
			pairs = out
		}
	}
	if o.diffFilter == "" {
		return pairs
	}
	include := map[byte]bool{}
	exclude := map[byte]bool{}
	for i := 0; i < len(o.diffFilter); i++ {
		c := o.diffFilter[i]
		if c >= 'a' && c <= 'z' {
			exclude[c-'a'+'A'] = true
		} else {
			include[c] = true
		}
	}
	var out []diffPair
	for _, p := range pairs {
		if len(include) > 0 && !include[p.status] {
			continue
		}
		if exclude[p.status] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// prepare runs rename detection as the options ask.
func (r *repo) preparePairs(pairs []diffPair, o *diffOpts) []diffPair {
	renames := o.renames && !o.noRenames
	if renames {
		pairs = r.detectRenames(pairs, o.findRename)
	}
	return r.filterPairs(pairs, o)
}

// quoteName is git's quote_c_style: names with control characters, '"',
// '\' or (with core.quotePath) non-ASCII bytes are put in double quotes
// with C escapes.
func (r *repo) quoteName(s string) string {
	return quoteC(s, r.quotePath())
}

func (r *repo) quotePath() bool {
	if r == nil {
		return true
	}
	return r.cfg.getBool("core.quotepath", true)
}

func needsQuote(s string, high bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == 0x7f || (high && c >= 0x80) {
			return true
		}
	}
	return false
}

func quoteC(s string, high bool) string {
	if !needsQuote(s, high) {
		return s
	}
	return `"` + quoteCBody(s, high) + `"`
}

func quoteCBody(s string, high bool) string {
	return quote.CBody(s, func(c byte) bool { return c < 0x20 || c == 0x7f || high && c >= 0x80 })
}

// quoteTwo quotes prefix+name as one string when the name needs quoting.
func (r *repo) quoteTwo(prefix, name string) string {
	hp := r.quotePath()
	if !needsQuote(prefix, hp) && !needsQuote(name, hp) {
		return prefix + name
	}
	return `"` + quoteCBody(prefix, hp) + quoteCBody(name, hp) + `"`
}

// abbrevFor shortens an object name for diff output.
func (r *repo) diffAbbrev(h plumbing.Hash, o *diffOpts) string {
	if o.fullIndex {
		return h.String()
	}
	if h.IsZero() {
		n := o.abbrev
		if n == 0 {
			n = r.defaultAbbrev()
		}
		return strings.Repeat("0", n)
	}
	return r.abbrevN(h, o.abbrev)
}

// writeDiff prints pairs in the requested formats.
func (r *repo) writeDiff(w *bytes.Buffer, pairs []diffPair, o *diffOpts) {
	o.finish()
	sep := false
	if o.format&(fmtRaw|fmtNameOnly|fmtNameStatus) != 0 {
		for _, p := range pairs {
			r.writeNameLine(w, p, o)
		}
		sep = true
	}
	if o.format&(fmtStat|fmtShortstat|fmtNumstat) != 0 {
		stats := r.computeStats(pairs, o)
		if o.format&fmtNumstat != 0 {
			for _, s := range stats {
				if s.binary {
					fmt.Fprintf(w, "-\t-\t%s\n", s.name)
				} else {
					fmt.Fprintf(w, "%d\t%d\t%s\n", s.added, s.deleted, s.name)
				}
			}
		}
		if o.format&fmtStat != 0 {
			r.showStats(w, stats, o)
		}
		if o.format&fmtShortstat != 0 {
			writeShortstat(w, stats)
		}
		sep = true
	}
	if o.format&fmtSummary != 0 {
		any := false
		for _, p := range pairs {
			if r.writeSummary(w, p) {
				any = true
			}
		}
		if any {
			sep = true
		}
	}
	if o.format&fmtPatch != 0 {
		if sep && len(pairs) > 0 {
			w.WriteString("\n")
		}
		for _, p := range pairs {
			r.writePatch(w, p, o)
			if w == r.streamTo && r.flush != nil && w.Len() > 256<<10 {
				r.flush(w)
			}
		}
	}
}

func (r *repo) writeNameLine(w *bytes.Buffer, p diffPair, o *diffOpts) {
	name := p.b.path
	if !p.b.valid() {
		name = p.a.path
	}
	term := "\n"
	if o.zero {
		term = "\x00"
	}
	q := func(s string) string {
		if o.zero {
			return s
		}
		return r.quoteName(s)
	}
	switch {
	case o.format&fmtNameOnly != 0:
		w.WriteString(q(name) + term)
	case o.format&fmtNameStatus != 0:
		if p.status == 'R' || p.status == 'C' {
			fmt.Fprintf(w, "%c%03d\t%s\t%s%s", p.status, similarityIndex(p.score), q(p.a.path), q(p.b.path), term)
		} else {
			fmt.Fprintf(w, "%c\t%s%s", p.status, q(name), term)
		}
	case o.format&fmtRaw != 0:
		ah, bh := p.a.hash, p.b.hash
		if p.b.wt {
			bh = plumbing.ZeroHash
		}
		fmt.Fprintf(w, ":%06o %06o %s %s ", uint32(p.a.mode), uint32(p.b.mode), r.diffAbbrev(ah, o), r.diffAbbrev(bh, o))
		if p.status == 'R' || p.status == 'C' {
			fmt.Fprintf(w, "%c%03d\t%s\t%s%s", p.status, similarityIndex(p.score), q(p.a.path), q(p.b.path), term)
		} else {
			fmt.Fprintf(w, "%c\t%s%s", p.status, q(name), term)
		}
	}
}

// prettyRename is git's "dir/{a => b}" form.
func (r *repo) prettyRename(a, b string) string {
	hp := r.quotePath()
	if needsQuote(a, hp) || needsQuote(b, hp) {
		return quoteC(a, hp) + " => " + quoteC(b, hp)
	}
	at := func(s string, i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	pfx := 0
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		if a[i] == '/' {
			pfx = i + 1
		}
		i++
	}
	sfx := 0
	adj := 0
	if pfx > 0 {
		adj = 1
	}
	oa, ob := len(a), len(b)
	for pfx-adj <= oa && pfx-adj <= ob && at(a, oa) == at(b, ob) {
		if at(a, oa) == '/' {
			sfx = len(a) - oa
		}
		oa--
		ob--
		if oa < 0 || ob < 0 {
			break
		}
	}
	amid := max(len(a)-pfx-sfx, 0)
	bmid := max(len(b)-pfx-sfx, 0)
	var s strings.Builder
	if pfx+sfx > 0 {
		s.WriteString(a[:pfx])
		s.WriteByte('{')
	}
	s.WriteString(a[pfx : pfx+amid])
	s.WriteString(" => ")
	s.WriteString(b[pfx : pfx+bmid])
	if pfx+sfx > 0 {
		s.WriteByte('}')
		s.WriteString(a[len(a)-sfx:])
	}
	return s.String()
}

// writeSummary prints create/delete/rename/mode lines; it reports whether
// it printed anything.
func (r *repo) writeSummary(w *bytes.Buffer, p diffPair) bool {
	switch p.status {
	case 'D':
		fmt.Fprintf(w, " delete mode %06o %s\n", uint32(p.a.mode), r.quoteName(p.a.path))
		return true
	case 'A':
		fmt.Fprintf(w, " create mode %06o %s\n", uint32(p.b.mode), r.quoteName(p.b.path))
		return true
	case 'R', 'C':
		word := "rename"
		if p.status == 'C' {
			word = "copy"
		}
		fmt.Fprintf(w, " %s %s (%d%%)\n", word, r.prettyRename(p.a.path, p.b.path), similarityIndex(p.score))
		if p.a.mode != p.b.mode {
			fmt.Fprintf(w, " mode change %06o => %06o\n", uint32(p.a.mode), uint32(p.b.mode))
		}
		return true
	default:
		if p.a.mode != 0 && p.b.mode != 0 && p.a.mode != p.b.mode {
			fmt.Fprintf(w, " mode change %06o => %06o %s\n", uint32(p.a.mode), uint32(p.b.mode), r.quoteName(p.b.path))
			return true
		}
	}
	return false
}

// pairsDiffer reports whether pairs hold a difference once whitespace
// flags are applied (for --exit-code).
func (r *repo) pairsDiffer(pairs []diffPair, o *diffOpts) bool {
	if o.ws == 0 {
		return len(pairs) > 0
	}
	for _, p := range pairs {
		if !p.a.valid() || !p.b.valid() || p.a.mode != p.b.mode || p.status == 'R' || p.status == 'C' {
			return true
		}
		a, b := r.content(p.a), r.content(p.b)
		if isBinary(a) || isBinary(b) {
			return true
		}
		if len(xdiffWS(a, b, o.ws).changes) > 0 {
			return true
		}
	}
	return false
}

// writePatch prints one pair as a git patch.
func (r *repo) writePatch(w *bytes.Buffer, p diffPair, o *diffOpts) {
	if p.status == 'T' {
		// Different kinds of objects: a deletion and a creation.
		r.writePatch(w, diffPair{status: 'D', a: p.a, b: diffSide{path: p.a.path}}, o)
		r.writePatch(w, diffPair{status: 'A', a: diffSide{path: p.b.path}, b: p.b}, o)
		return
	}
	nameA, nameB := p.a.path, p.b.path
	if !p.a.valid() {
		nameA = nameB
	}
	if !p.b.valid() {
		nameB = nameA
	}
	aOne := r.quoteTwo(o.srcPrefix, nameA)
	bTwo := r.quoteTwo(o.dstPrefix, nameB)
	lbl0, lbl1 := aOne, bTwo
	if !p.a.valid() {
		lbl0 = "/dev/null"
	}
	if !p.b.valid() {
		lbl1 = "/dev/null"
	}
	var hdr bytes.Buffer
	fmt.Fprintf(&hdr, "diff --git %s %s\n", aOne, bTwo)
	mustShow := false
	var meta bytes.Buffer
	if p.status == 'R' || p.status == 'C' {
		word := "rename"
		if p.status == 'C' {
			word = "copy"
		}
		fmt.Fprintf(&meta, "similarity index %d%%\n%s from %s\n%s to %s\n", similarityIndex(p.score), word, r.quoteName(p.a.path), word, r.quoteName(p.b.path))
		mustShow = true
	}
	if p.a.hash != p.b.hash || (p.b.wt && !p.a.valid()) {
		fmt.Fprintf(&meta, "index %s..%s", r.diffAbbrev(p.a.hash, o), r.diffAbbrev(p.b.hash, o))
		if p.a.mode == p.b.mode {
			fmt.Fprintf(&meta, " %06o", uint32(p.a.mode))
		}
		meta.WriteString("\n")
	}
	switch {
	case !p.a.valid():
		fmt.Fprintf(&hdr, "new file mode %06o\n", uint32(p.b.mode))
		hdr.Write(meta.Bytes())
		mustShow = true
	case !p.b.valid():
		fmt.Fprintf(&hdr, "deleted file mode %06o\n", uint32(p.a.mode))
		hdr.Write(meta.Bytes())
		mustShow = true
	default:
		if p.a.mode != p.b.mode {
			fmt.Fprintf(&hdr, "old mode %06o\nnew mode %06o\n", uint32(p.a.mode), uint32(p.b.mode))
			mustShow = true
		}
		hdr.Write(meta.Bytes())
	}
	if p.a.valid() && p.b.valid() && p.a.hash == p.b.hash {
		if mustShow {
			w.Write(hdr.Bytes())
		}
		return
	}
	a, b := r.content(p.a), r.content(p.b)
	if !o.text && (isBinary(a) || isBinary(b)) {
		if bytes.Equal(a, b) && p.a.valid() && p.b.valid() {
			if mustShow {
				w.Write(hdr.Bytes())
			}
			return
		}
		w.Write(hdr.Bytes())
		fmt.Fprintf(w, "Binary files %s and %s differ\n", lbl0, lbl1)
		return
	}
	res := xdiffWS(a, b, o.ws)
	if len(res.changes) == 0 {
		if mustShow {
			w.Write(hdr.Bytes())
		}
		return
	}
	w.Write(hdr.Bytes())
	tab0, tab1 := "", ""
	if strings.Contains(lbl0, " ") {
		tab0 = "\t"
	}
	if strings.Contains(lbl1, " ") {
		tab1 = "\t"
	}
	fmt.Fprintf(w, "--- %s%s\n+++ %s%s\n", lbl0, tab0, lbl1, tab1)
	emitUnified(w, res, emitOpts{ctx: o.ctx, funcNames: o.funcNames})
}

// displayWidth counts columns (runes) of a name.
func displayWidth(s string) int {
	n := 0
	for range s {
		n++
	}
	return n
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i == 0 {
			_, size := r, len(string(r))
			return r, size
		}
	}
	return 0, len(s)
}
