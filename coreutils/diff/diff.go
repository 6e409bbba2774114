// Package diff implements GNU diff (diffutils 3.8): compare files line by
// line, or directories recursively, with the normal, unified, context,
// ed, RCS, side-by-side and if-then-else output formats.
//
// The edit scripts come from coreutils/internal/gnudiff, which follows GNU
// diff's own analysis, so that hunks are the same as GNU's.
package diff

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	quotearg "github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/internal/lazy"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/gnudiff"
	"github.com/bashbox/bashbox/coreutils/internal/posixre"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

type style int

const (
	styleUnspecified style = iota
	styleNormal
	styleUnified
	styleContext
	styleEd
	styleForwardEd
	styleRCS
	styleIfdef
	styleSdiff
)

// styleOptions are the options that only choose an output style.
var styleOptions = lazy.Value[map[string]style]{New: func() map[string]style {
	return map[string]style{"normal": styleNormal, "ed": styleEd, "forward-ed": styleForwardEd,
		"rcs": styleRCS, "side-by-side": styleSdiff, "sdiff-merge-assist": styleSdiff}
}}

// options is GNU diff's long option table, in its order.
var options = []builtins.Option{
	{Long: "binary"},
	{Short: 'q', Long: "brief"},
	{Long: "changed-group-format", Arg: builtins.RequiredArg},
	{Long: "color", Arg: builtins.OptionalArg},
	{Long: "context", Arg: builtins.OptionalArg},
	{Short: 'e', Long: "ed"},
	{Short: 'x', Long: "exclude", Arg: builtins.RequiredArg},
	{Short: 'X', Long: "exclude-from", Arg: builtins.RequiredArg},
	{Short: 't', Long: "expand-tabs"},
	{Short: 'f', Long: "forward-ed"},
	{Long: "from-file", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "horizon-lines", Arg: builtins.RequiredArg},
	{Short: 'D', Long: "ifdef", Arg: builtins.RequiredArg},
	{Short: 'w', Long: "ignore-all-space"},
	{Short: 'B', Long: "ignore-blank-lines"},
	{Short: 'i', Long: "ignore-case"},
	{Long: "ignore-file-name-case"},
	{Short: 'I', Long: "ignore-matching-lines", Arg: builtins.RequiredArg},
	{Short: 'b', Long: "ignore-space-change"},
	{Short: 'E', Long: "ignore-tab-expansion"},
	{Short: 'Z', Long: "ignore-trailing-space"},
	{Long: "inhibit-hunk-merge"},
	{Short: 'T', Long: "initial-tab"},
	{Short: 'L', Long: "label", Arg: builtins.RequiredArg},
	{Long: "left-column"},
	{Long: "line-format", Arg: builtins.RequiredArg},
	{Short: 'd', Long: "minimal"},
	{Short: 'N', Long: "new-file"},
	{Long: "new-group-format", Arg: builtins.RequiredArg},
	{Long: "new-line-format", Arg: builtins.RequiredArg},
	{Long: "no-dereference"},
	{Long: "no-ignore-file-name-case"},
	{Long: "normal"},
	{Long: "old-group-format", Arg: builtins.RequiredArg},
	{Long: "old-line-format", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "paginate"},
	{Long: "palette", Arg: builtins.RequiredArg},
	{Short: 'n', Long: "rcs"},
	{Short: 'r', Long: "recursive"},
	{Short: 's', Long: "report-identical-files"},
	{Long: "sdiff-merge-assist"},
	{Short: 'p', Long: "show-c-function"},
	{Short: 'F', Long: "show-function-line", Arg: builtins.RequiredArg},
	{Short: 'y', Long: "side-by-side"},
	{Short: 'H', Long: "speed-large-files"},
	{Short: 'S', Long: "starting-file", Arg: builtins.RequiredArg},
	{Long: "strip-trailing-cr"},
	{Long: "suppress-blank-empty"},
	{Long: "suppress-common-lines"},
	{Long: "tabsize", Arg: builtins.RequiredArg},
	{Short: 'a', Long: "text"},
	{Long: "to-file", Arg: builtins.RequiredArg},
	{Long: "unchanged-group-format", Arg: builtins.RequiredArg},
	{Long: "unchanged-line-format", Arg: builtins.RequiredArg},
	{Long: "unidirectional-new-file"},
	{Long: "unified", Arg: builtins.OptionalArg},
	{Short: 'v', Long: "version"},
	{Short: 'W', Long: "width", Arg: builtins.RequiredArg},
	{Short: 'C', Arg: builtins.RequiredArg},
	{Short: 'U', Arg: builtins.RequiredArg},
	{Short: 'c'},
	{Short: 'u'},
	{Short: 'P'},
	{Short: 'h'},
	{Short: '0'}, {Short: '1'}, {Short: '2'}, {Short: '3'}, {Short: '4'},
	{Short: '5'}, {Short: '6'}, {Short: '7'}, {Short: '8'}, {Short: '9'},
}

type config struct {
	style             style
	context           int
	brief             bool
	reportIdentical   bool
	recursive         bool
	newFile           bool
	unidirectionalNew bool
	noDereference     bool
	text              bool
	ignoreCase        bool
	whiteSpace        gnudiff.WhiteSpace
	ignoreBlankLines  bool
	ignoreRegexps     []string
	ignoreRE          *posixre.Regexp
	functionRegexps   []string
	functionRE        *posixre.Regexp
	stripTrailingCR   bool
	expandTabs        bool
	initialTab        bool
	tabSize           int
	suppressBlank     bool
	labels            []string
	minimal           bool
	speedLarge        bool
	horizon           int
	color             bool
	excludes          []string
	ignoreNameCase    bool
	startingFile      string
	width             int
	leftColumn        bool
	suppressCommon    bool
	sdiffHalfWidth    int
	sdiffCol2Offset   int
	lineFormat        [3]string // unchanged, old, new
	lineFormatSet     [3]bool
	groupFormat       [4]string // unchanged, old, new, changed
	groupFormatSet    [4]bool
	noDiffNoOutput    bool
	treatAsBinary     bool // --brief with no --ignore-*: compare bytes
}

type differ struct {
	ctx     context.Context
	c       *builtins.Call
	cfg     *config
	out     *bufio.Writer
	loc     *time.Location
	now     time.Time
	switch_ string

	stdin     []byte
	stdinRead bool
	stdinErr  error

	// color state
	lastColor colorContext
	writeErr  error
}

// Run is the diff command.
func Run(ctx context.Context, c *builtins.Call) int {
	d := &differ{ctx: ctx, c: c, out: textio.NewWriter(c.Stdout), now: time.Now()}
	status := d.run()
	if err := d.out.Flush(); err != nil && d.writeErr == nil {
		d.writeErr = err
	}
	if d.writeErr != nil {
		if builtins.IsBrokenPipe(d.writeErr) {
			return 141
		}
		c.Errorf("write failed")
		return 2
	}
	return status
}

func (d *differ) tryHelp(format string, args ...any) int {
	if format != "" {
		d.c.Errorf(format, args...)
	}
	d.c.TryHelpNamed(0)
	return 2
}

func (d *differ) run() int {
	c := d.c
	set := builtins.Options{List: options}
	args := c.Args[1:]
	opts, operands, err := set.Parse(args)
	if err != nil {
		return d.tryHelp("%s", getoptMessage(err, args))
	}
	cfg := &config{context: -1}
	d.cfg = cfg
	ocontext := -1
	explicitContext := false
	showCFunction := false
	var fromFile, toFile string
	var fromSet, toSet bool
	prev := ""
	colorMode := "auto"
	widthSet := false
	tabSizeSet := false

	specifyStyle := func(s style) bool {
		if cfg.style != s {
			if cfg.style != styleUnspecified {
				return false
			}
			cfg.style = s
		}
		return true
	}
	conflictValue := func(cur *string, set *bool, value, option string) bool {
		if *set && *cur != value {
			d.c.Errorf("conflicting %s option value %s", option, quote(value))
			return false
		}
		*cur, *set = value, true
		return true
	}
	styleErr := func() int { return d.tryHelp("conflicting output style options") }

	for _, o := range opts {
		key := o.Key
		switch key {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9":
			if !(len(prev) == 1 && prev[0] >= '0' && prev[0] <= '9') {
				ocontext = 0
			}
			if ocontext > (1<<31)/10 {
				ocontext = 1 << 31
			} else {
				ocontext = ocontext*10 + int(key[0]-'0')
			}
		case "text":
			cfg.text = true
		case "ignore-space-change":
			if cfg.whiteSpace < gnudiff.SpaceChange {
				cfg.whiteSpace = gnudiff.SpaceChange
			}
		case "ignore-trailing-space":
			if cfg.whiteSpace < gnudiff.SpaceChange {
				cfg.whiteSpace |= gnudiff.TrailingSpace
			}
		case "ignore-tab-expansion":
			if cfg.whiteSpace < gnudiff.SpaceChange {
				cfg.whiteSpace |= gnudiff.TabExpansion
			}
		case "ignore-all-space":
			cfg.whiteSpace = gnudiff.AllSpace
		case "ignore-blank-lines":
			cfg.ignoreBlankLines = true
		case "C", "U", "context", "unified":
			n := 3
			if o.Has {
				v, err := strconv.ParseInt(o.Value, 10, 64)
				if err != nil && !isRangeErr(err) || v < 0 || o.Value == "" {
					return d.tryHelp("invalid context length %s", quote(o.Value))
				}
				if v > 1<<31 {
					v = 1 << 31
				}
				n = int(v)
			}
			s := styleContext
			if key == "U" || key == "unified" {
				s = styleUnified
			}
			if !specifyStyle(s) {
				return styleErr()
			}
			if cfg.context < n {
				cfg.context = n
			}
			explicitContext = true
		case "c", "u":
			s := styleContext
			if key == "u" {
				s = styleUnified
			}
			if !specifyStyle(s) {
				return styleErr()
			}
			if cfg.context < 3 {
				cfg.context = 3
			}
		case "minimal":
			cfg.minimal = true
		case "ifdef":
			if !specifyStyle(styleIfdef) {
				return styleErr()
			}
			name := o.Value
			formats := [4]string{
				"%=",
				"#ifndef " + name + "\n%<#endif /* ! " + name + " */\n",
				"#ifdef " + name + "\n%>#endif /* " + name + " */\n",
				"#ifndef " + name + "\n%<#else /* " + name + " */\n%>#endif /* " + name + " */\n",
			}
			for i := range formats {
				if !conflictValue(&cfg.groupFormat[i], &cfg.groupFormatSet[i], formats[i], "-D") {
					return d.tryHelp("")
				}
			}
		case "ed", "forward-ed", "rcs", "side-by-side", "sdiff-merge-assist", "normal":
			if !specifyStyle(styleOptions.Get()[o.Key]) {
				return styleErr()
			}
		case "show-function-line":
			cfg.functionRegexps = append(cfg.functionRegexps, o.Value)
		case "h", "inhibit-hunk-merge", "binary":
		case "speed-large-files":
			cfg.speedLarge = true
		case "ignore-case":
			cfg.ignoreCase = true
		case "ignore-matching-lines":
			cfg.ignoreRegexps = append(cfg.ignoreRegexps, o.Value)
		case "paginate":
			return d.tryHelp("pagination not supported on this host")
		case "label":
			if len(cfg.labels) >= 2 {
				c.Errorf("too many file label options")
				return 2
			}
			cfg.labels = append(cfg.labels, o.Value)
		case "new-file":
			cfg.newFile = true
		case "show-c-function":
			showCFunction = true
			cfg.functionRegexps = append(cfg.functionRegexps, "^[[:alpha:]$_]")
		case "P", "unidirectional-new-file":
			cfg.unidirectionalNew = true
		case "brief":
			cfg.brief = true
		case "recursive":
			cfg.recursive = true
		case "report-identical-files":
			cfg.reportIdentical = true
		case "starting-file":
			var set bool = cfg.startingFile != ""
			if !conflictValue(&cfg.startingFile, &set, o.Value, "-S") {
				return d.tryHelp("")
			}
		case "expand-tabs":
			cfg.expandTabs = true
		case "initial-tab":
			cfg.initialTab = true
		case "version":
			return c.Version()
		case "help":
			io.WriteString(d.out, help)
			return 0
		case "exclude":
			cfg.excludes = append(cfg.excludes, o.Value)
		case "exclude-from":
			f, err := c.Open(o.Value)
			if err != nil {
				c.FileError(o.Value, err, 2)
				return 2
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				c.FileError(o.Value, err, 2)
				return 2
			}
			for _, line := range strings.Split(string(data), "\n") {
				if line != "" {
					cfg.excludes = append(cfg.excludes, line)
				}
			}
		case "width":
			v, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil && !isRangeErr(err) || v <= 0 {
				return d.tryHelp("invalid width %s", quote(o.Value))
			}
			if widthSet && int64(cfg.width) != v {
				c.Errorf("conflicting width options")
				return 2
			}
			cfg.width, widthSet = int(min(v, 1<<31)), true
		case "from-file":
			if !conflictValue(&fromFile, &fromSet, o.Value, "--from-file") {
				return d.tryHelp("")
			}
		case "to-file":
			if !conflictValue(&toFile, &toSet, o.Value, "--to-file") {
				return d.tryHelp("")
			}
		case "horizon-lines":
			v, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil && !isRangeErr(err) || v < 0 {
				return d.tryHelp("invalid horizon length %s", quote(o.Value))
			}
			cfg.horizon = max(cfg.horizon, int(min(v, 1<<31)))
		case "ignore-file-name-case":
			cfg.ignoreNameCase = true
		case "no-ignore-file-name-case":
			cfg.ignoreNameCase = false
		case "left-column":
			cfg.leftColumn = true
		case "line-format":
			if !specifyStyle(styleIfdef) {
				return styleErr()
			}
			for i := range cfg.lineFormat {
				if !conflictValue(&cfg.lineFormat[i], &cfg.lineFormatSet[i], o.Value, "--line-format") {
					return d.tryHelp("")
				}
			}
		case "no-dereference":
			cfg.noDereference = true
		case "strip-trailing-cr":
			cfg.stripTrailingCR = true
		case "suppress-blank-empty":
			cfg.suppressBlank = true
		case "suppress-common-lines":
			cfg.suppressCommon = true
		case "tabsize":
			v, err := strconv.ParseInt(o.Value, 10, 64)
			if err != nil && !isRangeErr(err) || v <= 0 || v > 1<<31 {
				return d.tryHelp("invalid tabsize %s", quote(o.Value))
			}
			if tabSizeSet && int64(cfg.tabSize) != v {
				c.Errorf("conflicting tabsize options")
				return 2
			}
			cfg.tabSize, tabSizeSet = int(v), true
		case "unchanged-line-format", "old-line-format", "new-line-format":
			if !specifyStyle(styleIfdef) {
				return styleErr()
			}
			i := map[string]int{"unchanged-line-format": 0, "old-line-format": 1, "new-line-format": 2}[key]
			if !conflictValue(&cfg.lineFormat[i], &cfg.lineFormatSet[i], o.Value, "--"+key) {
				return d.tryHelp("")
			}
		case "unchanged-group-format", "old-group-format", "new-group-format", "changed-group-format":
			if !specifyStyle(styleIfdef) {
				return styleErr()
			}
			i := map[string]int{"unchanged-group-format": 0, "old-group-format": 1, "new-group-format": 2, "changed-group-format": 3}[key]
			if !conflictValue(&cfg.groupFormat[i], &cfg.groupFormatSet[i], o.Value, "--"+key) {
				return d.tryHelp("")
			}
		case "color":
			v := "auto"
			if o.Has {
				v = o.Value
			}
			switch v {
			case "auto", "always", "never":
				colorMode = v
			default:
				return d.tryHelp("invalid color %s", quote(v))
			}
		case "palette":
			// Accepted; the default palette is always used.
		}
		prev = key
	}

	cfg.color = colorMode == "always"

	if cfg.style == styleUnspecified {
		if showCFunction {
			cfg.style = styleContext
			if ocontext < 0 {
				cfg.context = 3
			}
		} else {
			cfg.style = styleNormal
		}
	}
	if ocontext >= 0 && (cfg.style == styleContext || cfg.style == styleUnified) &&
		(cfg.context < ocontext || (ocontext < cfg.context && !explicitContext)) {
		cfg.context = ocontext
	}
	if cfg.style != styleContext && cfg.style != styleUnified {
		cfg.context = 0
	}
	if cfg.context < 0 {
		cfg.context = 0
	}
	if cfg.tabSize == 0 {
		cfg.tabSize = 8
	}
	if cfg.width == 0 {
		cfg.width = 130
	}
	{
		t := cfg.tabSize
		if cfg.expandTabs {
			t = 1
		}
		w := cfg.width
		tg := t + 3
		unaligned := (w >> 1) + (tg >> 1) + (w & tg & 1)
		off := unaligned - unaligned%t
		cfg.sdiffHalfWidth = max(0, min(off-3, w-off))
		if cfg.sdiffHalfWidth != 0 {
			cfg.sdiffCol2Offset = off
		} else {
			cfg.sdiffCol2Offset = w
		}
	}
	if cfg.horizon < cfg.context {
		cfg.horizon = cfg.context
	}
	var err2 error
	if cfg.functionRE, err2 = compileList(cfg.functionRegexps); err2 != nil {
		c.Errorf("%s", err2.Error())
		return 2
	}
	if cfg.ignoreRE, err2 = compileList(cfg.ignoreRegexps); err2 != nil {
		c.Errorf("%s", err2.Error())
		return 2
	}
	if cfg.style == styleIfdef {
		for i := range cfg.lineFormat {
			if !cfg.lineFormatSet[i] {
				cfg.lineFormat[i] = "%l\n"
			}
		}
		if !cfg.groupFormatSet[1] {
			cfg.groupFormat[1] = "%<"
			if cfg.groupFormatSet[3] {
				cfg.groupFormat[1] = cfg.groupFormat[3]
			}
		}
		if !cfg.groupFormatSet[2] {
			cfg.groupFormat[2] = "%>"
			if cfg.groupFormatSet[3] {
				cfg.groupFormat[2] = cfg.groupFormat[3]
			}
		}
		if !cfg.groupFormatSet[0] {
			cfg.groupFormat[0] = "%="
		}
		if !cfg.groupFormatSet[3] {
			cfg.groupFormat[3] = cfg.groupFormat[1] + cfg.groupFormat[2]
		}
		cfg.noDiffNoOutput = cfg.groupFormat[0] == "" || (cfg.groupFormat[0] == "%=" && cfg.lineFormat[0] == "")
	} else {
		cfg.noDiffNoOutput = cfg.style != styleSdiff || cfg.suppressCommon
	}
	cfg.treatAsBinary = cfg.brief && !(cfg.ignoreBlankLines || cfg.ignoreCase || cfg.stripTrailingCR ||
		cfg.ignoreRE != nil || cfg.whiteSpace != gnudiff.NoWhiteSpace)

	d.switch_ = switchString(args, operands)
	d.loc = timefmt.Location(c.LookupEnv)

	top := &comparison{}
	if fromSet || toSet {
		if fromSet && toSet {
			c.Errorf("--from-file and --to-file both specified")
			return 2
		}
		status := 0
		for _, op := range operands {
			a, b := fromFile, op
			if toSet {
				a, b = op, toFile
			}
			s := d.compareFiles(top, a, b, true, true)
			status = max(status, s)
			if s == statusFatal {
				return 2
			}
		}
		return status
	}
	if len(operands) != 2 {
		if len(operands) < 2 {
			last := "diff"
			if len(args) > 0 {
				last = args[len(args)-1]
			}
			return d.tryHelp("missing operand after %s", quote(last))
		}
		return d.tryHelp("extra operand %s", quote(operands[2]))
	}
	s := d.compareFiles(top, operands[0], operands[1], true, true)
	if s == statusFatal {
		return 2
	}
	return s
}

const statusFatal = 3

// getoptMessage is the parser's message, with the whole argument quoted
// in an ambiguity message as glibc's getopt does ("'--un=2'").
func getoptMessage(err error, args []string) string {
	msg := err.Error()
	rest, ok := strings.CutPrefix(msg, "option '--")
	if !ok || !strings.Contains(msg, "' is ambiguous") {
		return msg
	}
	name, _, _ := strings.Cut(rest, "'")
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--"+name+"=") {
			return "option '" + a + msg[len("option '--")+len(name):]
		}
	}
	return msg
}

// quote is gnulib's quote() as diff prints it: 'x'.
func quote(s string) string { return "'" + s + "'" }

func isRangeErr(err error) bool {
	var ne *strconv.NumError
	return errors.As(err, &ne) && ne.Err == strconv.ErrRange
}

func compileList(res []string) (*posixre.Regexp, error) {
	if len(res) == 0 {
		return nil, nil
	}
	for _, r := range res {
		if _, err := posixre.Compile(r, posixre.BRE, posixre.Flags{}); err != nil {
			return nil, fmt.Errorf("%s", err.Error())
		}
	}
	return posixre.Compile(strings.Join(res, `\|`), posixre.BRE, posixre.Flags{})
}

// switchString is the options diff was called with, as the "diff ..."
// line of a recursive comparison shows them: the arguments before the
// operands once getopt has moved the options in front.
func switchString(args, operands []string) string {
	// The option arguments are args minus the operands, in order; getopt
	// counts a "--" among them.
	var b strings.Builder
	nOps := len(operands)
	// Walk args, dropping the operands (which Parse returned in order).
	opi := 0
	afterDashDash := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if afterDashDash {
			continue
		}
		if a == "--" {
			b.WriteString(" --")
			afterDashDash = true
			continue
		}
		if opi < nOps && a == operands[opi] && !isOptionArg(args, i) {
			opi++
			continue
		}
		b.WriteByte(' ')
		b.WriteString(quotearg.UTF8.Quote(a, quotearg.Shell))
	}
	return b.String()
}

// isOptionArg reports whether args[i] is the separate argument of the
// option before it.
func isOptionArg(args []string, i int) bool {
	for j := 0; j < i; j++ {
		if args[j] == "--" {
			return false
		}
	}
	if i == 0 {
		return false
	}
	p := args[i-1]
	if len(p) < 2 || p[0] != '-' {
		return false
	}
	if isOptionArg(args, i-1) {
		return false
	}
	if strings.HasPrefix(p, "--") {
		name, _, hasVal := strings.Cut(p[2:], "=")
		if hasVal || name == "" {
			return false
		}
		set := builtins.Options{List: options}
		for _, o := range set.List {
			if o.Long != "" && strings.HasPrefix(o.Long, name) {
				return o.Arg == builtins.RequiredArg
			}
		}
		return false
	}
	// The last option letter of a group takes the next argument when it
	// has a required argument and nothing is attached.
	for k := 1; k < len(p); k++ {
		for _, o := range options {
			if o.Short == p[k] {
				if o.Arg == builtins.RequiredArg {
					return k == len(p)-1
				}
				break
			}
		}
	}
	return false
}
