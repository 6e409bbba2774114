package awk

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/itchyny/timefmt-go"
)

// gawk extension functions goawk lacks, as native functions. The program
// is parsed with stubs under the gawk names (so calls parse), and the
// rewrite calls the implementations under prefixed names.
var extNames = map[string]string{
	"gensub":   "__bb_x_gensub",
	"systime":  "__bb_x_systime",
	"strftime": "__bb_x_strftime",
	"mktime":   "__bb_x_mktime",
	"and":      "__bb_x_and",
	"or":       "__bb_x_or",
	"xor":      "__bb_x_xor",
	"lshift":   "__bb_x_lshift",
	"rshift":   "__bb_x_rshift",
	"compl":    "__bb_x_compl",
}

// extZeroArg: functions whose last argument defaults to $0 (argument
// count with it).
var extZeroArg = map[string]int{"gensub": 4}

// extStubs are the parse-time signatures of the extensions.
func extStubs() map[string]any {
	return extFuncs()
}

func extFuncs() map[string]any {
	return map[string]any{
		"gensub":   gensub,
		"systime":  func() int64 { return time.Now().Unix() },
		"strftime": strftime,
		"mktime":   mktime,
		"and": func(a ...float64) float64 {
			r := ^uint64(0)
			for _, x := range a {
				r &= uint64(x)
			}
			return float64(r)
		},
		"or": func(a ...float64) float64 {
			var r uint64
			for _, x := range a {
				r |= uint64(x)
			}
			return float64(r)
		},
		"xor": func(a ...float64) float64 {
			var r uint64
			for _, x := range a {
				r ^= uint64(x)
			}
			return float64(r)
		},
		"lshift": func(a, b float64) float64 { return float64(uint64(a) << uint64(b)) },
		"rshift": func(a, b float64) float64 { return float64(uint64(a) >> uint64(b)) },
		"compl":  func(a float64) float64 { return float64(^uint64(a) & (1<<53 - 1)) },
	}
}

// gensub(regex, replacement, how, target) returns target with the matches
// replaced; "\\0" or "&" is the match, "\\N" the Nth group.
func gensub(pattern, repl, how, target string) (string, error) {
	re, err := regexp.Compile("(?s)" + pattern)
	if err != nil {
		return "", &fatalError{"gensub: invalid regexp: " + pattern}
	}
	global := how != "" && (how[0] == 'g' || how[0] == 'G')
	nth := 1
	if !global {
		if n, err := strconv.ParseFloat(strings.TrimSpace(how), 64); err == nil && n >= 1 {
			nth = int(n)
		}
	}
	var b strings.Builder
	last, count := 0, 0
	for _, m := range re.FindAllStringSubmatchIndex(target, -1) {
		count++
		if !global && count != nth {
			continue
		}
		b.WriteString(target[last:m[0]])
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			switch {
			case c == '\\' && i+1 < len(repl) && repl[i+1] >= '0' && repl[i+1] <= '9':
				g := int(repl[i+1] - '0')
				if 2*g+1 < len(m) && m[2*g] >= 0 {
					b.WriteString(target[m[2*g]:m[2*g+1]])
				}
				i++
			case c == '\\' && i+1 < len(repl) && (repl[i+1] == '&' || repl[i+1] == '\\'):
				b.WriteByte(repl[i+1])
				i++
			case c == '&':
				b.WriteString(target[m[0]:m[1]])
			default:
				b.WriteByte(c)
			}
		}
		last = m[1]
		if !global {
			break
		}
	}
	b.WriteString(target[last:])
	return b.String(), nil
}

// strftime([format [, timestamp [, utc]]]), in UTC.
func strftime(args ...string) string {
	format := "%a %b %e %H:%M:%S %Z %Y"
	t := time.Now()
	if len(args) > 0 {
		format = args[0]
	}
	if len(args) > 1 {
		if f, err := strconv.ParseFloat(strings.TrimSpace(args[1]), 64); err == nil {
			t = time.Unix(int64(f), 0)
		}
	}
	return timefmt.Format(t.UTC(), format)
}

// mktime("YYYY MM DD HH MM SS"), in UTC.
func mktime(spec string) float64 {
	f := strings.Fields(spec)
	if len(f) < 6 {
		return -1
	}
	var n [6]int
	for i := 0; i < 6; i++ {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return -1
		}
		n[i] = v
	}
	t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], 0, time.UTC)
	if math.Abs(float64(t.Unix())) > 1<<53 {
		return -1
	}
	return float64(t.Unix())
}
