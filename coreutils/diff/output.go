package diff

import (
	"bytes"
	"sort"
	"strconv"
	"time"

	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
	quotearg "github.com/bashbox/bashbox/coreutils/internal/quote"
)

type colorContext int

const (
	resetColor colorContext = iota
	headerColor
	lineNumberColor
	addColor
	deleteColor
)

var colorCodes = [...]string{"0", "1", "36", "32", "31"}

func (d *differ) setColor(cc colorContext) {
	if d.cfg.color && d.lastColor != cc {
		d.out.WriteString("\x1b[")
		d.out.WriteString(colorCodes[cc])
		d.out.WriteByte('m')
		d.lastColor = cc
	}
}

func sortStrings(s []string, less func(a, b string) bool) {
	sort.Slice(s, func(i, j int) bool { return less(s[i], s[j]) })
}

const (
	unchanged = 0
	old       = 1
	new_      = 2
	changed   = 3
)

// hunkOutput is the state of printing one pair of files.
type hunkOutput struct {
	d       *differ
	f       [2]*gnudiff.File
	names   [2]string // names shown in headers (labels or file names)
	times   [2]string // header time stamps
	begun   bool
	nested  bool // inside a directory comparison: print the "diff ..." line
	ignores []bool

	findLastSearch int
	findLastMatch  int
}

// analyzeHunk is GNU's analyze_hunk: the line ranges a group of changes
// covers, and whether it deletes lines, inserts lines, both, or only
// ignorable ones.
func (h *hunkOutput) analyzeHunk(hunk []gnudiff.Change) (first0, last0, first1, last1, kind int) {
	cfg := h.d.cfg
	trivial := cfg.ignoreBlankLines || cfg.ignoreRE != nil
	skipWhite := cfg.ignoreBlankLines && cfg.whiteSpace >= gnudiff.TrailingSpace
	skipLeading := skipWhite && cfg.whiteSpace >= gnudiff.SpaceChange
	first0, first1 = hunk[0].Line0, hunk[0].Line1
	showFrom, showTo := 0, 0
	isTrivial := func(f *gnudiff.File, i int) bool {
		line := f.Line(i)
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		p := 0
		if skipWhite {
			for p < len(line) {
				if !isSpace(line[p]) {
					if !skipLeading {
						p = 0
					}
					break
				}
				p++
			}
		}
		if cfg.ignoreBlankLines && len(line)-p == 0 {
			return true
		}
		return cfg.ignoreRE != nil && cfg.ignoreRE.Match(line)
	}
	for _, ch := range hunk {
		last0 = ch.Line0 + ch.Deleted - 1
		last1 = ch.Line1 + ch.Inserted - 1
		showFrom += ch.Deleted
		showTo += ch.Inserted
		for i := ch.Line0; i <= last0 && trivial; i++ {
			if !isTrivial(h.f[0], i) {
				trivial = false
			}
		}
		for i := ch.Line1; i <= last1 && trivial; i++ {
			if !isTrivial(h.f[1], i) {
				trivial = false
			}
		}
	}
	if trivial {
		return first0, last0, first1, last1, unchanged
	}
	if showFrom > 0 {
		kind |= old
	}
	if showTo > 0 {
		kind |= new_
	}
	return
}

func isSpace(b byte) bool { return b == ' ' || (b >= '\t' && b <= '\r') }

// cEscape quotes a file name for a header as GNU diff 3.8 does: in
// double quotes with C escapes when it holds spaces or special bytes.
func cEscape(s string) string {
	must := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c < 32 || c == '"' || c == '\\' {
			must = true
			break
		}
	}
	if !must {
		return s
	}
	return `"` + quotearg.CBody(s, func(c byte) bool { return c < 32 }) + `"`
}

// begin prints what comes before the first hunk: the "diff ..." line of
// a directory comparison and the file headers of context formats.
func (h *hunkOutput) begin() {
	if h.begun {
		return
	}
	h.begun = true
	d := h.d
	n0, n1 := cEscape(h.names[0]), cEscape(h.names[1])
	if h.nested {
		d.out.WriteString("diff" + d.switch_ + " " + n0 + " " + n1 + "\n")
	}
	switch d.cfg.style {
	case styleContext:
		h.label("***", 0, n0)
		h.label("---", 1, n1)
	case styleUnified:
		h.label("---", 0, n0)
		h.label("+++", 1, n1)
	}
}

func (h *hunkOutput) label(mark string, f int, name string) {
	d := h.d
	d.setColor(headerColor)
	if f < len(d.cfg.labels) {
		d.out.WriteString(mark + " " + d.cfg.labels[f])
	} else {
		d.out.WriteString(mark + " " + name + "\t" + h.times[f])
	}
	d.setColor(resetColor)
	d.out.WriteByte('\n')
}

func (h *hunkOutput) numberRange(sep byte, a, b int) {
	ta, tb := a+1, b+1
	w := h.d.out
	if tb > ta {
		w.WriteString(strconv.Itoa(ta))
		w.WriteByte(sep)
		w.WriteString(strconv.Itoa(tb))
	} else {
		w.WriteString(strconv.Itoa(tb))
	}
}

// sideColors are the colors of the old and the new file's lines.
var sideColors = [2]colorContext{deleteColor, addColor}

// sideLine prints line i of one side (0 the old file, 1 the new) in that
// side's color: the unified mark when not 0 (a tab after it with -T), then
// the line as print1Line does, ended as it is in the file.
func (h *hunkOutput) sideLine(side, i int, flag string, hasFlag bool, mark byte) {
	d := h.d
	line := h.f[side].Line(i)
	d.setColor(sideColors[side])
	if mark != 0 {
		d.out.WriteByte(mark)
		if d.cfg.initialTab && !h.blankEmpty(line) {
			d.out.WriteByte('\t')
		}
	}
	h.print1Line(flag, hasFlag, line, true)
	d.setColor(resetColor)
	if h.f[side].Complete(i) {
		d.out.WriteByte('\n')
	}
}

// blankEmpty reports a line that --suppress-blank-empty prints without its
// flag's separator.
func (h *hunkOutput) blankEmpty(line []byte) bool {
	return h.d.cfg.suppressBlank && (len(line) == 0 || line[0] == '\n')
}

// print1Line is GNU's print_1_line_nl: the flag, a space or tab, the line
// (without its newline when skipNL), and the "No newline" note.
func (h *hunkOutput) print1Line(flag string, hasFlag bool, line []byte, skipNL bool) {
	d := h.d
	w := d.out
	flagFormat := ""
	if hasFlag && flag != "" {
		sep := " "
		if d.cfg.initialTab {
			sep = "\t"
		}
		flagFormat = sep
		f1, s1 := flag, sep
		if h.blankEmpty(line) {
			s1 = ""
			if f1 == " " {
				f1 = ""
			}
		}
		w.WriteString(f1)
		w.WriteString(s1)
	}
	complete := len(line) > 0 && line[len(line)-1] == '\n'
	body := line
	if skipNL && complete {
		body = line[:len(line)-1]
	}
	h.output1Line(body, flag, flagFormat)
	if (!hasFlag || flag != "") && !complete {
		d.setColor(resetColor)
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

// output1Line writes text, expanding tabs with -t.
func (h *hunkOutput) output1Line(text []byte, flag, flagFormat string) {
	d := h.d
	w := d.out
	if !d.cfg.expandTabs {
		w.Write(text)
		return
	}
	ts := d.cfg.tabSize
	col := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case '\t':
			n := ts - col%ts
			col += n
			for ; n > 0; n-- {
				w.WriteByte(' ')
			}
		case '\r':
			w.WriteByte(c)
			if flagFormat != "" && i+1 < len(text) && text[i+1] != '\n' {
				w.WriteString(flag)
				w.WriteString(flagFormat)
			}
			col = 0
		case '\b':
			if col == 0 {
				continue
			}
			col--
			w.WriteByte(c)
		default:
			if c >= 0x20 && c < 0x7f {
				col++
			}
			w.WriteByte(c)
		}
	}
}

// normal prints each change as GNU's normal format does.
func (h *hunkOutput) normal(script []gnudiff.Change) {
	d := h.d
	w := d.out
	for k := range script {
		f0, l0, f1, l1, kind := h.analyzeHunk(script[k : k+1])
		if kind == unchanged {
			continue
		}
		h.begin()
		d.setColor(lineNumberColor)
		h.numberRange(',', f0, l0)
		w.WriteByte(" dac"[kind])
		h.numberRange(',', f1, l1)
		d.setColor(resetColor)
		w.WriteByte('\n')
		if kind&old != 0 {
			for i := f0; i <= l0; i++ {
				h.sideLine(0, i, "<", true, 0)
			}
		}
		if kind == changed {
			w.WriteString("---\n")
		}
		if kind&new_ != 0 {
			for i := f1; i <= l1; i++ {
				h.sideLine(1, i, ">", true, 0)
			}
		}
	}
}

// hunks splits script into GNU's hunks: changes closer than 2*context+1
// unchanged lines (context when the next change is ignorable) print
// together.
func (h *hunkOutput) hunks(script []gnudiff.Change, fn func([]gnudiff.Change)) {
	ctx := h.d.cfg.context
	for len(script) > 0 {
		end := 0
		for {
			top0 := script[end].Line0 + script[end].Deleted
			next := end + 1
			if next >= len(script) {
				break
			}
			thresh := 2*ctx + 1
			if h.ignores != nil && h.ignores[next] {
				thresh = ctx
			}
			if script[next].Line0-top0 >= thresh {
				break
			}
			end = next
		}
		fn(script[:end+1])
		if h.ignores != nil {
			h.ignores = h.ignores[end+1:]
		}
		script = script[end+1:]
	}
}

func (h *hunkOutput) markIgnorable(script []gnudiff.Change) {
	cfg := h.d.cfg
	if !(cfg.ignoreBlankLines || cfg.ignoreRE != nil) {
		h.ignores = nil
		return
	}
	h.ignores = make([]bool, len(script))
	for k := range script {
		_, _, _, _, kind := h.analyzeHunk(script[k : k+1])
		h.ignores[k] = kind == unchanged
	}
}

// findFunction finds the last line before linenum matching the function
// regexp, as GNU's find_function does (remembering where it last looked).
func (h *hunkOutput) findFunction(linenum int) []byte {
	f := h.f[0]
	i := linenum
	last := h.findLastSearch
	h.findLastSearch = i
	for i--; last <= i; i-- {
		line := f.Line(i)
		n := len(line) - 1
		if n < 0 {
			n = 0
		}
		if h.d.cfg.functionRE.Match(line[:n]) {
			h.findLastMatch = i
			return line
		}
	}
	if h.findLastMatch >= 0 {
		return f.Line(h.findLastMatch)
	}
	return nil
}

func (h *hunkOutput) printFunction(fn []byte) {
	w := h.d.out
	w.WriteByte(' ')
	i := 0
	for i < len(fn) && isSpace(fn[i]) && fn[i] != '\n' {
		i++
	}
	j := i
	for j < i+40 && j < len(fn) && fn[j] != '\n' {
		j++
	}
	for i < j && isSpace(fn[j-1]) {
		j--
	}
	w.Write(fn[i:j])
}

// diff2Files compares the contents of two files.
func (d *differ) diff2Files(cmp *comparison) int {
	cfg := d.cfg
	var data [2][]byte
	for f := 0; f < 2; f++ {
		if f == 1 && cmp.file[1].name == cmp.file[0].name && cmp.file[0].exists && cmp.file[1].exists {
			data[1] = data[0]
			continue
		}
		b, err := d.readSide(&cmp.file[f])
		if err != nil {
			d.fileError(cmp.file[f].name, err)
			return 2
		}
		data[f] = b
	}
	binary := cfg.treatAsBinary
	if !binary && !cfg.text {
		for f := 0; f < 2 && !binary; f++ {
			b := data[f]
			if len(b) > binaryProbe {
				b = b[:binaryProbe]
			}
			binary = bytes.IndexByte(b, 0) >= 0
		}
	}
	n0, n1 := d.label(0, cmp.file[0].name), d.label(1, cmp.file[1].name)
	if binary {
		if bytes.Equal(data[0], data[1]) {
			return 0
		}
		if cfg.brief {
			d.message("Files %s and %s differ\n", n0, n1)
		} else {
			d.message("Binary files %s and %s differ\n", n0, n1)
		}
		return 1
	}
	if cfg.stripTrailingCR {
		for f := 0; f < 2; f++ {
			data[f] = stripCR(data[f])
		}
	}
	robust := cfg.style != styleEd && cfg.style != styleForwardEd
	f0, f1 := gnudiff.NewFile(data[0]), gnudiff.NewFile(data[1])
	opt := gnudiff.Options{
		IgnoreCase: cfg.ignoreCase, WhiteSpace: cfg.whiteSpace, TabSize: cfg.tabSize,
		Horizon: cfg.horizon, Minimal: cfg.minimal, SpeedLargeFiles: cfg.speedLarge,
		Robust: robust,
	}
	if !cfg.noDiffNoOutput || cfg.functionRE != nil {
		// GNU keeps every line then; only the line table is affected.
	}
	script, err := gnudiff.Compare(d.ctx, f0, f1, opt)
	if err != nil {
		return statusFatal
	}
	h := &hunkOutput{d: d, f: [2]*gnudiff.File{f0, f1}, names: [2]string{n0, n1}}
	h.nested = cmp.parent != nil && !(cmp.parent.parent == nil && cmp.parent.file[0].name == "")
	changes := len(script) > 0
	if changes && (cfg.ignoreBlankLines || cfg.ignoreRE != nil) {
		changes = false
		for k := range script {
			if _, _, _, _, kind := h.analyzeHunk(script[k : k+1]); kind != unchanged {
				changes = true
				break
			}
		}
	}
	if cfg.brief {
		if changes {
			d.message("Files %s and %s differ\n", n0, n1)
		}
	} else if changes || !cfg.noDiffNoOutput {
		for f := 0; f < 2; f++ {
			h.times[f] = d.stamp(&cmp.file[f])
		}
		switch cfg.style {
		case styleNormal:
			h.normal(script)
		case styleUnified:
			h.context(script, true)
		case styleContext:
			h.context(script, false)
		case styleEd:
			h.ed(script, false)
		case styleForwardEd:
			h.ed(script, true)
		case styleRCS:
			h.rcs(script)
		case styleIfdef:
			h.ifdef(script)
		case styleSdiff:
			h.sdiff(script)
		}
	}
	status := 0
	if changes {
		status = 1
	}
	if !robust {
		for f := 0; f < 2; f++ {
			fl := []*gnudiff.File{f0, f1}[f]
			if fl.MissingNewline {
				name := cmp.file[f].name
				if f < len(cfg.labels) {
					name = cfg.labels[f]
				}
				d.errorf("%s: No newline at end of file\n", name)
				status = 2
			}
		}
	}
	return status
}

// binaryProbe is how much of a file GNU diff reads before deciding it is
// binary (one block of the usual st_blksize).
const binaryProbe = 4096

func stripCR(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			continue
		}
		out = append(out, b[i])
	}
	return out
}

// stamp is the time shown in a context header: the modification time,
// the current time for standard input, the Epoch for a missing file.
func (d *differ) stamp(s *side) string {
	var t time.Time
	switch {
	case !s.exists:
		t = time.Unix(0, 0)
	case s.stdin || s.info == nil:
		t = d.now
	default:
		t = s.info.ModTime()
	}
	return t.In(d.loc).Format("2006-01-02 15:04:05.000000000 -0700")
}
