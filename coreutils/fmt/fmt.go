// Package fmt implements GNU fmt: refill paragraphs. Line breaks are
// chosen as GNU fmt chooses them, by minimising a cost that prefers lines
// near the goal width, little raggedness between neighbouring lines, and
// breaks at sentence ends.
package fmt

import (
	"bufio"
	"context"
	"io"
	"math"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'c', Long: "crown-margin"},
	{Short: 'p', Long: "prefix", Arg: builtins.RequiredArg},
	{Short: 's', Long: "split-only"},
	{Short: 't', Long: "tagged-paragraph"},
	{Short: 'u', Long: "uniform-spacing"},
	{Short: 'w', Long: "width", Arg: builtins.RequiredArg},
	{Short: 'g', Long: "goal", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "version"},
	{Short: '0'}, {Short: '1'}, {Short: '2'}, {Short: '3'}, {Short: '4'},
	{Short: '5'}, {Short: '6'}, {Short: '7'}, {Short: '8'}, {Short: '9'},
}}

// Tuning of the cost function, in units of "a line one column away from
// the goal, times ten, squared".
type cost = int64

func equiv(n int64) cost    { return n * n }
func shortCost(n int) cost  { return equiv(int64(n) * 10) }
func raggedCost(n int) cost { return shortCost(n) / 2 }
func widowCost(n int) cost  { return equiv(200) / cost(n+2) }
func orphanCost(n int) cost { return equiv(150) / cost(n+2) }

var (
	lineCost      = equiv(70)
	sentenceBonus = equiv(50)
	noBreakCost   = equiv(600)
	parenBonus    = equiv(40)
	punctBonus    = equiv(40)
	lineCredit    = equiv(3)
)

const (
	defaultWidth = 75
	leeway       = 7
	defIndent    = 3
	maxWords     = 1000
	maxChars     = 5000
	tabWidth     = 8
	eof          = -1
)

type word struct {
	start, length int // text in the paragraph buffer
	space         int // space that follows
	paren         bool
	period        bool
	punct         bool
	final         bool

	lineLength int
	bestCost   cost
	nextBreak  int
}

type formatter struct {
	crown, tagged, split, uniform bool
	prefix                        string
	prefixFull, prefixLead        int
	prefixLen                     int
	maxWidth, goalWidth           int

	in  *bufio.Reader
	out *textfmt.Output
	err error

	inColumn, outColumn int
	buf                 []byte
	words               []word // words[len-1] is the one being built
	tabs                bool
	prefixIndent        int
	firstIndent         int
	otherIndent         int
	nextChar            int
	nextPrefixIndent    int
	lastLineLength      int
}

// Run is the fmt command.
func Run(ctx context.Context, c *builtins.Call) int {
	args := c.Args[1:]
	var widthOpt, goalOpt *string
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0][1] >= '0' && args[0][1] <= '9' {
		v := args[0][1:]
		widthOpt = &v
		args = args[1:]
	}
	opts, files, err := options.Parse(args)
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	f := &formatter{maxWidth: defaultWidth}
	for _, o := range opts {
		switch o.Key {
		case "help":
			return textfmt.Help(c, helpText+textfmt.CoreutilsTrailer("fmt"))
		case "version":
			return c.Version()
		case "crown-margin":
			f.crown = true
		case "split-only":
			f.split = true
		case "tagged-paragraph":
			f.tagged = true
		case "uniform-spacing":
			f.uniform = true
		case "width":
			v := o.Value
			widthOpt = &v
		case "goal":
			v := o.Value
			goalOpt = &v
		case "prefix":
			f.setPrefix(o.Value)
		default:
			c.Errorf("invalid option -- %s; -WIDTH is recognized only when it is the first\noption; use -w N instead", o.Key)
			return c.TryHelp(1)
		}
	}
	q := quote.New(c)
	quote := q.Q
	if widthOpt != nil {
		v, msg, ok := textfmt.DecToUint(*widthOpt, 0, maxChars/2)
		if !ok {
			c.Errorf("invalid width: %s%s", quote(*widthOpt), msg)
			return 1
		}
		f.maxWidth = int(v)
	}
	if goalOpt != nil {
		v, msg, ok := textfmt.DecToUint(*goalOpt, 0, uint64(f.maxWidth))
		if !ok {
			c.Errorf("invalid width: %s%s", quote(*goalOpt), msg)
			return 1
		}
		f.goalWidth = int(v)
		if widthOpt == nil {
			f.maxWidth = int(v) + 10
		}
	} else {
		f.goalWidth = f.maxWidth * (2*(100-leeway) + 1) / 200
	}

	f.out = textfmt.NewOutput(c.Stdout)
	cannotOpen := func(name string, err error) {
		c.Errorf("cannot open %s for reading: %s", q.AF(name), builtins.ErrText(err))
	}
	return f.out.End(ctx, c, textfmt.EachFile(ctx, c, f.out, files, cannotOpen, func(_ string, r io.Reader) error {
		f.err = nil
		f.run(ctx, r)
		if f.err != nil {
			f.out.Flush()
			c.Errorf("read error")
			return textfmt.ErrReported
		}
		return nil
	}))
}

func (f *formatter) setPrefix(p string) {
	f.prefixLead = 0
	for len(p) > 0 && p[0] == ' ' {
		f.prefixLead++
		p = p[1:]
	}
	f.prefixFull = len(p)
	p = strings.TrimRight(p, " ")
	f.prefix = p
	f.prefixLen = len(p)
}

// getc reads one byte, eof at the end or on error.
func (f *formatter) getc() int {
	b, err := f.in.ReadByte()
	if err != nil {
		if err != io.EOF && f.err == nil {
			f.err = err
		}
		return eof
	}
	return int(b)
}

func isSpace(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func (f *formatter) run(ctx context.Context, r io.Reader) {
	f.in = textfmt.NewReader(r)
	f.tabs = false
	f.otherIndent = 0
	f.nextChar = f.getPrefix()
	var tick textfmt.Tick
	for f.getParagraph() {
		f.fmtParagraph()
		f.putParagraph(len(f.words) - 1)
		if tick.Stop(ctx) || f.out.Failed() {
			return
		}
	}
}

// cur is the word being read; the words slice always holds one extra
// entry past the last complete word (GNU's word_limit).
func (f *formatter) limit() int { return len(f.words) - 1 }

func (f *formatter) getParagraph() bool {
	f.lastLineLength = 0
	c := f.nextChar
	for c == '\n' || c == eof || f.nextPrefixIndent < f.prefixLead ||
		f.inColumn < f.nextPrefixIndent+f.prefixFull {
		c = f.copyRest(c)
		if c == eof {
			f.nextChar = eof
			return false
		}
		f.out.WriteByte('\n')
		c = f.getPrefix()
	}
	f.prefixIndent = f.nextPrefixIndent
	f.firstIndent = f.inColumn
	f.buf = f.buf[:0]
	f.words = append(f.words[:0], word{})
	c = f.getLine(c)
	f.setOtherIndent(f.samePara(c))
	switch {
	case f.split:
	case f.crown:
		if f.samePara(c) {
			for {
				c = f.getLine(c)
				if !(f.samePara(c) && f.inColumn == f.otherIndent) {
					break
				}
			}
		}
	case f.tagged:
		if f.samePara(c) && f.inColumn != f.firstIndent {
			for {
				c = f.getLine(c)
				if !(f.samePara(c) && f.inColumn == f.otherIndent) {
					break
				}
			}
		}
	default:
		for f.samePara(c) && f.inColumn == f.otherIndent {
			c = f.getLine(c)
		}
	}
	last := &f.words[f.limit()-1]
	last.period, last.final = true, true
	f.nextChar = c
	return true
}

func (f *formatter) setOtherIndent(same bool) {
	switch {
	case f.split:
		f.otherIndent = f.firstIndent
	case f.crown:
		if same {
			f.otherIndent = f.inColumn
		} else {
			f.otherIndent = f.firstIndent
		}
	case f.tagged:
		if same && f.inColumn != f.firstIndent {
			f.otherIndent = f.inColumn
		} else if f.otherIndent == f.firstIndent {
			if f.firstIndent == 0 {
				f.otherIndent = defIndent
			} else {
				f.otherIndent = 0
			}
		}
	default:
		f.otherIndent = f.firstIndent
	}
}

func (f *formatter) copyRest(c int) int {
	f.outColumn = 0
	if f.inColumn > f.nextPrefixIndent || (c != '\n' && c != eof) {
		f.putSpace(f.nextPrefixIndent)
		for i := 0; f.outColumn != f.inColumn && i < len(f.prefix); i++ {
			f.out.WriteByte(f.prefix[i])
			f.outColumn++
		}
		if c != eof && c != '\n' {
			f.putSpace(f.inColumn - f.outColumn)
		}
		if c == eof && f.inColumn >= f.nextPrefixIndent+f.prefixLen {
			f.out.WriteByte('\n')
		}
	}
	for c != '\n' && c != eof {
		f.out.WriteByte(byte(c))
		c = f.getc()
	}
	return c
}

func (f *formatter) samePara(c int) bool {
	return f.nextPrefixIndent == f.prefixIndent &&
		f.inColumn >= f.nextPrefixIndent+f.prefixFull &&
		c != '\n' && c != eof
}

func (f *formatter) getLine(c int) int {
	for {
		w := &f.words[f.limit()]
		w.start = len(f.buf)
		for {
			if len(f.buf) == maxChars {
				f.setOtherIndent(true)
				f.flushParagraph()
				w = &f.words[f.limit()]
			}
			f.buf = append(f.buf, byte(c))
			c = f.getc()
			if c == eof || isSpace(c) {
				break
			}
		}
		w.length = len(f.buf) - w.start
		f.inColumn += w.length
		f.checkPunctuation(w)

		start := f.inColumn
		c = f.getSpace(c)
		w.space = f.inColumn - start
		w.final = c == eof || (w.period && (c == '\n' || w.space > 1))
		if c == '\n' || c == eof || f.uniform {
			if w.final {
				w.space = 2
			} else {
				w.space = 1
			}
		}
		if f.limit() == maxWords-2 {
			f.setOtherIndent(true)
			f.flushParagraph()
		}
		f.words = append(f.words, word{})
		if c == '\n' || c == eof {
			break
		}
	}
	return f.getPrefix()
}

func (f *formatter) getPrefix() int {
	f.inColumn = 0
	c := f.getSpace(f.getc())
	if f.prefixLen == 0 {
		f.nextPrefixIndent = min(f.prefixLead, f.inColumn)
		return c
	}
	f.nextPrefixIndent = f.inColumn
	for i := 0; i < len(f.prefix); i++ {
		if c != int(f.prefix[i]) {
			return c
		}
		f.inColumn++
		c = f.getc()
	}
	return f.getSpace(c)
}

func (f *formatter) getSpace(c int) int {
	for {
		switch c {
		case ' ':
			f.inColumn++
		case '\t':
			f.tabs = true
			f.inColumn = (f.inColumn/tabWidth + 1) * tabWidth
		default:
			return c
		}
		c = f.getc()
	}
}

func (f *formatter) checkPunctuation(w *word) {
	text := f.buf[w.start : w.start+w.length]
	first := text[0]
	w.paren = strings.IndexByte("(['`\"", first) >= 0
	fin := text[len(text)-1]
	w.punct = fin >= '!' && fin <= '/' || fin >= ':' && fin <= '@' || fin >= '[' && fin <= '`' || fin >= '{' && fin <= '~'
	end := len(text) - 1
	for end > 0 && strings.IndexByte(")]'\"", text[end]) >= 0 {
		end--
	}
	w.period = strings.IndexByte(".?!", text[end]) >= 0
}

// flushParagraph outputs part of an over-long paragraph, splitting at a
// cheap break near its end, and keeps the rest.
func (f *formatter) flushParagraph() {
	lim := f.limit()
	if lim == 0 {
		f.out.Write(f.buf)
		f.buf = f.buf[:0]
		return
	}
	f.fmtParagraph()
	split := lim
	best := cost(math.MaxInt64)
	for w := f.words[0].nextBreak; w != lim; w = f.words[w].nextBreak {
		d := f.words[w].bestCost - f.words[f.words[w].nextBreak].bestCost
		if d < best {
			split = w
			best = d
		}
		if best <= math.MaxInt64-lineCredit {
			best += lineCredit
		}
	}
	f.putParagraph(split)
	shift := f.words[split].start
	n := copy(f.buf, f.buf[shift:])
	f.buf = f.buf[:n]
	rest := f.words[split:]
	for i := range rest {
		rest[i].start -= shift
	}
	k := copy(f.words, rest)
	f.words = f.words[:k]
}

func (f *formatter) fmtParagraph() {
	lim := f.limit()
	ws := f.words
	ws[lim].bestCost = 0
	saved := ws[lim].length
	ws[lim].length = f.maxWidth
	for start := lim - 1; start >= 0; start-- {
		best := cost(math.MaxInt64)
		length := f.otherIndent
		if start == 0 {
			length = f.firstIndent
		}
		w := start
		length += ws[w].length
		for {
			w++
			wcost := f.lineCostOf(w, length) + ws[w].bestCost
			if start == 0 && f.lastLineLength > 0 {
				wcost += raggedCost(length - f.lastLineLength)
			}
			if wcost < best {
				best = wcost
				ws[start].nextBreak = w
				ws[start].lineLength = length
			}
			if w == lim {
				break
			}
			length += ws[w-1].space + ws[w].length
			if length >= f.maxWidth {
				break
			}
		}
		ws[start].bestCost = best + f.baseCost(start)
	}
	ws[lim].length = saved
}

func (f *formatter) baseCost(this int) cost {
	ws := f.words
	c := lineCost
	if this > 0 {
		prev := &ws[this-1]
		switch {
		case prev.period:
			if prev.final {
				c -= sentenceBonus
			} else {
				c += noBreakCost
			}
		case prev.punct:
			c -= punctBonus
		case this > 1 && ws[this-2].final:
			c += widowCost(prev.length)
		}
	}
	if ws[this].paren {
		c -= parenBonus
	} else if ws[this].final {
		c += orphanCost(ws[this].length)
	}
	return c
}

func (f *formatter) lineCostOf(next, length int) cost {
	lim := f.limit()
	if next == lim {
		return 0
	}
	c := shortCost(f.goalWidth - length)
	if f.words[next].nextBreak != lim {
		c += raggedCost(length - f.words[next].lineLength)
	}
	return c
}

func (f *formatter) putParagraph(finish int) {
	f.putLine(0, f.firstIndent)
	for w := f.words[0].nextBreak; w != finish; w = f.words[w].nextBreak {
		f.putLine(w, f.otherIndent)
	}
}

func (f *formatter) putLine(w, indent int) {
	f.outColumn = 0
	f.putSpace(f.prefixIndent)
	f.out.WriteString(f.prefix)
	f.outColumn += f.prefixLen
	f.putSpace(indent - f.outColumn)
	end := f.words[w].nextBreak - 1
	for ; w != end; w++ {
		f.putWord(w)
		f.putSpace(f.words[w].space)
	}
	f.putWord(w)
	f.lastLineLength = f.outColumn
	f.out.WriteByte('\n')
}

func (f *formatter) putWord(w int) {
	wd := &f.words[w]
	f.out.Write(f.buf[wd.start : wd.start+wd.length])
	f.outColumn += wd.length
}

func (f *formatter) putSpace(space int) {
	target := f.outColumn + space
	if f.tabs {
		tabTarget := target / tabWidth * tabWidth
		if f.outColumn+1 < tabTarget {
			for f.outColumn < tabTarget {
				f.out.WriteByte('\t')
				f.outColumn = (f.outColumn/tabWidth + 1) * tabWidth
			}
		}
	}
	for f.outColumn < target {
		f.out.WriteByte(' ')
		f.outColumn++
	}
}
