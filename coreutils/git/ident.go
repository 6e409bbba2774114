package git

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/coreutils/timefmt"
)

// Default identity when none is configured (documented deviation: git
// refuses to commit without one).
const (
	defaultName  = "bashbox"
	defaultEmail = "bashbox@sandbox"
)

// ident is a person and a time, as stored in commits and tags.
type ident struct {
	name  string
	email string
	when  int64
	tz    string // "+0100"
}

func (id ident) String() string {
	return fmt.Sprintf("%s <%s> %d %s", id.name, id.email, id.when, id.tz)
}

// parseIdent reads "Name <email> 1234567890 +0000".
func parseIdent(s string) ident {
	var id ident
	lt := strings.IndexByte(s, '<')
	gt := strings.LastIndexByte(s, '>')
	if lt < 0 || gt < lt {
		id.name = s
		return id
	}
	id.name = strings.TrimRight(s[:lt], " ")
	id.email = s[lt+1 : gt]
	rest := strings.Fields(s[gt+1:])
	if len(rest) >= 1 {
		id.when, _ = strconv.ParseInt(rest[0], 10, 64)
	}
	if len(rest) >= 2 {
		id.tz = rest[1]
	} else {
		id.tz = "+0000"
	}
	return id
}

// tzOffset converts "+0130" to seconds east of UTC.
func tzOffset(tz string) int {
	if len(tz) != 5 {
		return 0
	}
	n, err := strconv.Atoi(tz[1:])
	if err != nil {
		return 0
	}
	secs := (n/100)*3600 + (n%100)*60
	if tz[0] == '-' {
		secs = -secs
	}
	return secs
}

func formatTZ(offset int) string {
	sign := '+'
	if offset < 0 {
		sign = '-'
		offset = -offset
	}
	return fmt.Sprintf("%c%02d%02d", sign, offset/3600, (offset%3600)/60)
}

// time returns the moment in the ident's own zone.
func (id ident) time() time.Time {
	return time.Unix(id.when, 0).In(time.FixedZone("", tzOffset(id.tz)))
}

// identity builds the author or committer ("AUTHOR"/"COMMITTER") from the
// environment, the configuration and the documented default.
func (r *repo) identity(who string) ident {
	g := r.g
	name, hasName := g.c.LookupEnv("GIT_" + who + "_NAME")
	email, hasEmail := g.c.LookupEnv("GIT_" + who + "_EMAIL")
	if !hasName {
		if v, ok := r.cfg.get("user.name"); ok {
			name = v
		} else {
			name = defaultName
		}
	}
	if !hasEmail {
		if v, ok := r.cfg.get("user.email"); ok {
			email = v
		} else if v := g.getenv("EMAIL"); v != "" {
			email = v
		} else {
			email = defaultEmail
		}
	}
	name = strings.TrimSpace(strings.NewReplacer("\n", "", "<", "", ">", "").Replace(name))
	email = strings.TrimSpace(strings.NewReplacer("\n", "", "<", "", ">", "").Replace(email))
	id := ident{name: name, email: email}
	if d := g.getenv("GIT_" + who + "_DATE"); d != "" {
		when, tz, ok := g.parseDate(d)
		if !ok {
			g.fatal("invalid date format: %s", d)
		}
		id.when, id.tz = when, tz
	} else {
		now := time.Now().In(g.location())
		_, off := now.Zone()
		id.when, id.tz = now.Unix(), formatTZ(off)
	}
	return id
}

func (g *cmd) location() *time.Location {
	return timefmt.Location(g.c.LookupEnv)
}

var monthNames = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// parseDate reads the date formats git accepts for GIT_*_DATE and --date:
// "@1234567890 +0000", "1234567890 +0000", ISO 8601 and RFC 2822 forms.
func (g *cmd) parseDate(s string) (int64, string, bool) {
	s = strings.TrimSpace(s)
	// Raw forms.
	if raw := strings.TrimPrefix(s, "@"); raw != "" {
		f := strings.Fields(raw)
		if len(f) >= 1 && len(f) <= 2 && isDigits(f[0]) && (strings.HasPrefix(s, "@") || len(f) == 2) {
			n, err := strconv.ParseInt(f[0], 10, 64)
			if err == nil {
				tz := "+0000"
				if len(f) == 2 {
					off, ok := parseTZ(f[1])
					if !ok {
						return 0, "", false
					}
					tz = formatTZ(off)
				}
				return n, tz, true
			}
		}
	}
	year, month, day := -1, -1, -1
	hour, min, sec := -1, -1, -1
	tzSet := false
	off := 0
	// Tokenize on spaces, commas and a 'T' between date and time.
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	var toks []string
	for _, f := range fields {
		if i := strings.IndexByte(f, 'T'); i == 10 && len(f) > 11 && isDigits(f[:4]) {
			toks = append(toks, f[:10], f[11:])
			continue
		}
		toks = append(toks, f)
	}
	for _, t := range toks {
		lt := strings.ToLower(t)
		switch {
		case len(lt) >= 3 && isAlpha(lt):
			if lt == "z" || lt == "utc" || lt == "gmt" {
				tzSet, off = true, 0
				continue
			}
			found := false
			for i, m := range monthNames {
				if strings.HasPrefix(lt, m) {
					month = i + 1
					found = true
				}
			}
			if !found {
				for _, d := range []string{"mon", "tue", "wed", "thu", "fri", "sat", "sun"} {
					if strings.HasPrefix(lt, d) {
						found = true
					}
				}
			}
			if !found {
				return 0, "", false
			}
		case lt == "z":
			tzSet, off = true, 0
		case (lt[0] == '+' || lt[0] == '-') && len(lt) > 1:
			o, ok := parseTZ(lt)
			if !ok {
				return 0, "", false
			}
			tzSet, off = true, o
		case strings.Contains(lt, ":"):
			// time, maybe with fraction and zone attached
			tm := lt
			zone := ""
			if i := strings.IndexAny(tm, "+-z"); i > 0 {
				tm, zone = tm[:i], tm[i:]
			}
			if i := strings.IndexByte(tm, '.'); i >= 0 {
				tm = tm[:i]
			}
			parts := strings.Split(tm, ":")
			if len(parts) < 2 || len(parts) > 3 {
				return 0, "", false
			}
			nums := make([]int, 3)
			for i, p := range parts {
				n, err := strconv.Atoi(p)
				if err != nil {
					return 0, "", false
				}
				nums[i] = n
			}
			hour, min, sec = nums[0], nums[1], nums[2]
			if zone != "" {
				if zone == "z" {
					tzSet, off = true, 0
				} else {
					o, ok := parseTZ(zone)
					if !ok {
						return 0, "", false
					}
					tzSet, off = true, o
				}
			}
		case strings.ContainsAny(lt, "-./") && len(lt) >= 8:
			sep := strings.IndexAny(lt, "-./")
			parts := strings.FieldsFunc(lt, func(r rune) bool { return r == '-' || r == '.' || r == '/' })
			if len(parts) != 3 {
				return 0, "", false
			}
			a, e1 := strconv.Atoi(parts[0])
			b, e2 := strconv.Atoi(parts[1])
			c, e3 := strconv.Atoi(parts[2])
			if e1 != nil || e2 != nil || e3 != nil {
				return 0, "", false
			}
			if sep == 4 {
				year, month, day = a, b, c
			} else if lt[sep] == '/' {
				month, day, year = a, b, c
			} else {
				day, month, year = a, b, c
			}
		case isDigits(lt):
			n, _ := strconv.Atoi(lt)
			switch {
			case len(lt) == 4 && year < 0:
				year = n
			case day < 0 && n >= 1 && n <= 31:
				day = n
			default:
				return 0, "", false
			}
		default:
			return 0, "", false
		}
	}
	if year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 {
		return 0, "", false
	}
	if sec < 0 {
		sec = 0
	}
	var t time.Time
	if tzSet {
		t = time.Date(year, time.Month(month), day, hour, min, sec, 0, time.FixedZone("", off))
	} else {
		t = time.Date(year, time.Month(month), day, hour, min, sec, 0, g.location())
		_, off = t.Zone()
	}
	return t.Unix(), formatTZ(off), true
}

func parseTZ(s string) (int, bool) {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	d := strings.ReplaceAll(s[1:], ":", "")
	if !isDigits(d) {
		return 0, false
	}
	var h, m int
	switch len(d) {
	case 2:
		h, _ = strconv.Atoi(d)
	case 4:
		h, _ = strconv.Atoi(d[:2])
		m, _ = strconv.Atoi(d[2:])
	default:
		return 0, false
	}
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return off, true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// Date formats for --date and %ad/%cd.
const (
	dateDefault = iota
	dateISO
	dateISOStrict
	dateRFC
	dateShort
	dateRaw
	dateUnix
	dateRelative
	dateLocal
)

func parseDateMode(s string) (int, bool) {
	switch s {
	case "default":
		return dateDefault, true
	case "iso", "iso8601":
		return dateISO, true
	case "iso-strict", "iso8601-strict":
		return dateISOStrict, true
	case "rfc", "rfc2822":
		return dateRFC, true
	case "short":
		return dateShort, true
	case "raw":
		return dateRaw, true
	case "unix":
		return dateUnix, true
	case "relative":
		return dateRelative, true
	case "local", "default-local":
		return dateLocal, true
	}
	return 0, false
}

// formatDate renders an ident's date as git does.
func (g *cmd) formatDate(id ident, mode int) string {
	t := id.time()
	switch mode {
	case dateISO:
		return t.Format("2006-01-02 15:04:05 ") + id.tz
	case dateISOStrict:
		return t.Format("2006-01-02T15:04:05") + id.tz[:3] + ":" + id.tz[3:]
	case dateRFC:
		return t.Format("Mon, 2 Jan 2006 15:04:05 ") + id.tz
	case dateShort:
		return t.Format("2006-01-02")
	case dateRaw:
		return fmt.Sprintf("%d %s", id.when, id.tz)
	case dateUnix:
		return strconv.FormatInt(id.when, 10)
	case dateRelative:
		return relativeDate(id.when, time.Now().Unix())
	case dateLocal:
		return time.Unix(id.when, 0).In(g.location()).Format("Mon Jan 2 15:04:05 2006")
	}
	return t.Format("Mon Jan 2 15:04:05 2006 ") + id.tz
}

// relativeDate is git's "N units ago".
func relativeDate(when, now int64) string {
	if when > now {
		return "in the future"
	}
	diff := now - when
	plural := func(n int64, unit string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s ago", n, unit)
		}
		return fmt.Sprintf("%d %ss ago", n, unit)
	}
	if diff < 90 {
		return plural(diff, "second")
	}
	diff = (diff + 30) / 60
	if diff < 90 {
		return plural(diff, "minute")
	}
	diff = (diff + 30) / 60
	if diff < 36 {
		return plural(diff, "hour")
	}
	diff = (diff + 12) / 24
	if diff < 14 {
		return plural(diff, "day")
	}
	if diff < 70 {
		return plural((diff+3)/7, "week")
	}
	if diff < 365 {
		return plural((diff+15)/30, "month")
	}
	if diff < 1825 {
		totalMonths := (diff*12*2 + 365) / (365 * 2)
		years := totalMonths / 12
		months := totalMonths % 12
		if months > 0 {
			y := plural(years, "year")
			y = strings.TrimSuffix(y, " ago")
			if months == 1 {
				return fmt.Sprintf("%s, %d month ago", y, months)
			}
			return fmt.Sprintf("%s, %d months ago", y, months)
		}
		return plural(years, "year")
	}
	return plural((diff+183)/365, "year")
}
