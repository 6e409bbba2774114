package pr

import (
	"fmt"
	"strings"

	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
)

const helpText = `Usage: pr [OPTION]... [FILE]...
Paginate or columnate FILE(s) for printing.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  +FIRST_PAGE[:LAST_PAGE], --pages=FIRST_PAGE[:LAST_PAGE]
                    begin [stop] printing with page FIRST_[LAST_]PAGE
  -COLUMN, --columns=COLUMN
                    output COLUMN columns and print columns down,
                    unless -a is used. Balance number of lines in the
                    columns on each page
  -a, --across      print columns across rather than down, used together
                    with -COLUMN
  -d, --double-space
                    double space the output
  -D, --date-format=FORMAT
                    use FORMAT for the header date
  -h, --header=HEADER
                    use a centered HEADER instead of filename in page header,
                    -h "" prints a blank line, don't use -h""
  -J, --join-lines  merge full lines, turns off -W line truncation, no column
                    alignment, --sep-string[=STRING] sets separators
  -l, --length=PAGE_LENGTH
                    set the page length to PAGE_LENGTH (66) lines
                    (default number of lines of text 56, and with -F 63).
                    implies -t if PAGE_LENGTH <= 10
  -m, --merge       print all files in parallel, one in each column,
                    truncate lines, but join lines of full length with -J
  -n, --number-lines[=SEP[DIGITS]]
                    number lines, use DIGITS (5) digits, then SEP (TAB),
                    default counting starts with 1st line of input file
  -N, --first-line-number=NUMBER
                    start counting with NUMBER at 1st line of first
                    page printed (see +FIRST_PAGE)
  -o, --indent=MARGIN
                    offset each line with MARGIN (zero) spaces, do not
                    affect -w or -W, MARGIN will be added to PAGE_WIDTH
  -r, --no-file-warnings
                    omit warning when a file cannot be opened
  -s[CHAR], --separator[=CHAR]
                    separate columns by a single character, default for CHAR
                    is the <TAB> character without -w and 'no char' with -w.
                    -s[CHAR] turns off line truncation of all 3 column
                    options (-COLUMN|-a -COLUMN|-m) except -w is set
  -S[STRING], --sep-string[=STRING]
                    separate columns by STRING,
                    without -S: Default separator <TAB> with -J and <space>
                    otherwise (same as -S" "), no effect on column options
  -t, --omit-header  omit page headers and trailers;
                     implied if PAGE_LENGTH <= 10
  -T, --omit-pagination
                    omit page headers and trailers, eliminate any pagination
                    by form feeds set in input files
  -w, --width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters for
                    multiple text-column output only, -s[char] turns off (72)
  -W, --page-width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters always,
                    truncate lines, except -J option is set, no interference
                    with -S or -s
      --help        display this help and exit
      --version     output version information and exit
`

// pager writes the pages of one file (or of the merged files).
type pager struct {
	cfg      *config
	out      *textfmt.Output
	name     string
	date     string
	page     int
	lineNum  int
	colWidth int
	sep      string
	pad      bool
}

func (cfg *config) pager(out *textfmt.Output, name, date string) *pager {
	p := &pager{cfg: cfg, out: out, name: name, date: date, lineNum: cfg.firstNum}
	if cfg.header != nil {
		p.name = *cfg.header
	}
	cols := cfg.columns
	if cfg.merge {
		cols = 0 // set per merge
	}
	p.setColumns(cols)
	return p
}

// setColumns computes the column width and separator for n columns.
func (p *pager) setColumns(n int) {
	cfg := p.cfg
	p.sep, p.pad = " ", true
	switch {
	case cfg.sepString != nil:
		p.sep = *cfg.sepString
	case cfg.sepChar != nil:
		p.sep, p.pad = string(*cfg.sepChar), false
	case cfg.noTruncate:
		p.sep, p.pad = "\t", false
	}
	if n > 1 {
		p.colWidth = (cfg.width - (n-1)*len(p.sep)) / n
		if cfg.number {
			p.colWidth -= cfg.numDigits + 1
		}
	}
}

func (p *pager) bodyLines() int {
	if p.cfg.omitHeader {
		return p.cfg.pageLen
	}
	return p.cfg.pageLen - 10
}

// printing reports whether the current page is in the range asked for.
func (p *pager) printing() bool {
	return p.page >= p.cfg.firstPage && (p.cfg.lastPage == 0 || p.page <= p.cfg.lastPage)
}

func (p *pager) header() {
	if p.cfg.omitHeader || !p.printing() {
		return
	}
	page := fmt.Sprintf("Page %d", p.page)
	avail := max(p.cfg.width-len([]rune(p.date))-len([]rune(p.name))-len(page), 0)
	lhs := avail / 2
	rhs := avail - lhs
	fmt.Fprintf(p.out, "\n\n%*s%s%*s%s%*s%s\n\n\n", p.cfg.margin, "", p.date, lhs, " ", p.name, rhs, " ", page)
}

// trailer pads the page to its length.
func (p *pager) trailer(used int) {
	if p.cfg.omitHeader || !p.printing() {
		return
	}
	for i := used; i < p.bodyLines()+5; i++ {
		p.out.WriteByte('\n')
	}
}

// row writes one output line of cells (nil cells are empty columns).
func (p *pager) row(cells []*string) {
	if !p.printing() {
		return
	}
	last := -1
	for i, c := range cells {
		if c != nil {
			last = i
		}
	}
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", p.cfg.margin))
	pos := 0
	for i := 0; i <= last; i++ {
		text := ""
		if cells[i] != nil {
			text = *cells[i]
			if p.cfg.number {
				text = fmt.Sprintf("%*d%c", p.cfg.numDigits, p.lineNum, p.cfg.numSep) + text
				p.lineNum++
			}
		}
		if len(cells) > 1 && !p.cfg.noTruncate && p.pad && len(text) > p.colWidth {
			text = text[:p.colWidth]
		}
		b.WriteString(text)
		pos += width(text, pos)
		if i == last {
			break
		}
		if !p.pad {
			b.WriteString(p.sep)
			pos += len(p.sep)
			continue
		}
		goal := (i + 1) * (p.colWidth + len(p.sep))
		sepText := p.sep
		if strings.TrimLeft(sepText, " ") != "" || sepText == "" {
			// A visible separator follows the padded column.
			goal -= len(p.sep)
		} else {
			sepText = ""
		}
		whiteTo(&b, pos, goal)
		pos = max(pos, goal)
		b.WriteString(sepText)
		pos += len(sepText)
	}
	b.WriteByte('\n')
	p.out.WriteString(b.String())
	if p.cfg.double {
		p.out.WriteByte('\n')
	}
}

// width is the columns text takes from pos (tabs to multiples of 8).
func width(text string, pos int) int {
	w := 0
	for _, r := range text {
		if r == '\t' {
			w = (pos+w)/8*8 + 8 - pos
			continue
		}
		w++
	}
	return w
}

// whiteTo pads from column h to column goal with tabs, then spaces.
func whiteTo(b *strings.Builder, h, goal int) {
	for goal-h > 1 {
		next := (h/8 + 1) * 8
		if next > goal {
			break
		}
		b.WriteByte('\t')
		h = next
	}
	for ; h < goal; h++ {
		b.WriteByte(' ')
	}
}

// perPage is the number of rows of text on a page.
func (p *pager) perPage() int {
	n := p.bodyLines()
	if p.cfg.double {
		n = (n + 1) / 2
	}
	return max(n, 1)
}

// emit writes one page of rows.
func (p *pager) emit(rows [][]*string) {
	p.page++
	p.header()
	for _, r := range rows {
		p.row(r)
	}
	used := len(rows)
	if p.cfg.double {
		used *= 2
	}
	p.trailer(used)
}

// file paginates one file's lines in the configured columns.
func (p *pager) file(lines []string) {
	cols := p.cfg.columns
	rowsPer := p.perPage()
	if len(lines) == 0 {
		p.emit(nil)
		return
	}
	for len(lines) > 0 {
		n := min(len(lines), rowsPer*cols)
		chunk := lines[:n]
		lines = lines[n:]
		var rows [][]*string
		switch {
		case cols == 1:
			for i := range chunk {
				rows = append(rows, []*string{&chunk[i]})
			}
		case p.cfg.across:
			for i := 0; i < len(chunk); i += cols {
				var r []*string
				for j := i; j < i+cols; j++ {
					if j < len(chunk) {
						r = append(r, &chunk[j])
					} else {
						r = append(r, nil)
					}
				}
				rows = append(rows, r)
			}
		default:
			// Down the columns, balanced on a short page.
			sizes := make([]int, cols)
			if n == rowsPer*cols {
				for k := range sizes {
					sizes[k] = rowsPer
				}
			} else {
				for k := range sizes {
					sizes[k] = n / cols
					if k < n%cols {
						sizes[k]++
					}
				}
			}
			nrows := sizes[0]
			rows = make([][]*string, nrows)
			idx := 0
			for k := 0; k < cols; k++ {
				for r := 0; r < nrows; r++ {
					if rows[r] == nil {
						rows[r] = make([]*string, cols)
					}
					if r < sizes[k] {
						rows[r][k] = &chunk[idx]
						idx++
					}
				}
			}
		}
		p.emit(rows)
	}
}

// merged prints the files side by side, one per column.
func (p *pager) merged(files [][]string) {
	p.setColumns(len(files))
	p.cfg.columns = len(files)
	total := 0
	for _, f := range files {
		total = max(total, len(f))
	}
	rowsPer := p.perPage()
	for start := 0; start < total || start == 0; start += rowsPer {
		var rows [][]*string
		for r := start; r < min(start+rowsPer, total); r++ {
			row := make([]*string, len(files))
			for k, f := range files {
				if r < len(f) {
					row[k] = &f[r]
				}
			}
			rows = append(rows, row)
		}
		p.emit(rows)
		if total == 0 {
			break
		}
	}
}
