package find

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/coreutils/internal/modes"
)

// segment is a piece of a -printf format: literal text, or a directive
// with its flags, width and precision.
type segment struct {
	lit   string
	verb  byte // 0 for literal text
	tverb byte // the time format letter of %A %C %T
	flags string
	width int // -1 when absent
	prec  int // -1 when absent
	raw   string
	stop  bool // \c: stop printing here
}

type format struct {
	segs []segment
}

// compileFormat parses a -printf format. It reports warnings as GNU does
// at parse time and fails on the errors GNU treats as fatal.
func (f *finder) compileFormat(s string) (*format, error) {
	out := &format{}
	var lit strings.Builder
	flushLit := func() {
		if lit.Len() > 0 {
			out.segs = append(out.segs, segment{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 >= len(s) {
				lit.WriteByte('\\')
				continue
			}
			i++
			e := s[i]
			switch e {
			case 'a':
				lit.WriteByte('\a')
			case 'b':
				lit.WriteByte('\b')
			case 'f':
				lit.WriteByte('\f')
			case 'n':
				lit.WriteByte('\n')
			case 'r':
				lit.WriteByte('\r')
			case 't':
				lit.WriteByte('\t')
			case 'v':
				lit.WriteByte('\v')
			case '\\':
				lit.WriteByte('\\')
			case 'c':
				flushLit()
				out.segs = append(out.segs, segment{stop: true})
				return out, nil
			case '0', '1', '2', '3', '4', '5', '6', '7':
				v := 0
				n := 0
				for n < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
					v = v*8 + int(s[i]-'0')
					i++
					n++
				}
				i--
				lit.WriteByte(byte(v))
			default:
				f.warnf("warning: unrecognized escape `\\%c'", e)
				lit.WriteByte('\\')
				lit.WriteByte(e)
			}
		case '%':
			start := i
			i++
			if i >= len(s) {
				return nil, fmt.Errorf("error: %% at end of format string")
			}
			if s[i] == '%' {
				lit.WriteByte('%')
				continue
			}
			seg := segment{width: -1, prec: -1}
			j := i
			for j < len(s) && strings.IndexByte("-+ #0", s[j]) >= 0 {
				j++
			}
			seg.flags = s[i:j]
			k := j
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			if k > j {
				seg.width, _ = strconv.Atoi(s[j:k])
			}
			if k < len(s) && s[k] == '.' {
				k++
				p := k
				for k < len(s) && s[k] >= '0' && s[k] <= '9' {
					k++
				}
				seg.prec, _ = strconv.Atoi("0" + s[p:k])
			}
			if k >= len(s) {
				return nil, fmt.Errorf("error: %% at end of format string")
			}
			v := s[k]
			switch v {
			case '%':
				lit.WriteByte('%')
				i = k
				continue
			case '{', '[', '(':
				return nil, fmt.Errorf("error: the format directive `%%%c' is reserved for future use", v)
			case 'A', 'C', 'T':
				if k+1 >= len(s) {
					f.warnf("warning: format directive `%%%c' should be followed by another character", v)
					lit.WriteString(s[start : k+1])
					i = k
					continue
				}
				seg.tverb = s[k+1]
				if strings.IndexByte("@aAbBcdDeFgGhHIjklmMnprRsStTuUVwWxXyYzZ+", seg.tverb) < 0 {
					f.warnf("warning: unrecognized time format directive `%%%c%c'", v, seg.tverb)
				}
				k++
			case 'a', 'b', 'c', 'd', 'D', 'f', 'F', 'g', 'G', 'h', 'H', 'i', 'k', 'l', 'm', 'M', 'n', 'p', 'P', 's', 'S', 't', 'u', 'U', 'y', 'Y', 'Z':
			default:
				f.warnf("warning: unrecognized format directive `%%%c'", v)
				lit.WriteString(s[start : k+1])
				i = k
				continue
			}
			seg.verb = v
			seg.raw = s[start : k+1]
			flushLit()
			out.segs = append(out.segs, seg)
			i = k
		default:
			lit.WriteByte(c)
		}
	}
	flushLit()
	return out, nil
}

// pad applies a string directive's width, precision and '-' flag.
func (s *segment) pad(v string) string {
	if s.prec >= 0 && s.prec < len(v) {
		v = v[:s.prec]
	}
	if s.width > len(v) {
		fill := strings.Repeat(" ", s.width-len(v))
		if strings.Contains(s.flags, "-") {
			return v + fill
		}
		return fill + v
	}
	return v
}

// number formats an integer directive with printf's flags.
func (s *segment) number(v int64, base byte) string {
	spec := "%" + s.flags
	if s.width >= 0 {
		spec += strconv.Itoa(s.width)
	}
	if s.prec >= 0 {
		spec += "." + strconv.Itoa(s.prec)
	}
	if base == 'o' {
		return fmt.Sprintf(spec+"o", v)
	}
	return fmt.Sprintf(spec+"d", v)
}

// execFormat renders fm for e into the writer w. It returns false when
// \c ended the output.
func (f *finder) execFormat(w *outFile, fm *format, e *entry) bool {
	for i := range fm.segs {
		s := &fm.segs[i]
		if s.stop {
			w.flush()
			return false
		}
		if s.verb == 0 {
			w.writeString(s.lit)
			continue
		}
		w.writeString(f.directive(s, e))
	}
	return true
}

func (f *finder) directive(s *segment, e *entry) string {
	info := e.info
	switch s.verb {
	case 'a':
		return s.pad(ctimeFrac(f.localTime(e.atime())))
	case 'c':
		return s.pad(ctimeFrac(f.localTime(e.ctime())))
	case 't':
		return s.pad(ctimeFrac(f.localTime(info.ModTime())))
	case 'A':
		return s.pad(timeFormat(s.tverb, f.localTime(e.atime())))
	case 'C':
		return s.pad(timeFormat(s.tverb, f.localTime(e.ctime())))
	case 'T':
		return s.pad(timeFormat(s.tverb, f.localTime(info.ModTime())))
	case 'b':
		return s.pad(strconv.FormatInt(e.blocks(), 10))
	case 'k':
		return s.pad(strconv.FormatInt((e.blocks()+1)/2, 10))
	case 'd':
		return s.number(int64(e.depth), 'd')
	case 'D':
		st, _ := e.sys()
		return s.pad(strconv.FormatUint(st.Dev, 10))
	case 'f':
		return s.pad(baseName(e.path))
	case 'F':
		return s.pad(fsType(e))
	case 'u', 'g':
		o := f.owner(e)
		name, id := o.User, o.UID
		if s.verb == 'g' {
			name, id = o.Group, o.GID
		}
		if name == "" {
			name = strconv.Itoa(id)
		}
		return s.pad(name)
	case 'U':
		return s.pad(strconv.Itoa(f.owner(e).UID))
	case 'G':
		return s.pad(strconv.Itoa(f.owner(e).GID))
	case 'h':
		if k := strings.LastIndexByte(e.path, '/'); k >= 0 {
			return s.pad(e.path[:k])
		}
		return s.pad(".")
	case 'H':
		return s.pad(e.start)
	case 'i':
		return s.pad(strconv.FormatUint(e.inode(), 10))
	case 'l':
		if info.Mode()&modeSymlink != 0 {
			t, _ := f.readlink(e)
			return s.pad(t)
		}
		return s.pad("")
	case 'm':
		return s.number(int64(modes.Perm(info.Mode())), 'o')
	case 'M':
		return s.pad(modes.ModeString(info.Mode()))
	case 'n':
		return s.pad(strconv.FormatUint(f.nlink(e), 10))
	case 'p':
		return s.pad(e.path)
	case 'P':
		if e.depth == 0 {
			return s.pad("")
		}
		rel := e.path[len(e.start):]
		rel = strings.TrimPrefix(rel, "/")
		return s.pad(rel)
	case 's':
		return s.pad(strconv.FormatInt(info.Size(), 10))
	case 'S':
		size := info.Size()
		if size == 0 {
			return s.pad("1")
		}
		return s.pad(strconv.FormatFloat(float64(e.blocks())*512/float64(size), 'g', 6, 64))
	case 'y':
		return s.pad(string(typeChar(info.Mode())))
	case 'Y':
		return s.pad(f.followedType(e))
	case 'Z':
		return s.pad("?")
	}
	return s.raw
}

// ctimeFrac renders t as ctime(3) with GNU find's ten fractional digits:
// "Tue Mar  5 06:07:08.1234567890 2024".
func ctimeFrac(t time.Time) string {
	return fmt.Sprintf("%s %s %2d %02d:%02d:%02d.%09d0 %d", t.Format("Mon"), t.Format("Jan"), t.Day(),
		t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Year())
}

// timeFormat renders the %Tk family, strftime letters plus GNU find's
// '@' (seconds since the epoch with fraction) and '+' (date+time); the
// seconds of S, T, X and + carry the fraction.
func timeFormat(k byte, t time.Time) string {
	frac := fmt.Sprintf(".%09d0", t.Nanosecond())
	switch k {
	case '@':
		return fmt.Sprintf("%d%s", t.Unix(), frac)
	case 'a':
		return t.Format("Mon")
	case 'A':
		return t.Format("Monday")
	case 'b', 'h':
		return t.Format("Jan")
	case 'B':
		return t.Format("January")
	case 'c':
		return fmt.Sprintf("%s %s %2d %02d:%02d:%02d %d", t.Format("Mon"), t.Format("Jan"), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Year())
	case 'd':
		return fmt.Sprintf("%02d", t.Day())
	case 'D', 'x':
		return fmt.Sprintf("%02d/%02d/%02d", int(t.Month()), t.Day(), t.Year()%100)
	case 'e':
		return fmt.Sprintf("%2d", t.Day())
	case 'F':
		return fmt.Sprintf("%04d-%02d-%02d", t.Year(), int(t.Month()), t.Day())
	case 'g':
		y, _ := t.ISOWeek()
		return fmt.Sprintf("%02d", y%100)
	case 'G':
		y, _ := t.ISOWeek()
		return strconv.Itoa(y)
	case 'H':
		return fmt.Sprintf("%02d", t.Hour())
	case 'I':
		return fmt.Sprintf("%02d", hour12(t))
	case 'j':
		return fmt.Sprintf("%03d", t.YearDay())
	case 'k':
		return fmt.Sprintf("%2d", t.Hour())
	case 'l':
		return fmt.Sprintf("%2d", hour12(t))
	case 'm':
		return fmt.Sprintf("%02d", int(t.Month()))
	case 'M':
		return fmt.Sprintf("%02d", t.Minute())
	case 'n':
		return "\n"
	case 'p':
		if t.Hour() < 12 {
			return "AM"
		}
		return "PM"
	case 'r':
		ampm := "AM"
		if t.Hour() >= 12 {
			ampm = "PM"
		}
		return fmt.Sprintf("%02d:%02d:%02d %s", hour12(t), t.Minute(), t.Second(), ampm)
	case 'R':
		return fmt.Sprintf("%02d:%02d", t.Hour(), t.Minute())
	case 's':
		return strconv.FormatInt(t.Unix(), 10)
	case 'S':
		return fmt.Sprintf("%02d%s", t.Second(), frac)
	case 't':
		return "\t"
	case 'T', 'X':
		return fmt.Sprintf("%02d:%02d:%02d%s", t.Hour(), t.Minute(), t.Second(), frac)
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return strconv.Itoa(wd)
	case 'U':
		return fmt.Sprintf("%02d", (t.YearDay()+6-int(t.Weekday()))/7)
	case 'V':
		_, w := t.ISOWeek()
		return fmt.Sprintf("%02d", w)
	case 'w':
		return strconv.Itoa(int(t.Weekday()))
	case 'W':
		return fmt.Sprintf("%02d", (t.YearDay()+6-(int(t.Weekday())+6)%7)/7)
	case 'y':
		return fmt.Sprintf("%02d", t.Year()%100)
	case 'Y':
		return strconv.Itoa(t.Year())
	case 'z':
		return t.Format("-0700")
	case 'Z':
		return t.Format("MST")
	case '+':
		return fmt.Sprintf("%04d-%02d-%02d+%02d:%02d:%02d%s", t.Year(), int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second(), frac)
	}
	return "%" + string(k)
}

func hour12(t time.Time) int {
	h := t.Hour() % 12
	if h == 0 {
		h = 12
	}
	return h
}

// baseName is gnulib's base_name: the last component with one trailing
// slash kept; "/" for the root.
func baseName(p string) string {
	end := len(p)
	for end > 0 && p[end-1] == '/' {
		end--
	}
	if end == 0 {
		if p == "" {
			return ""
		}
		return "/"
	}
	start := strings.LastIndexByte(p[:end], '/') + 1
	if end < len(p) {
		end++
	}
	return p[start:end]
}
