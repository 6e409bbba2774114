// Package column implements util-linux column (2.38, as Debian 12 ships
// it in bsdextrautils): columnate lists, or format tables.
package column

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/wcwidth"
)

const helpText = `
Usage:
 column [options] [<file>...]

Columnate lists.

Options:
 -t, --table                      create a table
 -n, --table-name <name>          table name for JSON output
 -O, --table-order <columns>      specify order of output columns
 -N, --table-columns <names>      comma separated columns names
 -l, --table-columns-limit <num>  maximal number of input columns
 -E, --table-noextreme <columns>  don't count long text from the columns to column width
 -d, --table-noheadings           don't print header
 -e, --table-header-repeat        repeat header for each page
 -H, --table-hide <columns>       don't print the columns
 -R, --table-right <columns>      right align text in these columns
 -T, --table-truncate <columns>   truncate text in the columns when necessary
 -W, --table-wrap <columns>       wrap text in the columns when necessary
 -L, --keep-empty-lines           don't ignore empty lines
 -J, --json                       use JSON output format for table

 -r, --tree <column>              column to use tree-like output for the table
 -i, --tree-id <column>           line ID to specify child-parent relation
 -p, --tree-parent <column>       parent to specify child-parent relation

 -c, --output-width <width>       width of output in number of characters
 -o, --output-separator <string>  columns separator for table output (default is two spaces)
 -s, --separator <string>         possible table delimiters
 -x, --fillrows                   fill rows before columns

 -h, --help                       display this help
 -V, --version                    display version

For more details see column(1).
`

// The order of the long options is util-linux's, which getopt follows
// when it lists the candidates of an ambiguous prefix.
var options = builtins.Options{List: []builtins.Option{
	{Short: 'c', Long: "columns", Arg: builtins.RequiredArg},
	{Short: 'x', Long: "fillrows"},
	{Short: 'h', Long: "help"},
	{Short: 'J', Long: "json"},
	{Short: 'L', Long: "keep-empty-lines"},
	{Short: 'o', Long: "output-separator", Arg: builtins.RequiredArg},
	{Short: 'c', Long: "output-width", Arg: builtins.RequiredArg},
	{Short: 's', Long: "separator", Arg: builtins.RequiredArg},
	{Short: 't', Long: "table"},
	{Short: 'N', Long: "table-columns", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "table-columns-limit", Arg: builtins.RequiredArg},
	{Short: 'H', Long: "table-hide", Arg: builtins.RequiredArg},
	{Short: 'n', Long: "table-name", Arg: builtins.RequiredArg},
	{Short: 'E', Long: "table-noextreme", Arg: builtins.RequiredArg},
	{Short: 'd', Long: "table-noheadings"},
	{Short: 'O', Long: "table-order", Arg: builtins.RequiredArg},
	{Short: 'R', Long: "table-right", Arg: builtins.RequiredArg},
	{Short: 'T', Long: "table-truncate", Arg: builtins.RequiredArg},
	{Short: 'W', Long: "table-wrap", Arg: builtins.RequiredArg},
	{Short: 'L', Long: "table-empty-lines"},
	{Short: 'e', Long: "table-header-repeat"},
	{Short: 'r', Long: "tree", Arg: builtins.RequiredArg},
	{Short: 'i', Long: "tree-id", Arg: builtins.RequiredArg},
	{Short: 'p', Long: "tree-parent", Arg: builtins.RequiredArg},
	{Short: 'V', Long: "version"},
}}

type config struct {
	table      bool
	json       bool
	tableName  string
	names      []string
	noHeadings bool
	hide       string
	right      string
	order      string
	limit      int
	keepEmpty  bool
	outSep     string
	inSep      string
	greedy     bool
	fillRows   bool
	width      int
}

// Run is the column command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, files, err := options.Parse(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, "", 1)
	}
	cfg := &config{tableName: "table", outSep: "  ", inSep: " \t", greedy: true, width: 80}
	if v, ok := c.LookupEnv("COLUMNS"); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			cfg.width = n
		}
	}
	for _, o := range opts {
		if st, done := textfmt.HelpVersion(c, o, helpText); done {
			return st
		}
		switch o.Key {
		case "columns", "output-width":
			n, err := strconv.ParseUint(o.Value, 10, 31)
			if err != nil {
				c.Errorf("invalid columns argument: '%s'", o.Value)
				return 1
			}
			cfg.width = int(n)
		case "table-noheadings":
			cfg.noHeadings = true
		case "table-noextreme", "table-header-repeat", "table-truncate", "table-wrap":
			// Width limits only matter on a terminal narrower than the
			// table; output here is never truncated.
		case "table-hide":
			cfg.hide = o.Value
		case "json":
			cfg.json = true
			cfg.table = true
		case "keep-empty-lines", "table-empty-lines":
			cfg.keepEmpty = true
		case "table-columns-limit":
			n, err := strconv.ParseUint(o.Value, 10, 31)
			if err != nil {
				c.Errorf("invalid columns limit argument: '%s'", o.Value)
				return 1
			}
			cfg.limit = int(n)
		case "table-columns":
			cfg.names = splitNames(o.Value)
		case "table-name":
			cfg.tableName = o.Value
		case "table-order":
			cfg.order = o.Value
		case "output-separator":
			cfg.outSep = o.Value
		case "table-right":
			cfg.right = o.Value
		case "separator":
			cfg.inSep = o.Value
			cfg.greedy = false
		case "table":
			cfg.table = true
		case "fillrows":
			cfg.fillRows = true
		case "tree", "tree-id", "tree-parent":
			c.Errorf("tree output is not supported")
			return 1
		}
	}
	if cfg.json && len(cfg.names) == 0 {
		c.Errorf("option --table-columns required for --json")
		return 1
	}
	if cfg.table && cfg.inSep == "" {
		c.Errorf("invalid input separator")
		return 1
	}

	var lines []string
	status := 0
	read := func(r io.Reader, name string) bool {
		br := textfmt.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if len(line) > 0 {
				line = strings.TrimSuffix(line, "\n")
				// Lines are C strings for util-linux: a NUL ends them.
				if i := strings.IndexByte(line, 0); i >= 0 {
					line = line[:i]
				}
				lines = append(lines, line)
			}
			if err != nil {
				if err != io.EOF {
					c.Errorf("read failed: %s", builtins.ErrText(err))
					return false
				}
				return true
			}
		}
	}
	if len(files) == 0 {
		if !read(c.Stdin, "") {
			return 1
		}
	}
	for _, name := range files {
		f, err := c.Open(name)
		if err != nil {
			c.FileError(name, err, 1)
			status = 1
			continue
		}
		ok := read(f, name)
		f.Close()
		if !ok {
			return 1
		}
	}
	if ctx.Err() != nil {
		return 1
	}
	out := textfmt.NewOutput(c.Stdout)
	if cfg.table {
		rows := cfg.splitRows(lines)
		if len(rows) == 0 {
			return status
		}
		if cfg.json {
			for i, r := range rows {
				if len(r) > len(cfg.names) {
					c.Errorf("line %d: for JSON the name of the column %d is required", i+2, len(cfg.names)+1)
					return 1
				}
			}
		}
		if st := cfg.printTable(c, out, rows); st != 0 {
			out.Flush()
			return st
		}
		return out.Finish(c, 0)
	}
	var ents []string
	maxLen := 0
	for _, l := range lines {
		if strings.TrimLeft(l, " \t\n\v\f\r") == "" {
			if !cfg.keepEmpty {
				continue
			}
			l = ""
		}
		l = escapeInvalid(l)
		ents = append(ents, l)
		if w := wcwidth.StringWidth(l); w > maxLen {
			maxLen = w
		}
	}
	if len(ents) > 0 {
		switch {
		case maxLen >= cfg.width:
			for _, e := range ents {
				out.WriteString(e)
				out.WriteByte('\n')
			}
		case cfg.fillRows:
			fillRows(out, ents, maxLen, cfg.width)
		default:
			fillCols(out, ents, maxLen, cfg.width)
		}
	}
	return out.Finish(c, status)
}

func splitNames(s string) []string {
	return strings.Split(s, ",")
}

// escapeInvalid shows bytes that are not UTF-8 as \xHH, as util-linux
// does when it converts input to wide characters.
func escapeInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

const tabCutoff = 8

func tabs(out *textfmt.Output, chcnt *int, endcol int) {
	for {
		cnt := (*chcnt + tabCutoff) &^ (tabCutoff - 1)
		if cnt > endcol {
			return
		}
		out.WriteByte('\t')
		*chcnt = cnt
	}
}

func fillCols(out *textfmt.Output, ents []string, maxLen, width int) {
	maxLen = (maxLen + tabCutoff) &^ (tabCutoff - 1)
	numCols := width / maxLen
	if numCols == 0 {
		numCols = 1
	}
	numRows := len(ents) / numCols
	if len(ents)%numCols != 0 {
		numRows++
	}
	for row := 0; row < numRows; row++ {
		endcol := maxLen
		chcnt := 0
		for base, col := row, 0; col < numCols; col++ {
			out.WriteString(ents[base])
			chcnt += wcwidth.StringWidth(ents[base])
			base += numRows
			if base >= len(ents) {
				break
			}
			tabs(out, &chcnt, endcol)
			endcol += maxLen
		}
		out.WriteByte('\n')
	}
}

func fillRows(out *textfmt.Output, ents []string, maxLen, width int) {
	maxLen = (maxLen + tabCutoff) &^ (tabCutoff - 1)
	numCols := width / maxLen
	endcol := maxLen
	chcnt, col := 0, 0
	for i, e := range ents {
		out.WriteString(e)
		chcnt += wcwidth.StringWidth(e)
		if i == len(ents)-1 {
			break
		}
		col++
		if col == numCols {
			chcnt, col = 0, 0
			endcol = maxLen
			out.WriteByte('\n')
		} else {
			tabs(out, &chcnt, endcol)
			endcol += maxLen
		}
	}
	if chcnt > 0 {
		out.WriteByte('\n')
	}
}

// row is one table line; a nil cell is missing.
type row []*string

func (cfg *config) splitRows(lines []string) []row {
	var rows []row
	for _, l := range lines {
		if strings.TrimLeft(l, " \t\n\v\f\r") == "" {
			if cfg.keepEmpty {
				rows = append(rows, row{})
			}
			continue
		}
		l = escapeInvalid(l)
		var r row
		isSep := func(b byte) bool { return strings.IndexByte(cfg.inSep, b) >= 0 }
		i := 0
		for {
			if cfg.greedy {
				for i < len(l) && isSep(l[i]) {
					i++
				}
				if i >= len(l) {
					break
				}
			}
			if cfg.limit > 0 && len(r) == cfg.limit-1 {
				cell := l[i:]
				r = append(r, &cell)
				break
			}
			j := i
			for j < len(l) && !isSep(l[j]) {
				j++
			}
			cell := l[i:j]
			r = append(r, &cell)
			if j >= len(l) {
				break
			}
			i = j + 1
		}
		if len(r) == 0 {
			if cfg.keepEmpty {
				rows = append(rows, row{})
			}
			continue
		}
		rows = append(rows, r)
	}
	return rows
}

// columnRef resolves a column given by name or 1-based number.
func columnRef(names []string, ref string, ncols int) (int, bool) {
	for i, n := range names {
		if n == ref {
			return i, true
		}
	}
	if n, err := strconv.Atoi(ref); err == nil && n > 0 {
		return n - 1, true
	}
	return 0, false
}

func (cfg *config) printTable(c *builtins.Call, out *textfmt.Output, rows []row) int {
	ncols := len(cfg.names)
	for _, r := range rows {
		if len(r) > ncols {
			ncols = len(r)
		}
	}
	names := make([]string, ncols)
	copy(names, cfg.names)
	right := make([]bool, ncols)
	hidden := make([]bool, ncols)
	mark := func(list string, set []bool) bool {
		if list == "" {
			return true
		}
		for _, ref := range strings.Split(list, ",") {
			i, ok := columnRef(cfg.names, ref, ncols)
			if !ok {
				c.Errorf("undefined column name '%s'", ref)
				return false
			}
			if i < ncols {
				set[i] = true
			}
		}
		return true
	}
	if !mark(cfg.right, right) || !mark(cfg.hide, hidden) {
		return 1
	}
	order := make([]int, 0, ncols)
	if cfg.order != "" {
		seen := make([]bool, ncols)
		for _, ref := range strings.Split(cfg.order, ",") {
			i, ok := columnRef(cfg.names, ref, ncols)
			if !ok {
				c.Errorf("undefined column name '%s'", ref)
				return 1
			}
			if i < ncols && !seen[i] {
				order = append(order, i)
				seen[i] = true
			}
		}
		for i := 0; i < ncols; i++ {
			if !seen[i] {
				order = append(order, i)
			}
		}
	} else {
		for i := 0; i < ncols; i++ {
			order = append(order, i)
		}
	}
	visible := order[:0:0]
	for _, i := range order {
		if !hidden[i] {
			visible = append(visible, i)
		}
	}
	if cfg.json {
		cfg.printJSON(out, rows, names, visible)
		return 0
	}
	header := len(cfg.names) > 0 && !cfg.noHeadings
	widths := make([]int, ncols)
	if len(cfg.names) > 0 {
		for i, n := range names {
			widths[i] = wcwidth.StringWidth(n)
		}
	}
	for _, r := range rows {
		for i, cell := range r {
			if cell != nil {
				if w := wcwidth.StringWidth(*cell); w > widths[i] {
					widths[i] = w
				}
			}
		}
	}
	var line []byte
	emit := func(cells []string) {
		line = line[:0]
		for k, i := range visible {
			s := cells[i]
			pad := widths[i] - wcwidth.StringWidth(s)
			last := k == len(visible)-1
			if right[i] {
				for ; pad > 0; pad-- {
					line = append(line, ' ')
				}
			}
			line = append(line, s...)
			if !last {
				for ; pad > 0; pad-- {
					line = append(line, ' ')
				}
				line = append(line, cfg.outSep...)
			}
		}
		line = append(line, '\n')
		out.Write(line)
	}
	if header {
		emit(names)
	}
	cells := make([]string, ncols)
	for _, r := range rows {
		for i := range cells {
			cells[i] = ""
			if i < len(r) && r[i] != nil {
				cells[i] = *r[i]
			}
		}
		emit(cells)
	}
	return 0
}

func jsonString(b *bufio.Writer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

func (cfg *config) printJSON(out *textfmt.Output, rows []row, names []string, visible []int) {
	b := out.Writer
	b.WriteString("{\n   ")
	jsonString(b, cfg.tableName)
	b.WriteString(": [\n")
	for ri, r := range rows {
		if ri == 0 {
			b.WriteString("      {\n")
		}
		for k, i := range visible {
			b.WriteString("         ")
			jsonString(b, strings.ToLower(names[i]))
			b.WriteString(": ")
			if i < len(r) && r[i] != nil && *r[i] != "" {
				jsonString(b, *r[i])
			} else {
				b.WriteString("null")
			}
			if k < len(visible)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		if ri < len(rows)-1 {
			b.WriteString("      },{\n")
		} else {
			b.WriteString("      }\n")
		}
	}
	b.WriteString("   ]\n}\n")
}
