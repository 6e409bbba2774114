// Package pr implements GNU pr: paginate files for printing, with the
// header of date, name and page number, the trailer, columns (down or
// across), side-by-side merging, line numbers, double spacing, margins
// and page ranges.
package pr

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/textfmt"
	"github.com/bashbox/bashbox/coreutils/internal/utilcmd"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

// config is the command line.
type config struct {
	columns     int
	across      bool
	double      bool
	dateFmt     string
	header      *string
	pageLen     int
	merge       bool
	number      bool
	numSep      byte
	numDigits   int
	firstNum    int
	margin      int
	sepChar     *byte
	sepString   *string
	omitHeader  bool
	width       int
	widthSet    bool
	noTruncate  bool
	firstPage   int
	lastPage    int
	quietErrors bool
}

// Run is the pr command.
func Run(ctx context.Context, c *builtins.Call) int {
	cfg, operands, st, ok := parseArgs(c)
	if !ok {
		return st
	}
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	out := textfmt.NewOutput(c.Stdout)
	status := 0
	loc := timefmt.Location(c.LookupEnv)
	type input struct {
		name  string
		lines []string
		date  string
	}
	var inputs []input
	for _, name := range operands {
		var data []byte
		var mtime time.Time
		var err error
		if name == "-" {
			data, err = c.ReadAll(ctx, c.Stdin)
			mtime = time.Now()
		} else {
			f, oerr := c.Open(name)
			if oerr != nil {
				if !cfg.quietErrors {
					out.Flush()
					c.Errorf("%s: %s", name, builtins.ErrText(oerr))
				}
				status = 1
				continue
			}
			if fi, serr := f.Stat(); serr == nil {
				if fi.IsDir() {
					f.Close()
					out.Flush()
					c.Errorf("%s: Is a directory", name)
					status = 1
					continue
				}
				mtime = fi.ModTime()
			}
			data, err = c.ReadAll(ctx, f)
			f.Close()
		}
		if err != nil {
			out.Flush()
			c.Errorf("%s: %s", name, builtins.ErrText(err))
			status = 1
			continue
		}
		in := input{name: name, date: timefmt.Strftime(mtime.In(loc), cfg.dateFmt)}
		text := string(data)
		text = strings.TrimSuffix(text, "\n")
		if len(data) > 0 {
			in.lines = strings.Split(text, "\n")
		}
		if name == "-" {
			in.name = ""
		}
		inputs = append(inputs, in)
	}
	if cfg.merge {
		var cols [][]string
		for _, in := range inputs {
			cols = append(cols, in.lines)
		}
		if len(inputs) > 0 {
			p := cfg.pager(out, "", timefmt.Strftime(time.Now().In(loc), cfg.dateFmt))
			p.merged(cols)
		}
	} else {
		for _, in := range inputs {
			p := cfg.pager(out, in.name, in.date)
			p.file(in.lines)
			if ctx.Err() != nil {
				break
			}
		}
	}
	return out.Finish(c, status)
}

func parseArgs(c *builtins.Call) (*config, []string, int, bool) {
	cfg := &config{columns: 1, dateFmt: "%Y-%m-%d %H:%M", pageLen: 66, width: 72,
		numSep: '\t', numDigits: 5, firstNum: 1, firstPage: 1}
	args := c.Args[1:]
	var operands []string
	fail := func(format string, a ...any) (*config, []string, int, bool) {
		c.Errorf(format, a...)
		return nil, nil, c.TryHelp(1), false
	}
	num := func(s, what string) (int, bool) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, false
		}
		return n, true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "+") && len(a) > 1 {
			first, last, _ := strings.Cut(a[1:], ":")
			f, ok := num(first, "page")
			if !ok || f == 0 {
				return fail("invalid page range %s", utilcmd.Q(c, a[1:]))
			}
			cfg.firstPage = f
			if last != "" {
				l, ok := num(last, "page")
				if !ok || l < f {
					return fail("invalid page range %s", utilcmd.Q(c, a[1:]))
				}
				cfg.lastPage = l
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, val, has := strings.Cut(a[2:], "=")
			needVal := func() (string, bool) {
				if has {
					return val, true
				}
				if i+1 < len(args) {
					i++
					return args[i], true
				}
				return "", false
			}
			switch name {
			case "help":
				textfmt.Help(c, helpText)
				return nil, nil, 0, false
			case "version":
				return nil, nil, c.Version(), false
			case "across":
				cfg.across = true
			case "double-space":
				cfg.double = true
			case "merge":
				cfg.merge = true
			case "omit-header":
				cfg.omitHeader = true
			case "join-lines":
				cfg.noTruncate = true
			case "no-file-warnings":
				cfg.quietErrors = true
			case "header", "date-format", "length", "width", "page-width", "columns", "indent", "first-line-number", "pages", "separator", "sep-string", "number-lines":
				v, ok := needVal()
				if !ok && name != "separator" && name != "sep-string" && name != "number-lines" {
					return fail("option '--%s' requires an argument", name)
				}
				if st, ok2 := cfg.longValue(c, name, v, ok); !ok2 {
					return nil, nil, st, false
				}
			default:
				return fail("unrecognized option '%s'", a)
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		// A group of short options; some take the rest as their value.
		for j := 1; j < len(a); j++ {
			ch := a[j]
			rest := a[j+1:]
			takeArg := func() (string, bool) {
				if rest != "" {
					j = len(a)
					return rest, true
				}
				if i+1 < len(args) {
					i++
					j = len(a)
					return args[i], true
				}
				return "", false
			}
			switch {
			case ch >= '0' && ch <= '9':
				k := j
				for k < len(a) && a[k] >= '0' && a[k] <= '9' {
					k++
				}
				n, _ := strconv.Atoi(a[j:k])
				if n == 0 {
					c.Errorf("invalid number of columns: %s: Numerical result out of range", utilcmd.Q(c, a[j:k]))
					return nil, nil, 1, false
				}
				cfg.columns = n
				j = k - 1
			case ch == 'a':
				cfg.across = true
			case ch == 'd':
				cfg.double = true
			case ch == 'm':
				cfg.merge = true
			case ch == 't' || ch == 'T':
				cfg.omitHeader = true
			case ch == 'J':
				cfg.noTruncate = true
			case ch == 'r':
				cfg.quietErrors = true
			case ch == 'F' || ch == 'f':
			case ch == 's':
				s := byte('\t')
				if rest != "" {
					s = rest[0]
					j = len(a)
				}
				cfg.sepChar = &s
			case ch == 'n':
				cfg.number = true
				if rest != "" {
					if rest[0] < '0' || rest[0] > '9' {
						cfg.numSep = rest[0]
						rest = rest[1:]
					}
					if rest != "" {
						n, ok := num(rest, "digits")
						if !ok {
							return fail("invalid line number field width: %s", utilcmd.Q(c, rest))
						}
						cfg.numDigits = n
					}
					j = len(a)
				}
			case strings.IndexByte("DhlwWoNS", ch) >= 0:
				v, ok := takeArg()
				if !ok && ch != 'S' {
					c.Errorf("option requires an argument -- '%c'", ch)
					return nil, nil, c.TryHelp(1), false
				}
				if st, ok2 := cfg.shortValue(c, ch, v); !ok2 {
					return nil, nil, st, false
				}
			default:
				c.Errorf("invalid option -- '%c'", ch)
				return nil, nil, c.TryHelp(1), false
			}
		}
	}
	if cfg.pageLen <= 10 {
		cfg.omitHeader = true
	}
	if cfg.merge && cfg.columns > 1 {
		c.Errorf("cannot specify number of columns when printing in parallel")
		return nil, nil, 1, false
	}
	if cfg.across && cfg.merge {
		c.Errorf("cannot specify both printing across and printing in parallel")
		return nil, nil, 1, false
	}
	return cfg, operands, 0, true
}

// longShort returns the short option a long option with a value stands
// for (0 for none).
func longShort(name string) byte {
	switch name {
	case "header":
		return 'h'
	case "date-format":
		return 'D'
	case "length":
		return 'l'
	case "width":
		return 'w'
	case "page-width":
		return 'W'
	case "indent":
		return 'o'
	case "first-line-number":
		return 'N'
	case "sep-string":
		return 'S'
	}
	return 0
}

func (cfg *config) longValue(c *builtins.Call, name, v string, has bool) (int, bool) {
	switch name {
	case "columns":
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			c.Errorf("invalid number of columns: %s", utilcmd.Q(c, v))
			return c.TryHelp(1), false
		}
		cfg.columns = n
	case "pages":
		first, last, _ := strings.Cut(v, ":")
		f, err := strconv.Atoi(first)
		if err != nil || f <= 0 {
			c.Errorf("invalid page range %s", utilcmd.Q(c, v))
			return c.TryHelp(1), false
		}
		cfg.firstPage = f
		if last != "" {
			l, err := strconv.Atoi(last)
			if err != nil || l < f {
				c.Errorf("invalid page range %s", utilcmd.Q(c, v))
				return c.TryHelp(1), false
			}
			cfg.lastPage = l
		}
	case "separator":
		s := byte('\t')
		if has && v != "" {
			s = v[0]
		}
		cfg.sepChar = &s
	case "number-lines":
		cfg.number = true
	default:
		return cfg.shortValue(c, longShort(name), v)
	}
	return 0, true
}

func (cfg *config) shortValue(c *builtins.Call, ch byte, v string) (int, bool) {
	intArg := func(what string, min int) (int, bool) {
		n, err := strconv.Atoi(v)
		if err != nil || n < min {
			c.Errorf("%s: %s", what, utilcmd.Q(c, v))
			return 0, false
		}
		return n, true
	}
	var ok bool
	switch ch {
	case 'D':
		cfg.dateFmt = v
		return 0, true
	case 'h':
		h := v
		cfg.header = &h
		return 0, true
	case 'S':
		s := v
		cfg.sepString = &s
		return 0, true
	case 'l':
		cfg.pageLen, ok = intArg("'-l PAGE_LENGTH' invalid number of lines", 1)
	case 'w':
		cfg.width, ok = intArg("'-w PAGE_WIDTH' invalid number of characters", 1)
		cfg.widthSet = true
	case 'W':
		cfg.width, ok = intArg("'-W PAGE_WIDTH' invalid number of characters", 1)
		cfg.widthSet = true
	case 'o':
		cfg.margin, ok = intArg("'-o MARGIN' invalid line offset", 0)
	case 'N':
		cfg.firstNum, ok = intArg("'-N NUMBER' invalid starting line number", 0)
	}
	if !ok {
		return 1, false
	}
	return 0, true
}
