// Package timefmt gives the file commands GNU's view of time: the zone
// from the call's TZ (UTC when unset), and strftime with GNU's flags,
// widths and %N.
package timefmt

import (
	"encoding/binary"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // zones do not depend on the host's zoneinfo files
)

// Location returns the zone named by TZ: UTC when unset or empty, a zone
// from the time zone database, or a POSIX TZ string ("EST5EDT", "CET-1").
func Location(getenv func(string) (string, bool)) *time.Location {
	tz, ok := getenv("TZ")
	if !ok {
		return time.UTC
	}
	return LoadTZ(tz)
}

// LoadTZ interprets a TZ value.
func LoadTZ(tz string) *time.Location {
	tz = strings.TrimPrefix(tz, ":")
	if tz == "" || tz == "UTC" || tz == "UTC0" {
		return time.UTC
	}
	if !strings.HasPrefix(tz, "/") && !strings.Contains(tz, "..") && tz != "Local" {
		if loc, err := time.LoadLocation(tz); err == nil {
			return loc
		}
	}
	return posixTZ(tz)
}

// posixTZ builds a zone from a POSIX TZ string. The standard name and
// offset are read here; DST rules are handed to Go's own TZ-string
// support through a minimal TZif image.
func posixTZ(tz string) *time.Location {
	name, rest := tzName(tz)
	if name == "" {
		return time.FixedZone("UTC", 0)
	}
	off, rest, ok := tzOffset(rest)
	if !ok {
		return time.FixedZone(name, 0)
	}
	std := -off
	if rest == "" {
		return time.FixedZone(name, std)
	}
	// A DST part: use TZif with the string as footer; fall back to the
	// standard zone if Go rejects it.
	data := tzif(name, std, tz)
	if loc, err := time.LoadLocationFromTZData(tz, data); err == nil {
		return loc
	}
	return time.FixedZone(name, std)
}

func tzName(s string) (string, string) {
	if strings.HasPrefix(s, "<") {
		if i := strings.IndexByte(s, '>'); i > 0 {
			return s[1:i], s[i+1:]
		}
		return "", s
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i], s[i:]
}

// tzOffset parses [+-]hh[:mm[:ss]] (west of UTC positive) and returns
// seconds.
func tzOffset(s string) (int, string, bool) {
	sign := 1
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	total := 0
	for part := 0; part < 3; part++ {
		if part > 0 {
			if s == "" || s[0] != ':' {
				break
			}
			s = s[1:]
		}
		i := 0
		for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, s, part > 0
		}
		v, _ := strconv.Atoi(s[:i])
		total += v * []int{3600, 60, 1}[part]
		s = s[i:]
	}
	return sign * total, s, true
}

// tzif returns a TZif version 2 image with no transitions, one standard
// type, and footer as its TZ rule.
func tzif(abbr string, offset int, footer string) []byte {
	var b []byte
	header := func(v byte, timeSize int) {
		b = append(b, "TZif"...)
		b = append(b, v)
		b = append(b, make([]byte, 15)...)
		counts := []uint32{0, 0, 0, 0, 1, uint32(len(abbr) + 1)}
		for _, c := range counts {
			b = binary.BigEndian.AppendUint32(b, c)
		}
		_ = timeSize
		b = binary.BigEndian.AppendUint32(b, uint32(int32(offset)))
		b = append(b, 0, 0)
		b = append(b, abbr...)
		b = append(b, 0)
	}
	header('2', 4)
	header('2', 8)
	b = append(b, '\n')
	b = append(b, footer...)
	b = append(b, '\n')
	return b
}

var (
	shortDays   = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longDays    = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	shortMonths = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	longMonths  = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// ShortMonth is the C locale's abbreviated month name.
func ShortMonth(m time.Month) string { return shortMonths[m-1] }

// Strftime formats t as GNU strftime (as date and ls --time-style=+FMT
// use it) in the C locale.
func Strftime(t time.Time, format string) string {
	var b strings.Builder
	b.Grow(len(format) + 16)
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		var pad byte // 0: default, '-', '_', '0'
		upperCase, swapCase := false, false
	flags:
		for ; i < len(format); i++ {
			switch format[i] {
			case '-', '_', '0':
				pad = format[i]
			case '^':
				upperCase = true
			case '#':
				swapCase = true
			default:
				break flags
			}
		}
		width := -1
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			if width < 0 {
				width = 0
			}
			width = width*10 + int(format[i]-'0')
			i++
		}
		colons := 0
		for i < len(format) && format[i] == ':' {
			colons++
			i++
		}
		var modifier byte
		if i < len(format) && (format[i] == 'E' || format[i] == 'O') {
			modifier = format[i]
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		conv := format[i]
		if modifier == 'E' && strings.IndexByte("cCxXyY", conv) < 0 || modifier == 'O' && strings.IndexByte("deHIlmMSuUVwWy", conv) < 0 {
			b.WriteString(format[start : i+1])
			continue
		}
		if colons > 0 && conv != 'z' {
			b.WriteString(format[start : i+1])
			continue
		}
		num := func(v int, defWidth int, defPad byte) {
			writeNum(&b, v, width, defWidth, pad, defPad)
		}
		text := func(s string) {
			if upperCase {
				s = strings.ToUpper(s)
			} else if swapCase {
				s = swap(s)
			}
			writeText(&b, s, width, pad)
		}
		switch conv {
		case '%':
			text("%")
		case 'a':
			text(shortDays[t.Weekday()])
		case 'A':
			text(longDays[t.Weekday()])
		case 'b', 'h':
			text(shortMonths[t.Month()-1])
		case 'B':
			text(longMonths[t.Month()-1])
		case 'c':
			text(Strftime(t, "%a %b %e %H:%M:%S %Y"))
		case 'C':
			num(floorDiv(t.Year(), 100), 2, '0')
		case 'd':
			num(t.Day(), 2, '0')
		case 'D':
			text(Strftime(t, "%m/%d/%y"))
		case 'e':
			num(t.Day(), 2, '_')
		case 'F':
			// GNU: the year part takes the width minus 6.
			yw := -1
			if width >= 0 {
				yw = max(width-6, 0)
			}
			var y strings.Builder
			writeNum(&y, t.Year(), yw, 4, pad, '0')
			b.WriteString(y.String() + Strftime(t, "-%m-%d"))
		case 'g':
			y, _ := t.ISOWeek()
			num(((y%100)+100)%100, 2, '0')
		case 'G':
			y, _ := t.ISOWeek()
			num(y, 4, '0')
		case 'H':
			num(t.Hour(), 2, '0')
		case 'I':
			num(hour12(t.Hour()), 2, '0')
		case 'j':
			num(t.YearDay(), 3, '0')
		case 'k':
			num(t.Hour(), 2, '_')
		case 'l':
			num(hour12(t.Hour()), 2, '_')
		case 'm':
			num(int(t.Month()), 2, '0')
		case 'M':
			num(t.Minute(), 2, '0')
		case 'n':
			text("\n")
		case 'N':
			digits := 9
			if width > 0 {
				digits = width
			}
			s := strconv.Itoa(t.Nanosecond())
			s = strings.Repeat("0", 9-len(s)) + s
			if digits <= 9 {
				s = s[:digits]
			} else {
				s += strings.Repeat("0", digits-9)
			}
			b.WriteString(s)
		case 'p':
			if swapCase {
				text(strings.ToLower(ampm(t.Hour())))
			} else {
				text(ampm(t.Hour()))
			}
		case 'P':
			text(strings.ToLower(ampm(t.Hour())))
		case 'q':
			num((int(t.Month())-1)/3+1, 1, '0')
		case 'r':
			text(Strftime(t, "%I:%M:%S %p"))
		case 'R':
			text(Strftime(t, "%H:%M"))
		case 's':
			num64(&b, t.Unix(), width, pad)
		case 'S':
			num(t.Second(), 2, '0')
		case 't':
			text("\t")
		case 'T':
			text(Strftime(t, "%H:%M:%S"))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			num(wd, 1, '0')
		case 'U':
			num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0')
		case 'V':
			_, w := t.ISOWeek()
			num(w, 2, '0')
		case 'w':
			num(int(t.Weekday()), 1, '0')
		case 'W':
			num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0')
		case 'x':
			text(Strftime(t, "%m/%d/%y"))
		case 'X':
			text(Strftime(t, "%H:%M:%S"))
		case 'y':
			num(((t.Year()%100)+100)%100, 2, '0')
		case 'Y':
			num(t.Year(), 4, '0')
		case 'z':
			_, off := t.Zone()
			writeText(&b, zone(off, colons), width, pad)
		case 'Z':
			name, _ := t.Zone()
			switch {
			case swapCase:
				name = strings.ToLower(name)
			case upperCase:
				name = strings.ToUpper(name)
			}
			writeText(&b, name, width, pad)
		default:
			b.WriteString(format[start : i+1])
		}
	}
	return b.String()
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func hour12(h int) int {
	h %= 12
	if h == 0 {
		return 12
	}
	return h
}

func ampm(h int) string {
	if h < 12 {
		return "AM"
	}
	return "PM"
}

func swap(s string) string {
	if strings.ToUpper(s) == s {
		return strings.ToLower(s)
	}
	return strings.ToUpper(s)
}

func zone(off, colons int) string {
	sign := byte('+')
	if off < 0 {
		sign = '-'
		off = -off
	}
	h, m, s := off/3600, off/60%60, off%60
	two := func(v int) string { return string([]byte{byte('0' + v/10), byte('0' + v%10)}) }
	switch colons {
	case 0:
		return string(sign) + two(h) + two(m)
	case 1:
		return string(sign) + two(h) + ":" + two(m)
	case 2:
		return string(sign) + two(h) + ":" + two(m) + ":" + two(s)
	default:
		switch {
		case s != 0:
			return string(sign) + two(h) + ":" + two(m) + ":" + two(s)
		case m != 0:
			return string(sign) + two(h) + ":" + two(m)
		}
		return string(sign) + two(h)
	}
}

func writeNum(b *strings.Builder, v, width, defWidth int, pad, defPad byte) {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.Itoa(v)
	if pad == 0 {
		pad = defPad
	}
	w := defWidth
	if width >= 0 {
		w = width
	}
	if pad == '-' {
		w = 0
	}
	if neg {
		w--
	}
	switch pad {
	case '_':
		if neg {
			s = "-" + s
		}
		for n := len(s); n < w+boolInt(neg); n++ {
			b.WriteByte(' ')
		}
		b.WriteString(s)
		return
	default:
		if neg {
			b.WriteByte('-')
		}
		for n := len(s); n < w; n++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}

func num64(b *strings.Builder, v int64, width int, pad byte) {
	padded(b, strconv.FormatInt(v, 10), width, pad, '0')
}

func writeText(b *strings.Builder, s string, width int, pad byte) {
	padded(b, s, width, pad, ' ')
}

// padded writes s right-aligned in width, filled with fill unless the pad
// flag says otherwise: '_' blanks, '0' zeros, '-' no padding.
func padded(b *strings.Builder, s string, width int, pad, fill byte) {
	switch pad {
	case '-':
		width = 0
	case '_':
		fill = ' '
	case '0':
		fill = '0'
	}
	for n := len(s); n < width; n++ {
		b.WriteByte(fill)
	}
	b.WriteString(s)
}
