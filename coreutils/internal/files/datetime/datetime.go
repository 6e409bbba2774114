// Package datetime parses the date strings GNU tools accept in -d/--date
// (parse_datetime), for the forms scripts use: ISO 8601 dates and times
// with optional zones ("2024-01-02 03:04:05", "2024-01-02T03:04:05Z",
// "...+02:00"), "@EPOCH", month names ("Jan 2 2024", "2 January 2024"),
// US dates (01/02/2024), times with am/pm, "now", "today", "yesterday",
// "tomorrow", "noon", "midnight", weekdays ("monday", "next friday"), and
// relative items ("1 hour ago", "+2 days", "last week", "3 months").
package datetime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/bashbox/bashbox/internal/lazy"
)

// ErrInvalid is a string that is not a date.
var ErrInvalid = errors.New("invalid date")

type tokKind int

const (
	tNum tokKind = iota
	tWord
	tSym
)

type token struct {
	kind tokKind
	text string
	num  int64
	// digits is the number of digits of a number token.
	digits int
}

func tokenize(s string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ',':
			i++
		case c == '(':
			// Comments in parentheses are ignored.
			depth := 0
			for i < len(s) {
				if s[i] == '(' {
					depth++
				} else if s[i] == ')' {
					depth--
					if depth == 0 {
						i++
						break
					}
				}
				i++
			}
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			n, err := strconv.ParseInt(s[i:j], 10, 64)
			if err != nil {
				return nil, ErrInvalid
			}
			toks = append(toks, token{kind: tNum, text: s[i:j], num: n, digits: j - i})
			i = j
		case unicode.IsLetter(rune(c)):
			j := i
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '.') {
				j++
			}
			toks = append(toks, token{kind: tWord, text: strings.ToLower(strings.TrimSuffix(s[i:j], "."))})
			i = j
		default:
			toks = append(toks, token{kind: tSym, text: string(c)})
			i++
		}
	}
	return toks, nil
}

// The word tables are built at first use: a process that parses no date
// (most of them) does not build them.
var months = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
		"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
		"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
		"december": 12, "dec": 12,
	}
}}

var weekdays = lazy.Value[map[string]time.Weekday]{New: func() map[string]time.Weekday {
	return map[string]time.Weekday{
		"sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2,
		"wednesday": 3, "wed": 3, "wednes": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
		"friday": 5, "fri": 5, "saturday": 6, "sat": 6,
	}
}}

var units = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"year": "y", "years": "y", "month": "M", "months": "M", "fortnight": "f", "fortnights": "f",
		"week": "w", "weeks": "w", "day": "d", "days": "d", "hour": "h", "hours": "h",
		"minute": "m", "minutes": "m", "min": "m", "mins": "m", "second": "s", "seconds": "s", "sec": "s", "secs": "s",
	}
}}

var ordinals = lazy.Value[map[string]int64]{New: func() map[string]int64 {
	return map[string]int64{
		"last": -1, "this": 0, "next": 1, "first": 1, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
		"seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
	}
}}

// zones are the zone abbreviations recognised, in seconds east of UTC.
var zones = lazy.Value[map[string]int]{New: func() map[string]int {
	return map[string]int{
		"utc": 0, "ut": 0, "gmt": 0, "z": 0, "wet": 0, "bst": 3600, "cet": 3600, "cest": 7200, "eet": 7200, "eest": 10800,
		"est": -5 * 3600, "edt": -4 * 3600, "cst": -6 * 3600, "cdt": -5 * 3600, "mst": -7 * 3600, "mdt": -6 * 3600,
		"pst": -8 * 3600, "pdt": -7 * 3600, "jst": 9 * 3600, "ist": 19800, "msk": 3 * 3600, "hst": -10 * 3600,
		"akst": -9 * 3600, "akdt": -8 * 3600, "aest": 10 * 3600, "aedt": 11 * 3600,
	}
}}

type parser struct {
	toks []token
	pos  int

	haveDate, haveTime, haveZone, haveWeekday bool
	year, month, day                          int
	yearGiven                                 bool
	hour, min, sec, nsec                      int
	zoneOff                                   int
	weekday                                   time.Weekday
	weekdayOrd                                int64
	relY, relM, relD                          int64
	relSec                                    int64

	haveRel bool
}

func (p *parser) peek(k int) *token {
	if p.pos+k < len(p.toks) {
		return &p.toks[p.pos+k]
	}
	return nil
}

func (p *parser) isSym(k int, s string) bool {
	t := p.peek(k)
	return t != nil && t.kind == tSym && t.text == s
}

// Parse interprets s relative to now, in loc.
func Parse(s string, now time.Time, loc *time.Location) (time.Time, error) {
	// GNU's grammar is ASCII; the tokenizer must never see other bytes
	// (it used to loop on Latin-1 letters).
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return time.Time{}, fmt.Errorf("invalid date %q", s)
		}
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		return parseEpoch(s[1:])
	}
	// TZ="Zone" prefix.
	if strings.HasPrefix(s, "TZ=\"") {
		if end := strings.IndexByte(s[4:], '"'); end >= 0 {
			if l, err := time.LoadLocation(s[4 : 4+end]); err == nil {
				loc = l
				s = s[5+end:]
			}
		}
	}
	toks, err := tokenize(s)
	if err != nil {
		return time.Time{}, err
	}
	p := &parser{toks: toks}
	for p.pos < len(p.toks) {
		if err := p.item(); err != nil {
			return time.Time{}, err
		}
	}
	return p.resolve(now, loc)
}

func parseEpoch(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return time.Time{}, ErrInvalid
	}
	sec := int64(0)
	if whole != "" {
		v, err := strconv.ParseInt(whole, 10, 64)
		if err != nil {
			return time.Time{}, ErrInvalid
		}
		sec = v
	}
	nsec := int64(0)
	if frac != "" {
		for _, c := range frac {
			if c < '0' || c > '9' {
				return time.Time{}, ErrInvalid
			}
		}
		f := (frac + "000000000")[:9]
		nsec, _ = strconv.ParseInt(f, 10, 64)
	}
	if neg {
		sec, nsec = -sec, -nsec
	}
	return time.Unix(sec, nsec), nil
}

func (p *parser) setDate(y, m, d int, yearGiven bool) error {
	if p.haveDate {
		return ErrInvalid
	}
	p.haveDate, p.year, p.month, p.day, p.yearGiven = true, y, m, d, yearGiven
	return nil
}

func twoDigitYear(t token) int {
	y := int(t.num)
	if t.digits <= 2 {
		if y < 69 {
			return y + 2000
		}
		return y + 1900
	}
	return y
}

// item consumes one date item.
func (p *parser) item() error {
	t := p.peek(0)
	switch t.kind {
	case tNum:
		return p.number()
	case tWord:
		return p.word()
	}
	// Signed numbers: relative items, or a zone offset after a time.
	if (t.text == "+" || t.text == "-") && p.peek(1) != nil && p.peek(1).kind == tNum {
		// After a time, GNU reads a signed number as a zone offset even
		// when a unit follows ("10:00 +3 minutes" is 10:00 at +03, plus
		// a minute).
		if p.haveTime && !p.haveZone {
			return p.zoneOffset()
		}
		if p.unitAt(2) {
			v := p.peek(1).num
			if t.text == "-" {
				v = -v
			}
			p.pos += 2
			return p.relative(v)
		}
	}
	return ErrInvalid
}

func (p *parser) unitAt(k int) bool {
	t := p.peek(k)
	if t == nil || t.kind != tWord {
		return false
	}
	_, ok := units.Get()[t.text]
	return ok
}

func (p *parser) zoneOffset() error {
	sign := 1
	if p.peek(0).text == "-" {
		sign = -1
	}
	n := p.peek(1)
	p.pos += 2
	var h, m int
	switch {
	case p.isSym(0, ":") && p.peek(1) != nil && p.peek(1).kind == tNum:
		h, m = int(n.num), int(p.peek(1).num)
		p.pos += 2
	case n.digits <= 2:
		h = int(n.num)
	case n.digits == 4:
		h, m = int(n.num/100), int(n.num%100)
	default:
		return ErrInvalid
	}
	if h > 24 || m > 59 {
		return ErrInvalid
	}
	p.haveZone = true
	p.zoneOff = sign * (h*3600 + m*60)
	return nil
}

func (p *parser) number() error {
	t := *p.peek(0)
	// YYYY-MM-DD
	if p.isSym(1, "-") && p.peek(2) != nil && p.peek(2).kind == tNum && p.isSym(3, "-") && p.peek(4) != nil && p.peek(4).kind == tNum {
		y, m, d := twoDigitYear(t), int(p.peek(2).num), int(p.peek(4).num)
		p.pos += 5
		if err := p.setDate(y, m, d, true); err != nil {
			return err
		}
		// ISO 8601 'T' separator.
		if tt := p.peek(0); tt != nil && tt.kind == tWord && tt.text == "t" {
			p.pos++
		}
		return nil
	}
	// MM/DD[/YYYY] or YYYY/MM/DD
	if p.isSym(1, "/") && p.peek(2) != nil && p.peek(2).kind == tNum {
		a, b := t, *p.peek(2)
		p.pos += 3
		if p.isSym(0, "/") && p.peek(1) != nil && p.peek(1).kind == tNum {
			c := *p.peek(1)
			p.pos += 2
			if a.digits >= 3 {
				return p.setDate(int(a.num), int(b.num), int(c.num), true)
			}
			return p.setDate(twoDigitYear(c), int(a.num), int(b.num), true)
		}
		return p.setDate(0, int(a.num), int(b.num), false)
	}
	// HH:MM[:SS[.frac]]
	if p.isSym(1, ":") && p.peek(2) != nil && p.peek(2).kind == tNum {
		h, m := int(t.num), int(p.peek(2).num)
		p.pos += 3
		s, ns := 0, 0
		if p.isSym(0, ":") && p.peek(1) != nil && p.peek(1).kind == tNum {
			s = int(p.peek(1).num)
			p.pos += 2
			if (p.isSym(0, ".") || p.isSym(0, ",")) && p.peek(1) != nil && p.peek(1).kind == tNum {
				f := (p.peek(1).text + "000000000")[:9]
				v, _ := strconv.Atoi(f)
				ns = v
				p.pos += 2
			}
		}
		return p.setTime(h, m, s, ns)
	}
	// A number followed by a unit is relative.
	if p.unitAt(1) {
		p.pos++
		return p.relative(t.num)
	}
	// Day then month name: "2 Jan 2024".
	if nt := p.peek(1); nt != nil && nt.kind == tWord {
		if m, ok := months.Get()[nt.text]; ok {
			p.pos += 2
			y, given := 0, false
			if yt := p.peek(0); yt != nil && yt.kind == tNum && !p.isSym(1, ":") {
				y, given = twoDigitYear(*yt), true
				p.pos++
			}
			return p.setDate(y, m, int(t.num), given)
		}
		if nt.text == "am" || nt.text == "pm" || nt.text == "a.m" || nt.text == "p.m" {
			p.pos++
			return p.setTime(int(t.num), 0, 0, 0)
		}
	}
	p.pos++
	switch {
	case t.digits == 8 && !p.haveDate:
		return p.setDate(int(t.num/10000), int(t.num/100%100), int(t.num%100), true)
	case t.digits >= 3 && t.digits <= 4 && p.haveDate && !p.haveTime:
		return p.setTime(int(t.num/100), int(t.num%100), 0, 0)
	case t.digits == 4 && p.haveDate && !p.yearGiven:
		p.year, p.yearGiven = int(t.num), true
		return nil
	case t.digits <= 2 && !p.haveTime && p.haveDate:
		return p.setTime(int(t.num), 0, 0, 0)
	}
	return ErrInvalid
}

func (p *parser) setTime(h, m, s, ns int) error {
	if p.haveTime {
		return ErrInvalid
	}
	if t := p.peek(0); t != nil && t.kind == tWord {
		switch t.text {
		case "am", "a.m":
			if h < 1 || h > 12 {
				return ErrInvalid
			}
			if h == 12 {
				h = 0
			}
			p.pos++
		case "pm", "p.m":
			if h < 1 || h > 12 {
				return ErrInvalid
			}
			if h != 12 {
				h += 12
			}
			p.pos++
		}
	}
	if h > 23 || m > 59 || s > 60 {
		return ErrInvalid
	}
	p.haveTime, p.hour, p.min, p.sec, p.nsec = true, h, m, s, ns
	// A zone right after the time: "Z", "+02:00", "UTC".
	if t := p.peek(0); t != nil {
		if t.kind == tSym && (t.text == "+" || t.text == "-") && p.peek(1) != nil && p.peek(1).kind == tNum && !p.unitAt(2) {
			return p.zoneOffset()
		}
	}
	return nil
}

func (p *parser) relative(n int64) error {
	t := p.peek(0)
	if t == nil || t.kind != tWord {
		return ErrInvalid
	}
	u, ok := units.Get()[t.text]
	if !ok {
		return ErrInvalid
	}
	p.pos++
	if a := p.peek(0); a != nil && a.kind == tWord && a.text == "ago" {
		n = -n
		p.pos++
	}
	p.addRel(u, n)
	return nil
}

func (p *parser) addRel(u string, n int64) {
	p.haveRel = true
	switch u {
	case "y":
		p.relY += n
	case "M":
		p.relM += n
	case "f":
		p.relD += 14 * n
	case "w":
		p.relD += 7 * n
	case "d":
		p.relD += n
	case "h":
		p.relSec += 3600 * n
	case "m":
		p.relSec += 60 * n
	case "s":
		p.relSec += n
	}
}

func (p *parser) word() error {
	w := p.peek(0).text
	p.pos++
	switch w {
	case "now":
		return nil
	case "today":
		return nil
	case "yesterday":
		p.addRel("d", -1)
		return nil
	case "tomorrow":
		p.addRel("d", 1)
		return nil
	case "ago":
		p.relY, p.relM, p.relD, p.relSec = -p.relY, -p.relM, -p.relD, -p.relSec
		return nil
	case "t":
		return nil
	}
	if u, ok := units.Get()[w]; ok {
		n := int64(1)
		if a := p.peek(0); a != nil && a.kind == tWord && a.text == "ago" {
			n = -1
			p.pos++
		}
		p.addRel(u, n)
		return nil
	}
	if n, ok := ordinals.Get()[w]; ok {
		nt := p.peek(0)
		if nt == nil || nt.kind != tWord {
			return ErrInvalid
		}
		if u, ok := units.Get()[nt.text]; ok {
			p.pos++
			if a := p.peek(0); a != nil && a.kind == tWord && a.text == "ago" {
				n = -n
				p.pos++
			}
			p.addRel(u, n)
			return nil
		}
		if wd, ok := weekdays.Get()[nt.text]; ok {
			p.pos++
			return p.setWeekday(wd, n)
		}
		return ErrInvalid
	}
	if wd, ok := weekdays.Get()[w]; ok {
		return p.setWeekday(wd, 0)
	}
	if m, ok := months.Get()[w]; ok {
		// "Jan 2 [2024]", "January 2, 2024".
		d := p.peek(0)
		if d == nil || d.kind != tNum {
			return ErrInvalid
		}
		p.pos++
		y, given := 0, false
		if yt := p.peek(0); yt != nil && yt.kind == tNum && !p.isSym(1, ":") && yt.digits != 3 {
			y, given = twoDigitYear(*yt), true
			p.pos++
		}
		return p.setDate(y, m, int(d.num), given)
	}
	if off, ok := zones.Get()[w]; ok {
		if p.haveZone {
			return ErrInvalid
		}
		p.haveZone, p.zoneOff = true, off
		if t := p.peek(0); t != nil && t.kind == tSym && (t.text == "+" || t.text == "-") && p.peek(1) != nil && p.peek(1).kind == tNum && !p.unitAt(2) {
			save := p.zoneOff
			p.haveZone = false
			if err := p.zoneOffset(); err != nil {
				return err
			}
			p.zoneOff += save
		}
		return nil
	}
	return ErrInvalid
}

func (p *parser) setWeekday(wd time.Weekday, ord int64) error {
	if p.haveWeekday {
		return ErrInvalid
	}
	p.haveWeekday, p.weekday, p.weekdayOrd = true, wd, ord
	return nil
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func (p *parser) resolve(now time.Time, loc *time.Location) (time.Time, error) {
	if p.haveZone {
		loc = time.FixedZone("", p.zoneOff)
	}
	base := now.In(loc)
	y, m, d := base.Date()
	h, mi, s, ns := base.Hour(), base.Minute(), base.Second(), base.Nanosecond()
	if p.haveDate {
		if p.yearGiven {
			y = p.year
		}
		m, d = time.Month(p.month), p.day
		if m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
			return time.Time{}, ErrInvalid
		}
		h, mi, s, ns = 0, 0, 0, 0
	}
	if p.haveTime {
		h, mi, s, ns = p.hour, p.min, p.sec, p.nsec
	} else if p.haveWeekday && !p.haveDate {
		h, mi, s, ns = 0, 0, 0, 0
	}
	if p.haveWeekday && !p.haveDate {
		cur := time.Date(y, m, d, 0, 0, 0, 0, loc).Weekday()
		delta := (int(p.weekday) - int(cur) + 7) % 7
		switch {
		case p.weekdayOrd > 0:
			if delta == 0 {
				delta = 7
			}
			delta += int(p.weekdayOrd-1) * 7
		case p.weekdayOrd < 0:
			delta = -((int(cur) - int(p.weekday) + 7) % 7)
			if delta == 0 {
				delta = -7
			}
			delta += int(p.weekdayOrd+1) * 7
		}
		d += delta
	}
	if p.haveRel {
		y += int(p.relY)
		m += time.Month(p.relM)
		d += int(p.relD)
	}
	t := time.Date(y, m, d, h, mi, s, ns, loc)
	if p.haveRel && p.relSec != 0 {
		t = t.Add(time.Duration(p.relSec) * time.Second)
	}
	return t, nil
}
