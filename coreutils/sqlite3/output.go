package sqlite3

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	sqlite "github.com/ncruces/go-sqlite3"
	"golang.org/x/text/width"
)

type mode int

const (
	modeList mode = iota
	modeCSV
	modeJSON
	modeLine
	modeColumn
	modeTable
	modeBox
	modeMarkdown
	modeTabs
	modeQuote
	modeASCII
	modeHTML
	modeInsert
)

var modeNames = map[string]mode{
	"list": modeList, "csv": modeCSV, "json": modeJSON, "line": modeLine, "lines": modeLine,
	"column": modeColumn, "columns": modeColumn, "table": modeTable, "box": modeBox,
	"markdown": modeMarkdown, "tabs": modeTabs, "quote": modeQuote, "ascii": modeASCII,
	"html": modeHTML, "insert": modeInsert,
}

// modeOption maps the command-line options that set a mode.
var modeOption = map[string]mode{
	"list": modeList, "csv": modeCSV, "json": modeJSON, "line": modeLine, "column": modeColumn,
	"table": modeTable, "box": modeBox, "markdown": modeMarkdown, "tabs": modeTabs,
	"quote": modeQuote, "ascii": modeASCII, "html": modeHTML,
}

func (m mode) String() string {
	for name, v := range modeNames {
		if v == m && name != "lines" && name != "columns" {
			return name
		}
	}
	return "list"
}

func (s *shell) columnar() bool {
	return s.mode == modeColumn || s.mode == modeTable || s.mode == modeBox || s.mode == modeMarkdown
}

// setMode switches the output mode with its separators, as -MODE and
// .mode do.
func (s *shell) setMode(m mode) {
	s.mode = m
	switch m {
	case modeList:
		s.colSep, s.rowSep = "|", "\n"
	case modeCSV:
		s.colSep, s.rowSep = ",", "\n"
	case modeTabs:
		s.mode, s.colSep, s.rowSep = modeList, "\t", "\n"
	case modeQuote:
		s.colSep, s.rowSep = ",", "\n"
	case modeASCII:
		s.colSep, s.rowSep = "\x1f", "\x1e"
	}
}

// cell is one value of a row: its text as the shell shows it and its type.
type cell struct {
	text string
	typ  sqlite.Datatype
	f    float64
	blob []byte
}

func (s *shell) row(stmt *sqlite.Stmt, n int) []cell {
	r := make([]cell, n)
	for i := range r {
		t := stmt.ColumnType(i)
		r[i].typ = t
		switch t {
		case sqlite.NULL:
		case sqlite.BLOB:
			r[i].blob = stmt.ColumnBlob(i, nil)
			r[i].text = string(r[i].blob)
		case sqlite.FLOAT:
			r[i].f = stmt.ColumnFloat(i)
			r[i].text = stmt.ColumnText(i)
		default:
			r[i].text = stmt.ColumnText(i)
		}
	}
	return r
}

// printRows steps a statement and prints its rows in the current mode.
func (s *shell) printRows(stmt *sqlite.Stmt) error {
	n := stmt.ColumnCount()
	names := make([]string, n)
	for i := range names {
		names[i] = stmt.ColumnName(i)
	}
	var rows [][]cell
	count := 0
	columnar := s.columnar()
	for stmt.Step() {
		if s.ctx.Err() != nil {
			return sqlite.INTERRUPT
		}
		r := s.row(stmt, n)
		if columnar {
			rows = append(rows, r)
			continue
		}
		s.printRow(names, r, count)
		count++
	}
	if err := stmt.Err(); err != nil {
		if columnar {
			s.printColumnar(names, rows)
		}
		return err
	}
	if columnar {
		s.printColumnar(names, rows)
	} else if s.mode == modeJSON && count > 0 {
		s.out.WriteString("]\n")
	}
	return nil
}

func (s *shell) value(c cell) string {
	if c.typ == sqlite.NULL {
		return s.null
	}
	return c.text
}

func (s *shell) printRow(names []string, r []cell, count int) {
	w := s.out
	switch s.mode {
	case modeLine:
		width := 5
		for _, n := range names {
			width = max(width, utf8.RuneCountInString(n))
		}
		if count > 0 {
			w.WriteString(s.rowSep)
		}
		for i, n := range names {
			fmt.Fprintf(w, "%*s = %s%s", width, n, s.value(r[i]), s.rowSep)
		}
	case modeJSON:
		if count == 0 {
			w.WriteString("[{")
		} else {
			w.WriteString(",\n{")
		}
		for i, n := range names {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(jsonString(n))
			w.WriteByte(':')
			switch r[i].typ {
			case sqlite.NULL:
				w.WriteString("null")
			case sqlite.FLOAT:
				w.WriteString(realText(r[i].f))
			case sqlite.INTEGER:
				w.WriteString(r[i].text)
			default:
				w.WriteString(jsonString(r[i].text))
			}
		}
		w.WriteByte('}')
	case modeCSV:
		if count == 0 && s.headers {
			for i, n := range names {
				s.csvField(n, i < len(names)-1)
			}
			w.WriteString(s.rowSep)
		}
		for i, c := range r {
			if c.typ == sqlite.NULL {
				w.WriteString(s.null)
				if i < len(r)-1 {
					w.WriteString(s.colSep)
				}
				continue
			}
			s.csvField(c.text, i < len(r)-1)
		}
		w.WriteString(s.rowSep)
	case modeQuote, modeInsert:
		if count == 0 && s.headers {
			for i, n := range names {
				if i > 0 {
					w.WriteString(s.colSep)
				}
				w.WriteString(quoteSQL(n))
			}
			w.WriteString(s.rowSep)
		}
		for i, c := range r {
			if i > 0 {
				w.WriteString(s.colSep)
			}
			w.WriteString(literal(c))
		}
		w.WriteString(s.rowSep)
	case modeHTML:
		if count == 0 && s.headers {
			w.WriteString("<TR>")
			for _, n := range names {
				fmt.Fprintf(w, "<TH>%s</TH>\n", htmlEscape(n))
			}
			w.WriteString("</TR>\n")
		}
		w.WriteString("<TR>")
		for _, c := range r {
			fmt.Fprintf(w, "<TD>%s</TD>\n", htmlEscape(s.value(c)))
		}
		w.WriteString("</TR>\n")
	default: // list, tabs, ascii
		if count == 0 && s.headers {
			w.WriteString(strings.Join(names, s.colSep))
			w.WriteString(s.rowSep)
		}
		for i, c := range r {
			if i > 0 {
				w.WriteString(s.colSep)
			}
			w.WriteString(s.value(c))
		}
		w.WriteString(s.rowSep)
	}
}

// csvField writes one CSV field, quoted when the shell quotes it: empty,
// or holding a control character, space, quote, non-ASCII byte or the
// separator.
func (s *shell) csvField(v string, sep bool) {
	quote := v == "" || strings.Contains(v, s.colSep)
	for i := 0; i < len(v) && !quote; i++ {
		c := v[i]
		quote = c <= ' ' || c == '"' || c >= 0x7f
	}
	if quote {
		s.out.WriteString(`"` + strings.ReplaceAll(v, `"`, `""`) + `"`)
	} else {
		s.out.WriteString(v)
	}
	if sep {
		s.out.WriteString(s.colSep)
	}
}

// realText prints a floating-point value as the shell's JSON and quote
// modes do: integral values with ".0", others with 20 significant digits.
func realText(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "1e999"
	case math.IsInf(f, -1):
		return "-1e999"
	}
	if f == math.Trunc(f) && math.Abs(f) < 9.2e18 {
		return strconv.FormatInt(int64(f), 10) + ".0"
	}
	t := strconv.FormatFloat(f, 'g', 20, 64)
	if !strings.ContainsAny(t, ".e") {
		t += ".0"
	}
	return t
}

// literal is a value as an SQL literal (quote mode, .dump).
func literal(c cell) string {
	switch c.typ {
	case sqlite.NULL:
		return "NULL"
	case sqlite.INTEGER:
		return c.text
	case sqlite.FLOAT:
		return realText(c.f)
	case sqlite.BLOB:
		return "X'" + hex.EncodeToString(c.blob) + "'"
	}
	return quoteSQL(c.text)
}

func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func htmlEscape(s string) string {
	return strings.NewReplacer("<", "&lt;", "&", "&amp;", ">", "&gt;", `"`, "&quot;", "'", "&#39;").Replace(s)
}

// textWidth is the number of terminal columns text takes.
func textWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

func pad(s string, w int) string {
	if w < 0 {
		return strings.Repeat(" ", max(0, -w-textWidth(s))) + s
	}
	return s + strings.Repeat(" ", max(0, w-textWidth(s)))
}

// wrapText cuts a value into the lines a columnar mode shows: at its
// newlines, and every wrap columns when wrap is set.
func wrapText(t string, wrap int) []string {
	var out []string
	for _, line := range strings.Split(t, "\n") {
		for wrap > 0 && textWidth(line) > wrap {
			w, cut := 0, 0
			for i, r := range line {
				rw := textWidth(string(r))
				if w+rw > wrap {
					cut = i
					break
				}
				w += rw
			}
			out = append(out, line[:cut])
			line = line[cut:]
		}
		out = append(out, line)
	}
	return out
}

// center pads t to w columns with the text in the middle, as table, box
// and markdown modes print headers.
func center(t string, w int) string {
	n := textWidth(t)
	if n >= w {
		return t
	}
	return strings.Repeat(" ", (w-n)/2) + t + strings.Repeat(" ", (w-n+1)/2)
}

// printColumnar prints the rows of a statement in column, table, box or
// markdown mode, each column as wide as its widest value (cut at the
// wrap width set by .mode).
func (s *shell) printColumnar(names []string, rows [][]cell) {
	if len(rows) == 0 {
		return
	}
	n := len(names)
	cells := make([][][]string, len(rows))
	for j, r := range rows {
		cells[j] = make([][]string, n)
		for i := range r {
			cells[j][i] = wrapText(s.value(r[i]), s.wrap)
		}
	}
	heads := make([][]string, n)
	for i := range names {
		heads[i] = wrapText(names[i], s.wrap)
	}
	widths := make([]int, n)
	right := make([]bool, n)
	for i := range widths {
		if i < len(s.widths) && s.widths[i] != 0 {
			widths[i] = s.widths[i]
			if widths[i] < 0 {
				widths[i], right[i] = -widths[i], true
			}
			continue
		}
		for _, l := range heads[i] {
			widths[i] = max(widths[i], textWidth(l))
		}
		for _, r := range cells {
			for _, l := range r[i] {
				widths[i] = max(widths[i], textWidth(l))
			}
		}
	}
	line := func(left, fill, mid, rightEnd string) {
		s.out.WriteString(left)
		for i, w := range widths {
			if i > 0 {
				s.out.WriteString(mid)
			}
			s.out.WriteString(strings.Repeat(fill, w+2))
		}
		s.out.WriteString(rightEnd + "\n")
	}
	// rowOut prints one row, over as many lines as its tallest cell.
	rowOut := func(vals [][]string, sep, left, rightEnd string, head bool) {
		height := 1
		for _, v := range vals {
			height = max(height, len(v))
		}
		for k := 0; k < height; k++ {
			s.out.WriteString(left)
			for i, v := range vals {
				if i > 0 {
					s.out.WriteString(sep)
				}
				t := ""
				if k < len(v) {
					t = v[k]
				}
				switch {
				case head && s.mode != modeColumn:
					t = center(t, widths[i])
				case right[i]:
					t = pad(t, -widths[i])
				default:
					t = pad(t, widths[i])
				}
				s.out.WriteString(t)
			}
			s.out.WriteString(rightEnd)
		}
	}
	switch s.mode {
	case modeColumn:
		if s.headers {
			rowOut(heads, "  ", "", "\n", true)
			dashes := make([][]string, n)
			for i, w := range widths {
				dashes[i] = []string{strings.Repeat("-", w)}
			}
			rowOut(dashes, "  ", "", "\n", false)
		}
		for _, r := range cells {
			rowOut(r, "  ", "", "\n", false)
		}
	case modeTable:
		line("+", "-", "+", "+")
		rowOut(heads, " | ", "| ", " |\n", true)
		line("+", "-", "+", "+")
		for _, r := range cells {
			rowOut(r, " | ", "| ", " |\n", false)
		}
		line("+", "-", "+", "+")
	case modeBox:
		line("┌", "─", "┬", "┐")
		rowOut(heads, " │ ", "│ ", " │\n", true)
		line("├", "─", "┼", "┤")
		for _, r := range cells {
			rowOut(r, " │ ", "│ ", " │\n", false)
		}
		line("└", "─", "┴", "┘")
	case modeMarkdown:
		rowOut(heads, " | ", "| ", " |\n", true)
		line("|", "-", "|", "|")
		for _, r := range cells {
			rowOut(r, " | ", "| ", " |\n", false)
		}
	}
}
