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
	quotearg "github.com/bashbox/bashbox/coreutils/internal/quote"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
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
		case "ed":
			if !specifyStyle(styleEd) {
				return styleErr()
			}
		case "forward-ed":
			if !specifyStyle(styleForwardEd) {
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
		case "rcs":
			if !specifyStyle(styleRCS) {
				return styleErr()
			}
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
		case "side-by-side":
			if !specifyStyle(styleSdiff) {
				return styleErr()
			}
		case "sdiff-merge-assist":
			if !specifyStyle(styleSdiff) {
				return styleErr()
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
		case "normal":
			if !specifyStyle(styleNormal) {
				return styleErr()
			}
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
	if fromSet {
		if toSet {
			c.Errorf("--from-file and --to-file both specified")
			return 2
		}
		status := 0
		for _, op := range operands {
			s := d.compareFiles(top, fromFile, op, true, true)
			status = max(status, s)
			if s == statusFatal {
				return 2
			}
		}
		return status
	}
	if toSet {
		status := 0
		for _, op := range operands {
			s := d.compareFiles(top, op, toFile, true, true)
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

// comparison is a pair of files being compared, with its parent pair.
type comparison struct {
	parent *comparison
	file   [2]side
}

type side struct {
	name   string // name relative to the working directory, or the label
	exists bool   // false: a missing file treated as empty (-N, -P)
	stdin  bool
	info   fs.FileInfo
	err    error
	isDir  bool
	isLink bool
	real   string // resolved absolute name of a directory, for loop checks
}

func (s *side) typeName() string {
	if s.info == nil {
		return "regular empty file"
	}
	m := s.info.Mode()
	switch {
	case m.IsRegular():
		if s.info.Size() == 0 {
			return "regular empty file"
		}
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character special file"
	case m&fs.ModeDevice != 0:
		return "block special file"
	}
	return "weird file"
}

// joinName is gnulib's file_name_concat(dir, base).
func joinName(dir, base string) string {
	t := dir
	for len(t) > 1 && t[len(t)-1] == '/' {
		t = t[:len(t)-1]
	}
	if t == "" {
		return base
	}
	if strings.HasSuffix(t, "/") {
		return t + base
	}
	return t + "/" + base
}

// errorf prints an error message after flushing the output, as glibc's
// error() does, so that messages and output keep their order.
func (d *differ) errorf(format string, args ...any) {
	d.out.Flush()
	d.c.Errorf(format, args...)
}

func (d *differ) fileError(name string, err error) {
	d.out.Flush()
	d.c.FileError(name, err, 2)
}

func (d *differ) message(format string, args ...any) {
	fmt.Fprintf(d.out, format, args...)
}

func (d *differ) stat(s *side) {
	if s.name == "-" {
		s.stdin = true
		return
	}
	var fi fs.FileInfo
	var err error
	if d.cfg.noDereference {
		fi, err = d.c.Lstat(s.name)
	} else {
		fi, err = d.c.Stat(s.name)
	}
	if err != nil {
		s.err = err
		return
	}
	s.info = fi
	s.isDir = fi.IsDir()
	s.isLink = fi.Mode()&fs.ModeSymlink != 0
}

func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || strings.Contains(builtins.ErrText(err), "Not a directory")
}

// compareFiles compares name0 and name1 (either may be absent in a
// directory comparison: the file is then only in the other directory).
// It returns 0, 1, 2, or statusFatal to stop everything.
func (d *differ) compareFiles(parent *comparison, name0, name1 string, has0, has1 bool) int {
	cfg := d.cfg
	if err := d.ctx.Err(); err != nil {
		return statusFatal
	}
	toplevel := parent.parent == nil && parent.file[0].name == ""
	if !((has0 && has1) || (cfg.unidirectionalNew && has1) || cfg.newFile) {
		name, dir := name0, parent.file[1].name
		if has0 {
			dir = parent.file[0].name
		} else {
			name = name1
		}
		d.message("Only in %s: %s\n", dir, name)
		return 1
	}
	cmp := &comparison{parent: parent}
	cmp.file[0].exists, cmp.file[1].exists = has0, has1
	if !has0 {
		name0 = name1
	}
	if !has1 {
		name1 = name0
	}
	if toplevel {
		cmp.file[0].name, cmp.file[1].name = name0, name1
	} else {
		cmp.file[0].name = joinName(parent.file[0].name, name0)
		cmp.file[1].name = joinName(parent.file[1].name, name1)
	}
	for f := 0; f < 2; f++ {
		if !cmp.file[f].exists {
			continue
		}
		if f == 1 && cmp.file[1].name == cmp.file[0].name && cmp.file[0].exists {
			cmp.file[1].stdin = cmp.file[0].stdin
			cmp.file[1].info = cmp.file[0].info
			cmp.file[1].err = cmp.file[0].err
			cmp.file[1].isDir = cmp.file[0].isDir
			cmp.file[1].isLink = cmp.file[0].isLink
			continue
		}
		if cmp.file[1-f].err != nil && f == 1 {
			// GNU does not stat the second file once the first failed
			// with an error other than a missing file.
		}
		d.stat(&cmp.file[f])
	}
	if toplevel {
		f0, f1 := &cmp.file[0], &cmp.file[1]
		if f0.err == nil && f1.err == nil && f0.isDir != f1.isDir {
			fnm, dir := 0, 1
			if f0.isDir {
				fnm, dir = 1, 0
			}
			if cmp.file[fnm].stdin {
				d.errorf("cannot compare '-' to a directory")
				return statusFatal
			}
			base := path.Base(cmp.file[fnm].name)
			if cmp.file[fnm].name == "" {
				base = ""
			}
			ds := &cmp.file[dir]
			ds.name = joinName(ds.name, base)
			ds.info, ds.err, ds.isDir, ds.isLink = nil, nil, false, false
			d.stat(ds)
		}
		for f := 0; f < 2; f++ {
			if (cfg.newFile || (f == 0 && cfg.unidirectionalNew)) &&
				cmp.file[f].err != nil && isNotExist(cmp.file[f].err) &&
				!(cmp.file[1-f].err != nil && isNotExist(cmp.file[1-f].err)) {
				cmp.file[f].exists = false
				cmp.file[f].err = nil
			}
		}
	}
	for f := 0; f < 2; f++ {
		if !cmp.file[f].exists {
			o := &cmp.file[1-f]
			cmp.file[f].isDir = o.isDir
			cmp.file[f].isLink = o.isLink
		}
	}
	status := 0
	for f := 0; f < 2; f++ {
		if cmp.file[f].err != nil {
			d.fileError(cmp.file[f].name, cmp.file[f].err)
			status = 2
		}
	}
	if status != 0 {
		return status
	}
	status = d.comparePrepped(parent, cmp, toplevel)
	if status == 0 && cfg.reportIdentical && !(cmp.file[0].isDir && cmp.file[1].isDir) {
		d.message("Files %s and %s are identical\n", d.label(0, cmp.file[0].name), d.label(1, cmp.file[1].name))
	}
	return status
}

func (d *differ) label(f int, name string) string {
	if f < len(d.cfg.labels) {
		return d.cfg.labels[f]
	}
	return name
}

func (d *differ) comparePrepped(parent, cmp *comparison, toplevel bool) int {
	cfg := d.cfg
	f0, f1 := &cmp.file[0], &cmp.file[1]
	if !f0.exists && !f1.exists {
		return 0
	}
	if (f0.isDir && f1.isDir) ||
		(cfg.recursive && ((cfg.newFile && f1.isDir && !f0.exists) ||
			((cfg.newFile || cfg.unidirectionalNew) && f0.isDir && !f1.exists))) {
		if cfg.style == styleIfdef {
			d.errorf("-D option not supported with directories")
			return statusFatal
		}
		if cfg.recursive || toplevel {
			return d.diffDirs(cmp)
		}
		d.message("Common subdirectories: %s and %s\n", f0.name, f1.name)
		return 0
	}
	if (!f0.exists && !(cfg.newFile || cfg.unidirectionalNew)) || (!f1.exists && !cfg.newFile) {
		existing := 0
		if !f0.exists {
			existing = 1
		}
		d.message("Only in %s: %s\n", parent.file[existing].name, path.Base(cmp.file[existing].name))
		return 1
	}
	kindDiffers := false
	if toplevel {
		kindDiffers = f0.isLink != f1.isLink
	} else {
		m0, m1 := modeOf(f0), modeOf(f1)
		switch {
		case m0.IsRegular():
			kindDiffers = !m1.IsRegular()
		case m0&fs.ModeSymlink != 0:
			kindDiffers = m1&fs.ModeSymlink == 0
		case m0&fs.ModeCharDevice != 0:
			kindDiffers = m1&fs.ModeCharDevice == 0
		case m0&fs.ModeDevice != 0:
			kindDiffers = m1&fs.ModeDevice == 0 || m1&fs.ModeCharDevice != 0
		default:
			kindDiffers = true
		}
	}
	if kindDiffers {
		d.message("File %s is a %s while file %s is a %s\n",
			d.label(0, f0.name), typeName(f0, f1), d.label(1, f1.name), typeName(f1, f0))
		return 1
	}
	if f0.isLink {
		t0, err0 := d.c.FS.ReadlinkIfPossible(d.c.Abs(f0.name))
		if err0 != nil {
			d.fileError(f0.name, err0)
			return 2
		}
		t1, err1 := d.c.FS.ReadlinkIfPossible(d.c.Abs(f1.name))
		if err1 != nil {
			d.fileError(f1.name, err1)
			return 2
		}
		if t0 == t1 {
			return 0
		}
		d.message("Symbolic links %s and %s differ\n", f0.name, f1.name)
		return 1
	}
	if cfg.treatAsBinary && f0.exists && f1.exists && !f0.stdin && !f1.stdin &&
		f0.info.Mode().IsRegular() && f1.info.Mode().IsRegular() && f0.info.Size() != f1.info.Size() {
		d.message("Files %s and %s differ\n", d.label(0, f0.name), d.label(1, f1.name))
		return 1
	}
	return d.diff2Files(cmp)
}

func modeOf(s *side) fs.FileMode {
	if s.info == nil {
		return 0
	}
	return s.info.Mode()
}

func typeName(s, other *side) string {
	if !s.exists {
		return other.typeName()
	}
	if s.stdin {
		return "fifo"
	}
	return s.typeName()
}

// readSide reads a file's contents (empty for a missing one).
func (d *differ) readSide(s *side) ([]byte, error) {
	if !s.exists {
		return nil, nil
	}
	if s.stdin {
		if !d.stdinRead {
			d.stdinRead = true
			r := textio.Stdin(d.c)
			d.stdin, d.stdinErr = d.c.ReadAll(d.ctx, r)
		}
		return d.stdin, d.stdinErr
	}
	f, err := d.c.Open(s.name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return d.c.ReadAll(d.ctx, f)
}

// realPath resolves every symbolic link in name.
func (d *differ) realPath(name string) string {
	abs := path.Clean(d.c.Abs(name))
	resolved := "/"
	rest := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	for hops := 0; len(rest) > 0 && hops < 64; {
		comp := rest[0]
		rest = rest[1:]
		if comp == "" || comp == "." {
			continue
		}
		if comp == ".." {
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, comp)
		fi, _, err := d.c.FS.LstatIfPossible(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		target, err := d.c.FS.ReadlinkIfPossible(next)
		if err != nil {
			resolved = next
			continue
		}
		hops++
		if path.IsAbs(target) {
			resolved = "/"
		}
		rest = append(strings.Split(strings.Trim(target, "/"), "/"), rest...)
	}
	return resolved
}

// dirLoop reports whether side i of cmp is one of its ancestors.
func (d *differ) dirLoop(cmp *comparison, i int) bool {
	for p := cmp.parent; p != nil && p.parent != nil; p = p.parent {
		if p.file[i].real == cmp.file[i].real {
			return true
		}
	}
	return false
}

// diffDirs compares two directories entry by entry, in sorted order.
func (d *differ) diffDirs(cmp *comparison) int {
	cfg := d.cfg
	var names [2][]string
	status := 0
	for i := 0; i < 2; i++ {
		if cmp.file[i].exists {
			cmp.file[i].real = d.realPath(cmp.file[i].name)
		}
	}
	if (!cmp.file[0].exists || d.dirLoop(cmp, 0)) && (!cmp.file[1].exists || d.dirLoop(cmp, 1)) {
		f := 0
		if !cmp.file[0].exists {
			f = 1
		}
		d.errorf("%s: recursive directory loop", cmp.file[f].name)
		return 2
	}
	for i := 0; i < 2; i++ {
		if !cmp.file[i].exists {
			continue
		}
		entries, err := d.c.ReadDir(cmp.file[i].name)
		if err != nil {
			d.fileError(cmp.file[i].name, err)
			status = 2
			continue
		}
		toplevel := cmp.parent != nil && cmp.parent.parent == nil && cmp.parent.file[0].name == ""
		for _, e := range entries {
			n := e.Name()
			if n == "." || n == ".." {
				continue
			}
			if toplevel && cfg.startingFile != "" && compareNames(n, cfg.startingFile, cfg.ignoreNameCase) < 0 {
				continue
			}
			if excluded(cfg.excludes, n, cfg.ignoreNameCase) {
				continue
			}
			names[i] = append(names[i], n)
		}
		sortNames(names[i], cfg.ignoreNameCase)
	}
	if status != 0 {
		return status
	}
	a, b := names[0], names[1]
	for len(a) > 0 || len(b) > 0 {
		if err := d.ctx.Err(); err != nil {
			return statusFatal
		}
		order := 0
		switch {
		case len(a) == 0:
			order = 1
		case len(b) == 0:
			order = -1
		default:
			order = compareNames(a[0], b[0], cfg.ignoreNameCase)
		}
		var n0, n1 string
		h0, h1 := false, false
		if order <= 0 {
			n0, h0 = a[0], true
			a = a[1:]
		}
		if order >= 0 {
			n1, h1 = b[0], true
			b = b[1:]
		}
		v := d.compareFiles(cmp, n0, n1, h0, h1)
		if v == statusFatal {
			return v
		}
		status = max(status, v)
	}
	return status
}

func excluded(patterns []string, name string, fold bool) bool {
	var fl glob.Flags
	if fold {
		fl = glob.CaseFold
	}
	for _, p := range patterns {
		if glob.Match(p, name, fl) {
			return true
		}
	}
	return false
}

func compareNames(a, b string, fold bool) int {
	if fold {
		la, lb := strings.ToLower(a), strings.ToLower(b)
		return strings.Compare(la, lb)
	}
	return strings.Compare(a, b)
}

func sortNames(names []string, fold bool) {
	// insertion-friendly sort with the comparison used for merging
	sortStrings(names, func(x, y string) bool {
		c := compareNames(x, y, fold)
		if c == 0 {
			return x < y
		}
		return c < 0
	})
}
