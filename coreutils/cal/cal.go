// Package cal implements cal and ncal as Debian ships them (the FreeBSD
// ncal of bsdmainutils/ncal): month and year calendars in cal's layout
// (weeks as lines) and ncal's (weeks as columns), Julian days, week
// numbers, Monday-first weeks and the 1752 calendar reform.
package cal

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

const usageText = `Usage: cal [general options] [-jy] [[month] year]
       cal [general options] [-j] [-m month] [year]
       ncal -C [general options] [-jy] [[month] year]
       ncal -C [general options] [-j] [-m month] [year]
       ncal [general options] [-bhJjpwySM] [-H yyyy-mm-dd] [-s country_code] [-W number of days] [[month] year]
       ncal [general options] [-Jeo] [year]
General options: [-31] [-A months] [-B months] [-d yyyy-mm]
`

const exitUsage = 64

var options = builtins.Options{List: []builtins.Option{
	{Short: '3'}, {Short: '1'}, {Short: 'A', Arg: builtins.RequiredArg}, {Short: 'B', Arg: builtins.RequiredArg},
	{Short: 'b'}, {Short: 'C'}, {Short: 'N'}, {Short: 'd', Arg: builtins.RequiredArg},
	{Short: 'h'}, {Short: 'H', Arg: builtins.RequiredArg}, {Short: 'j'}, {Short: 'm', Arg: builtins.RequiredArg},
	{Short: 'M'}, {Short: 'S'}, {Short: 'w'}, {Short: 'y'}, {Short: 'e'}, {Short: 'o'},
	{Short: 'W', Arg: builtins.RequiredArg},
}}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

var dayNames = []string{"Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"}

// layout is what the options ask for.
type layout struct {
	ncal, julian, monday, weeks bool
}

func usage(c *builtins.Call) int {
	fmt.Fprint(c.Stderr, usageText)
	return exitUsage
}

// Run is the cal and ncal command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		c.Errorf("%s", err.Error())
		return usage(c)
	}
	lay := layout{ncal: c.Name() == "ncal"}
	now := time.Now().In(timefmt.Location(c.LookupEnv))
	ty, tm := now.Year(), int(now.Month())
	before, after := 0, 0
	yearMode, easterKind := false, ""
	monthOpt := ""
	calMode := !lay.ncal
	for _, o := range opts {
		if o.Key == "C" {
			calMode = true
		}
	}
	for _, o := range opts {
		if calMode && !strings.Contains("31ABCdjmy", o.Key) {
			// cal takes only the general options and -jy.
			return usage(c)
		}
		switch o.Key {
		case "3":
			before, after = 1, 1
		case "1":
			before, after = 0, 0
		case "A", "B":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				c.Errorf("-%s argument must be a non-negative number", o.Key)
				return exitUsage
			}
			if o.Key == "A" {
				after = n
			} else {
				before = n
			}
		case "b", "C":
			lay.ncal = false
		case "N":
			lay.ncal = true
		case "d", "H":
			t, err := time.Parse("2006-01-02", o.Value)
			if err != nil {
				if t, err = time.Parse("2006-01", o.Value); err != nil {
					c.Errorf("bad date specification %s", o.Value)
					return exitUsage
				}
			}
			ty, tm = t.Year(), int(t.Month())
		case "j":
			lay.julian = true
		case "m":
			monthOpt = o.Value
		case "M":
			lay.monday = true
		case "S":
			lay.monday = false
		case "w":
			lay.weeks = true
		case "y":
			yearMode = true
		case "e", "o":
			easterKind = o.Key
		}
	}
	y, m := ty, tm
	switch len(operands) {
	case 0:
	case 1:
		v, ok := parseYear(c, operands[0])
		if !ok {
			return v
		}
		y = v
		if monthOpt == "" && easterKind == "" {
			yearMode = true
		}
	case 2:
		if monthOpt != "" {
			return usage(c)
		}
		monthOpt = operands[0]
		v, ok := parseYear(c, operands[1])
		if !ok {
			return v
		}
		y = v
	default:
		return usage(c)
	}
	if monthOpt != "" {
		v, ok := parseMonth(monthOpt)
		if !ok {
			c.Errorf("%s is neither a month number (1..12) nor a name", monthOpt)
			return exitUsage
		}
		m = v
	}
	out := textfmt.NewOutput(c.Stdout)
	switch {
	case easterKind != "":
		em, ed := easter(y)
		if easterKind == "o" {
			em, ed = orthodoxEaster(y)
		}
		fmt.Fprintf(out, "%02d/%02d/%02d\n", em, ed, y%100)
	case yearMode:
		lay.year(out, y)
	default:
		var blocks []block
		// A range that starts where a row of the year's layout starts
		// and fills a row is shown as the year is: a year heading over
		// each row, the months by name.
		first := ((m-before-1)%12 + 12) % 12
		yearStyle := before+after+1 >= lay.perRow() && first%lay.perRow() == 0
		for i := -before; i <= after; i++ {
			yy, mm := y, m+i
			for mm < 1 {
				mm += 12
				yy--
			}
			for mm > 12 {
				mm -= 12
				yy++
			}
			if yy < 0 || yy > 9999 {
				continue
			}
			title := monthNames[mm-1] + " " + strconv.Itoa(yy)
			if yearStyle {
				title = monthNames[mm-1]
			}
			blocks = append(blocks, lay.month(yy, mm, title))
		}
		lay.rows(out, blocks, yearStyle)
	}
	return out.Finish(c, 0)
}

func parseYear(c *builtins.Call, s string) (int, bool) {
	v, err := strconv.Atoi(s)
	if err != nil {
		c.Errorf("not a valid year %s", s)
		return exitUsage, false
	}
	if v < 1 || v > 9999 {
		c.Errorf("year `%s' not in range 1..9999", s)
		return exitUsage, false
	}
	return v, true
}

// parseMonth takes a number or a month name, full or abbreviated.
func parseMonth(s string) (int, bool) {
	if v, err := strconv.Atoi(s); err == nil {
		return v, v >= 1 && v <= 12
	}
	for i, n := range monthNames {
		if strings.EqualFold(s, n) || strings.EqualFold(s, n[:3]) {
			return i + 1, true
		}
	}
	return 0, false
}

// block is one month laid out: its title and its lines.
type block struct {
	title string
	year  int
	lines []string
}

// cellWidth is the width of one day.
func (l *layout) cellWidth() int {
	w := 2
	if l.julian {
		w = 3
	}
	if l.ncal {
		w++ // the space before each day
	}
	return w
}

// width is the width of a month's block without separators.
func (l *layout) width() int {
	if l.ncal {
		return 6 * l.cellWidth()
	}
	if l.weeks {
		return 7*l.cellWidth() + 6 + 5
	}
	return 7*l.cellWidth() + 6
}

func (l *layout) perRow() int {
	switch {
	case l.ncal && l.julian:
		return 3
	case l.ncal:
		return 4
	case l.julian:
		return 2
	}
	return 3
}

// grid places a month's days: cells[weekday row][week column], with
// rows in display order.
func (l *layout) grid(y, m int) ([7][6]string, []int) {
	var cells [7][6]string
	ds := days(y, m)
	first := jdn(y, m, ds[0])
	off := weekday(first)
	if l.monday {
		off = (off + 6) % 7
	}
	cw := l.cellWidth()
	if l.ncal {
		cw--
	}
	jan1 := jdn(y, 1, 1)
	var weeks []int
	for _, d := range ds {
		j := jdn(y, m, d)
		pos := j - first + off
		n := d
		if l.julian {
			n = j - jan1 + 1
		}
		cells[pos%7][pos/7] = fmt.Sprintf("%*d", cw, n)
		if col := pos / 7; col >= len(weeks) {
			mon := first - off + 7*col
			if !l.monday {
				mon++
			}
			weeks = append(weeks, isoWeek(mon))
		}
	}
	return cells, weeks
}

func (l *layout) month(y, m int, title string) block {
	cells, weeks := l.grid(y, m)
	cw := l.cellWidth()
	b := block{title: title, year: y}
	if l.ncal {
		for r := 0; r < 7; r++ {
			var s strings.Builder
			for col := 0; col < 6; col++ {
				v := cells[r][col]
				if v == "" {
					v = strings.Repeat(" ", cw-1)
				}
				s.WriteString(" " + v)
			}
			b.lines = append(b.lines, s.String())
		}
		if l.weeks {
			var s strings.Builder
			for col := 0; col < 6; col++ {
				if col < len(weeks) {
					fmt.Fprintf(&s, "%*d", cw, weeks[col])
				} else {
					s.WriteString(strings.Repeat(" ", cw))
				}
			}
			b.lines = append(b.lines, s.String())
		}
		return b
	}
	var head []string
	for i := 0; i < 7; i++ {
		head = append(head, fmt.Sprintf("%*s", cw, l.dayName(i)))
	}
	b.lines = append(b.lines, strings.Join(head, " "))
	if l.weeks {
		b.lines[0] = " w| " + b.lines[0] + " "
	}
	for col := 0; col < 6; col++ {
		var row []string
		for r := 0; r < 7; r++ {
			v := cells[r][col]
			if v == "" {
				v = strings.Repeat(" ", cw)
			}
			row = append(row, v)
		}
		line := strings.Join(row, " ")
		if l.weeks {
			// The week number before each week, as ncal -bw prints it.
			if col < len(weeks) {
				line = fmt.Sprintf("%2d| %s ", weeks[col], line)
			} else {
				line = "    " + line + " "
			}
		}
		b.lines = append(b.lines, line)
	}
	return b
}

// dayName is the name of the i-th day in display order.
func (l *layout) dayName(i int) string {
	if l.monday {
		return dayNames[(i+1)%7]
	}
	return dayNames[i]
}

func center(s string, w int) string {
	left := max((w-len(s))/2, 0)
	return strings.Repeat(" ", left) + s
}

func pad(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return s + strings.Repeat(" ", w-len(s))
}

// rows prints blocks perRow at a time, a blank line between rows.
func (l *layout) rows(out *textfmt.Output, blocks []block, yearHeads bool) {
	per := l.perRow()
	if len(blocks) <= 3 && !l.julian || len(blocks) <= 2 {
		per = max(per, len(blocks))
	}
	w := l.width()
	for i := 0; i < len(blocks); i += per {
		if i > 0 {
			out.WriteString("\n")
		}
		row := blocks[i:min(i+per, len(blocks))]
		if yearHeads && (i == 0 || blocks[i-1].year != row[0].year) {
			out.WriteString(center(strconv.Itoa(row[0].year), per*w) + "\n")
		}
		if l.ncal {
			out.WriteString("    ")
			for _, b := range row {
				out.WriteString(pad(b.title, w))
			}
			out.WriteString("\n")
			for r := range row[0].lines {
				if r < 7 {
					out.WriteString(l.dayName(r))
				} else {
					out.WriteString("  ")
				}
				for _, b := range row {
					out.WriteString(b.lines[r])
				}
				out.WriteString("\n")
			}
			continue
		}
		for _, b := range row {
			out.WriteString(pad(center(b.title, w), w) + "  ")
		}
		out.WriteString("\n")
		for r := range row[0].lines {
			for _, b := range row {
				out.WriteString(b.lines[r] + "  ")
			}
			out.WriteString("\n")
		}
	}
}

// year prints a whole year under its centred number.
func (l *layout) year(out *textfmt.Output, y int) {
	var blocks []block
	for m := 1; m <= 12; m++ {
		blocks = append(blocks, l.month(y, m, monthNames[m-1]))
	}
	l.rows(out, blocks, true)
}
