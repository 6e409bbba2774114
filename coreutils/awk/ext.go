package awk

import (
	"math"
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
		// The runtime's (subst.go): only the signature is used here.
		"gensub":   func(pattern, repl, how, target string) (string, error) { return target, nil },
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
