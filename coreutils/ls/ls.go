// Package ls implements GNU ls over the sandbox filesystem.
//
// Metadata the sandbox does not keep (owners, link counts, inode numbers,
// disk blocks, access and change times) comes from package meta, which
// documents the conventions: the sandbox user owns the files, blocks are
// what ext4 with 4 KiB blocks would use.
package ls

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/files/argmatch"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/files/human"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/timefmt"
)

type format int

const (
	oneLine format = iota
	longFormat
	vertical
	horizontal
	commas
)

type timeKind int

const (
	timeMtime timeKind = iota
	timeAtime
	timeCtime
	timeBirth
)

type indicatorStyle int

const (
	indNone indicatorStyle = iota
	indSlash
	indFileType
	indClassify
)

type derefMode int

const (
	derefUndefined derefMode = iota
	derefNever
	derefCmdLine
	derefCmdLineDirs
	derefAlways
)

type ignoreMode int

const (
	ignoreDefault ignoreMode = iota
	ignoreDotDot
	ignoreMinimal
)

var options = builtins.Options{List: []builtins.Option{
	{Short: 'a', Long: "all"},
	{Short: 'A', Long: "almost-all"},
	{Long: "author"},
	{Short: 'b', Long: "escape"},
	{Long: "block-size", Arg: builtins.RequiredArg},
	{Short: 'B', Long: "ignore-backups"},
	{Short: 'c'},
	{Short: 'C'},
	{Long: "color", Arg: builtins.OptionalArg},
	{Long: "colour", Arg: builtins.OptionalArg},
	{Short: 'd', Long: "directory"},
	{Short: 'D', Long: "dired"},
	{Short: 'f'},
	{Short: 'F'},
	{Long: "classify", Arg: builtins.OptionalArg},
	{Long: "file-type"},
	{Long: "format", Arg: builtins.RequiredArg},
	{Long: "full-time"},
	{Short: 'g'},
	{Long: "group-directories-first"},
	{Short: 'G', Long: "no-group"},
	{Short: 'h', Long: "human-readable"},
	{Long: "si"},
	{Short: 'H', Long: "dereference-command-line"},
	{Long: "dereference-command-line-symlink-to-dir"},
	{Long: "hide", Arg: builtins.RequiredArg},
	{Long: "hyperlink", Arg: builtins.OptionalArg},
	{Long: "indicator-style", Arg: builtins.RequiredArg},
	{Short: 'i', Long: "inode"},
	{Short: 'I', Long: "ignore", Arg: builtins.RequiredArg},
	{Short: 'k', Long: "kibibytes"},
	{Short: 'l'},
	{Short: 'L', Long: "dereference"},
	{Short: 'm'},
	{Short: 'n', Long: "numeric-uid-gid"},
	{Short: 'N', Long: "literal"},
	{Short: 'o'},
	{Short: 'p'},
	{Short: 'q', Long: "hide-control-chars"},
	{Long: "show-control-chars"},
	{Short: 'Q', Long: "quote-name"},
	{Long: "quoting-style", Arg: builtins.RequiredArg},
	{Short: 'r', Long: "reverse"},
	{Short: 'R', Long: "recursive"},
	{Short: 's', Long: "size"},
	{Short: 'S'},
	{Long: "sort", Arg: builtins.RequiredArg},
	{Long: "time", Arg: builtins.RequiredArg},
	{Long: "time-style", Arg: builtins.RequiredArg},
	{Short: 't'},
	{Short: 'T', Long: "tabsize", Arg: builtins.RequiredArg},
	{Short: 'u'},
	{Short: 'U'},
	{Short: 'v'},
	{Short: 'w', Long: "width", Arg: builtins.RequiredArg},
	{Short: 'x'},
	{Short: 'X'},
	{Short: 'Z', Long: "context"},
	{Long: "zero"},
	{Short: '1'},
	{Long: "help"},
	{Long: "version"},
}}

var (
	sortChoices = []argmatch.Choice{
		{Names: []string{"none"}, Value: int(sortNone)},
		{Names: []string{"time"}, Value: int(sortTime)},
		{Names: []string{"size"}, Value: int(sortSize)},
		{Names: []string{"extension"}, Value: int(sortExtension)},
		{Names: []string{"version"}, Value: int(sortVersion)},
		{Names: []string{"width"}, Value: int(sortWidth)},
	}
	timeChoices = []argmatch.Choice{
		{Names: []string{"atime", "access", "use"}, Value: int(timeAtime)},
		{Names: []string{"ctime", "status"}, Value: int(timeCtime)},
		{Names: []string{"birth", "creation"}, Value: int(timeBirth)},
	}
	formatChoices = []argmatch.Choice{
		{Names: []string{"verbose", "long"}, Value: int(longFormat)},
		{Names: []string{"commas"}, Value: int(commas)},
		{Names: []string{"horizontal", "across"}, Value: int(horizontal)},
		{Names: []string{"vertical"}, Value: int(vertical)},
		{Names: []string{"single-column"}, Value: int(oneLine)},
	}
	indicatorChoices = []argmatch.Choice{
		{Names: []string{"none"}, Value: int(indNone)},
		{Names: []string{"slash"}, Value: int(indSlash)},
		{Names: []string{"file-type"}, Value: int(indFileType)},
		{Names: []string{"classify"}, Value: int(indClassify)},
	}
	quotingChoices = []argmatch.Choice{
		{Names: []string{"literal"}, Value: int(quote.Literal)},
		{Names: []string{"shell"}, Value: int(quote.Shell)},
		{Names: []string{"shell-always"}, Value: int(quote.ShellAlways)},
		{Names: []string{"shell-escape"}, Value: int(quote.ShellEscape)},
		{Names: []string{"shell-escape-always"}, Value: int(quote.ShellEscapeAlways)},
		{Names: []string{"c"}, Value: int(quote.C)},
		{Names: []string{"c-maybe"}, Value: cMaybe},
		{Names: []string{"escape"}, Value: int(quote.Escape)},
		{Names: []string{"locale"}, Value: int(quote.Locale)},
		{Names: []string{"clocale"}, Value: int(quote.CLocale)},
	}
)

// cMaybe is the c-maybe quoting style: C quotes only when needed.
const cMaybe = 100

// lister holds one ls invocation's settings and state.
type lister struct {
	ctx context.Context
	c   *builtins.Call
	out *countingWriter

	format      format
	sort        sortKey
	reverse     bool
	timeKind    timeKind
	indicator   indicatorStyle
	deref       derefMode
	ignore      ignoreMode
	ignorePats  []string
	hidePats    []string
	directory   bool
	recursive   bool
	dirsFirst   bool
	inode       bool
	blocks      bool
	showOwner   bool
	showGroup   bool
	showAuthor  bool
	numeric     bool
	context     bool
	quoting     quote.Style
	cMaybe      bool
	hideControl bool
	colors      *colorTable
	hyperlink   bool
	lineLength  int
	tabSize     int
	eol         byte
	dired       bool
	fileFmt     human.Format // sizes in -l
	blockFmt    human.Format // -s and totals
	oldFmt      string       // time formats for non-recent and recent files
	recentFmt   string
	loc         *time.Location
	now         time.Time

	status     int
	printedAny bool    // something was written (for blank lines between dirs)
	diredNames []int64 // --dired: start and end offsets of the names
	diredDirs  []int64 // and of the directory headings
	dirHeaders bool
	needTarget bool // symlink targets must be read and stat'ed
	q          quote.Quoter
}

// Run is the ls command.
func Run(ctx context.Context, c *builtins.Call) int {
	l := &lister{ctx: ctx, c: c, out: &countingWriter{w: bufio.NewWriterSize(c.Stdout, 64<<10)}}
	operands, status, ok := l.parse()
	if !ok {
		return status
	}
	st := l.run(operands)
	if l.dired && l.format == longFormat {
		l.writeDired()
	}
	if err := l.out.Flush(); err != nil {
		if builtins.IsBrokenPipe(err) {
			return 141
		}
		c.Errorf("write error: %s", builtins.ErrText(err))
		return 2
	}
	return st
}

func (l *lister) parse() ([]string, int, bool) {
	c := l.c
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		return nil, c.UsageFail(err, "", 2), false
	}
	l.format = oneLine
	l.showOwner, l.showGroup = true, true
	l.tabSize = 8
	l.eol = '\n'
	l.q = quote.New(c)
	// dir and vdir are ls with columns or a long listing and C escapes,
	// whether or not the output is a terminal.
	switch c.Name() {
	case "dir":
		l.format, l.quoting = vertical, quote.Escape
	case "vdir":
		l.format, l.quoting = longFormat, quote.Escape
	}
	l.fileFmt = human.Format{Base: 1024, BlockSize: 1}
	l.blockFmt = human.FromEnv(c.LookupEnv, human.Bytes1K, "LS_BLOCK_SIZE", "BLOCK_SIZE", "BLOCKSIZE")
	if v, ok := c.LookupEnv("LS_BLOCK_SIZE"); ok && v != "" {
		l.fileFmt = l.blockFmt
	} else if v, ok := c.LookupEnv("BLOCK_SIZE"); ok && v != "" {
		l.fileFmt = l.blockFmt
	}
	if qs := c.Getenv("QUOTING_STYLE"); qs != "" {
		if v, found, _ := argmatch.Match(qs, quotingChoices); found && qs == quotingName(v) {
			l.setQuoting(v)
		} else {
			c.Errorf("ignoring invalid value of environment variable QUOTING_STYLE: %s", l.q.Q(qs))
		}
	}
	timeStyle := ""
	timeStyleSet := false
	colorWhen := argmatch.Never
	sortSet := false
	kibibytes := false
	width := -1
	var hyper = argmatch.Never
	// vdir's long listing is only a default: -1 replaces it, as it does
	// not replace a long listing asked for by an option.
	implicitLong := l.format == longFormat
	for _, o := range opts {
		switch o.Key {
		case "format", "full-time", "g", "l", "numeric-uid-gid", "o":
			implicitLong = false
		}
		switch o.Key {
		case "help":
			l.help()
			return nil, 0, false
		case "version":
			return nil, c.Version(), false
		case "all":
			l.ignore = ignoreMinimal
		case "almost-all":
			l.ignore = ignoreDotDot
		case "author":
			l.showAuthor = true
		case "escape":
			l.quoting, l.cMaybe = quote.Escape, false
		case "block-size":
			f, err := human.ParseBlockSize(o.Value)
			if err != nil {
				c.Errorf("%s", human.ArgError(err, "--block-size", o.Value, l.q.AF))
				return nil, 2, false
			}
			l.fileFmt, l.blockFmt = f, f
		case "ignore-backups":
			l.ignorePats = append(l.ignorePats, "*~", ".*~")
		case "c":
			l.timeKind = timeCtime
		case "C":
			l.format = vertical
		case "color", "colour":
			v, ok := argmatch.GetWhen(c, o, "--color", 1)
			if !ok {
				return nil, 1, false
			}
			colorWhen = v
		case "directory":
			l.directory = true
		case "dired":
			l.dired = true
		case "f":
			l.ignore = ignoreMinimal
			l.sort, sortSet = sortNone, true
			if l.format == longFormat {
				l.format = oneLine
			}
			l.blocks = false
			colorWhen = argmatch.Never
			hyper = argmatch.Never
		case "F":
			l.indicator = indClassify
		case "classify":
			when, ok := argmatch.GetWhen(c, o, "--classify", 1)
			if !ok {
				return nil, 1, false
			}
			if when == argmatch.Always {
				l.indicator = indClassify
			}
		case "file-type":
			l.indicator = indFileType
		case "format":
			v, ok := argmatch.Get(c, o.Value, "--format", formatChoices, 1)
			if !ok {
				return nil, 1, false
			}
			l.format = format(v)
		case "full-time":
			l.format = longFormat
			timeStyle, timeStyleSet = "full-iso", true
		case "g":
			l.format = longFormat
			l.showOwner = false
		case "group-directories-first":
			l.dirsFirst = true
		case "no-group":
			l.showGroup = false
		case "human-readable":
			l.fileFmt, l.blockFmt = human.HumanReadable, human.HumanReadable
		case "si":
			l.fileFmt, l.blockFmt = human.SI, human.SI
		case "dereference-command-line":
			l.deref = derefCmdLine
		case "dereference-command-line-symlink-to-dir":
			l.deref = derefCmdLineDirs
		case "hide":
			l.hidePats = append(l.hidePats, o.Value)
		case "hyperlink":
			v, ok := argmatch.GetWhen(c, o, "--hyperlink", 1)
			if !ok {
				return nil, 1, false
			}
			hyper = v
		case "indicator-style":
			v, ok := argmatch.Get(c, o.Value, "--indicator-style", indicatorChoices, 1)
			if !ok {
				return nil, 1, false
			}
			l.indicator = indicatorStyle(v)
		case "inode":
			l.inode = true
		case "ignore":
			l.ignorePats = append(l.ignorePats, o.Value)
		case "kibibytes":
			kibibytes = true
		case "l":
			l.format = longFormat
		case "dereference":
			l.deref = derefAlways
		case "m":
			l.format = commas
		case "numeric-uid-gid":
			l.format = longFormat
			l.numeric = true
		case "literal":
			l.quoting, l.cMaybe = quote.Literal, false
		case "o":
			l.format = longFormat
			l.showGroup = false
		case "p":
			l.indicator = indSlash
		case "hide-control-chars":
			l.hideControl = true
		case "show-control-chars":
			l.hideControl = false
		case "quote-name":
			l.quoting, l.cMaybe = quote.C, false
		case "quoting-style":
			v, ok := argmatch.Get(c, o.Value, "--quoting-style", quotingChoices, 1)
			if !ok {
				return nil, 1, false
			}
			l.setQuoting(v)
		case "reverse":
			l.reverse = true
		case "recursive":
			l.recursive = true
		case "size":
			l.blocks = true
		case "S":
			l.sort, sortSet = sortSize, true
		case "sort":
			v, ok := argmatch.Get(c, o.Value, "--sort", sortChoices, 1)
			if !ok {
				return nil, 1, false
			}
			l.sort, sortSet = sortKey(v), true
		case "time":
			v, ok := argmatch.Get(c, o.Value, "--time", timeChoices, 1)
			if !ok {
				return nil, 1, false
			}
			l.timeKind = timeKind(v)
		case "time-style":
			timeStyle, timeStyleSet = o.Value, true
		case "t":
			l.sort, sortSet = sortTime, true
		case "tabsize":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				c.Errorf("invalid tab size: %s", l.q.Q(o.Value))
				return nil, 2, false
			}
			l.tabSize = n
		case "u":
			l.timeKind = timeAtime
		case "U":
			l.sort, sortSet = sortNone, true
		case "v":
			l.sort, sortSet = sortVersion, true
		case "width":
			n, err := strconv.Atoi(o.Value)
			if err != nil || n < 0 {
				c.Errorf("invalid line width: %s", l.q.Q(o.Value))
				return nil, 2, false
			}
			width = n
		case "x":
			l.format = horizontal
		case "X":
			l.sort, sortSet = sortExtension, true
		case "context":
			l.context = true
		case "zero":
			l.eol = 0
		case "1":
			if l.format != longFormat || implicitLong {
				l.format = oneLine
			}
		}
	}
	// -c and -u sort by their time unless a long listing shows it.
	if !sortSet && l.timeKind != timeMtime && l.format != longFormat {
		l.sort = sortTime
	}
	if kibibytes && !l.blockFmt.Auto {
		l.blockFmt = human.Bytes1K
	}
	if colorWhen == argmatch.Always {
		l.colors = loadColors(c.Getenv)
	}
	l.hyperlink = hyper == argmatch.Always
	if l.colors != nil {
		// GNU ls pads with spaces only when coloring.
		l.tabSize = 0
	}
	if l.eol == 0 {
		// --zero: one name per line, no quoting or color.
		if l.format != longFormat {
			l.format = oneLine
		}
		l.colors = nil
		l.quoting = quote.Literal
		l.hideControl = false
	}
	// Line width: -w, else COLUMNS, else 80.
	l.lineLength = 80
	if v := c.Getenv("COLUMNS"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			l.lineLength = n
		}
	}
	if width >= 0 {
		l.lineLength = width
	}
	if v := c.Getenv("TABSIZE"); v != "" && !hasOpt(opts, "tabsize") && l.colors == nil {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			l.tabSize = n
		}
	}
	if l.deref == derefUndefined {
		if l.indicator == indClassify || l.directory || l.format == longFormat {
			l.deref = derefNever
		} else {
			l.deref = derefCmdLineDirs
		}
	}
	l.needTarget = l.format == longFormat || l.dirsFirst || l.colors != nil || l.indicator == indClassify || l.indicator == indFileType
	l.loc = timefmt.Location(c.LookupEnv)
	l.now = time.Now()
	if l.format == longFormat {
		if !timeStyleSet {
			if v, ok := c.LookupEnv("TIME_STYLE"); ok {
				timeStyle = v
			}
		}
		if st, ok := l.setTimeStyle(timeStyle); !ok {
			return nil, st, false
		}
	}
	l.dirHeaders = len(operands) > 1 || l.recursive
	if len(operands) == 0 {
		operands = []string{"."}
	}
	return operands, 0, true
}

func hasOpt(opts []builtins.Opt, key string) bool {
	for _, o := range opts {
		if o.Key == key {
			return true
		}
	}
	return false
}

func quotingName(v int) string {
	for _, ch := range quotingChoices {
		if ch.Value == v {
			return ch.Names[0]
		}
	}
	return ""
}

func (l *lister) setQuoting(v int) {
	if v == cMaybe {
		l.quoting, l.cMaybe = quote.C, true
		return
	}
	l.quoting, l.cMaybe = quote.Style(v), false
}

// posixLocale reports whether LC_TIME is the C/POSIX locale, where
// "posix-" time styles mean the locale style.
func (l *lister) posixLocale() bool {
	for _, k := range []string{"LC_ALL", "LC_TIME", "LANG"} {
		if v := l.c.Getenv(k); v != "" {
			return v == "C" || v == "POSIX"
		}
	}
	return true
}

func (l *lister) setTimeStyle(style string) (int, bool) {
	for strings.HasPrefix(style, "posix-") {
		if l.posixLocale() {
			style = "locale"
			break
		}
		style = style[len("posix-"):]
	}
	switch {
	case strings.HasPrefix(style, "+"):
		f := style[1:]
		if old, recent, ok := strings.Cut(f, "\n"); ok {
			if strings.Contains(recent, "\n") {
				l.c.Errorf("invalid time style format %s", l.q.Q(style[1:]))
				return 2, false
			}
			l.oldFmt, l.recentFmt = old, recent
		} else {
			l.oldFmt, l.recentFmt = f, f
		}
	case style == "full-iso":
		l.oldFmt, l.recentFmt = "%Y-%m-%d %H:%M:%S.%N %z", "%Y-%m-%d %H:%M:%S.%N %z"
	case style == "long-iso":
		l.oldFmt, l.recentFmt = "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M"
	case style == "iso":
		l.oldFmt, l.recentFmt = "%Y-%m-%d ", "%m-%d %H:%M"
	case style == "locale", style == "":
		l.oldFmt, l.recentFmt = "%b %e  %Y", "%b %e %H:%M"
	default:
		q := l.q.Q(style)
		l.c.Errorf("invalid argument %s for %s", q, l.q.Q("time style"))
		fmt.Fprint(l.c.Stderr, "Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  - [posix-]iso\n  - [posix-]locale\n  - +FORMAT (e.g., +%H:%M) for a 'date'-style format\n")
		l.c.TryHelp(0)
		return 2, false
	}
	return 0, true
}

// fileTime is the time ls shows and sorts by.
func (l *lister) fileTime(fi fs.FileInfo) time.Time {
	switch l.timeKind {
	case timeAtime:
		return atime(fi)
	case timeCtime:
		return ctime(fi)
	case timeBirth:
		return time.Time{}
	}
	return fi.ModTime()
}

// formatTime renders a file time for -l.
func (l *lister) formatTime(t time.Time) string {
	if t.IsZero() {
		w := len(timefmt.Strftime(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), l.oldFmt))
		return strings.Repeat(" ", max(w-1, 0)) + "?"
	}
	now := l.now
	if t.After(now) {
		now = time.Now()
		l.now = now
	}
	sixMonthsAgo := now.Add(-15778476 * time.Second)
	f := l.oldFmt
	if t.After(sixMonthsAgo) && t.Before(now) {
		f = l.recentFmt
	}
	return timefmt.Strftime(t.In(l.loc), f)
}

// ignored reports whether a directory entry is left out.
func (l *lister) ignored(name string) bool {
	if l.ignore != ignoreMinimal && name[0] == '.' {
		if l.ignore == ignoreDefault || name == "." || name == ".." {
			return true
		}
	}
	if l.ignore == ignoreDefault {
		for _, p := range l.hidePats {
			if glob.Match(p, name, glob.Period) {
				return true
			}
		}
	}
	for _, p := range l.ignorePats {
		if glob.Match(p, name, glob.Period) {
			return true
		}
	}
	return false
}

func (l *lister) help() {
	fmt.Fprintf(l.c.Stdout, `Usage: %s [OPTION]... [FILE]...
List information about the FILEs (the current directory by default).
Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.

Mandatory arguments to long options are mandatory for short options too.
  -a, --all                  do not ignore entries starting with .
  -A, --almost-all           do not list implied . and ..
      --author               with -l, print the author of each file
  -b, --escape               print C-style escapes for nongraphic characters
      --block-size=SIZE      with -l, scale sizes by SIZE when printing them
  -B, --ignore-backups       do not list implied entries ending with ~
  -c                         with -lt: sort by, and show, ctime; with -l: show
                             ctime and sort by name; otherwise: sort by ctime
  -C                         list entries by columns
      --color[=WHEN]         color the output WHEN (always, auto, never)
  -d, --directory            list directories themselves, not their contents
  -f                         list all entries in directory order
  -F, --classify[=WHEN]      append indicator (one of */=>@|) to entries WHEN
      --file-type            likewise, except do not append '*'
      --format=WORD          across -x, commas -m, horizontal -x, long -l,
                             single-column -1, verbose -l, vertical -C
      --full-time            like -l --time-style=full-iso
  -g                         like -l, but do not list owner
      --group-directories-first  group directories before files
  -G, --no-group             in a long listing, don't print group names
  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G etc.
      --si                   likewise, but use powers of 1000 not 1024
  -H, --dereference-command-line  follow symbolic links listed on the command line
      --hide=PATTERN         do not list implied entries matching shell PATTERN
      --indicator-style=WORD  append indicator with style WORD to entry names:
                             none (default), slash (-p), file-type, classify (-F)
  -i, --inode                print the index number of each file
  -I, --ignore=PATTERN       do not list implied entries matching shell PATTERN
  -k, --kibibytes            default to 1024-byte blocks for file system usage
  -l                         use a long listing format
  -L, --dereference          show information for the file a symbolic link
                             references rather than for the link itself
  -m                         fill width with a comma separated list of entries
  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs
  -N, --literal              print entry names without quoting
  -o                         like -l, but do not list group information
  -p, --indicator-style=slash  append / indicator to directories
  -q, --hide-control-chars   print ? instead of nongraphic characters
      --show-control-chars   show nongraphic characters as-is (the default)
  -Q, --quote-name           enclose entry names in double quotes
      --quoting-style=WORD   use quoting style WORD for entry names: literal,
                             locale, shell, shell-always, shell-escape,
                             shell-escape-always, c, escape
  -r, --reverse              reverse order while sorting
  -R, --recursive            list subdirectories recursively
  -s, --size                 print the allocated size of each file, in blocks
  -S                         sort by file size, largest first
      --sort=WORD            sort by WORD instead of name: none (-U), size (-S),
                             time (-t), version (-v), extension (-X), width
      --time=WORD            select which time to show and sort by: atime,
                             access, use (-u); ctime, status (-c); birth
      --time-style=TIME_STYLE  time/date format with -l: full-iso, long-iso,
                             iso, locale, or +FORMAT
  -t                         sort by time, newest first; see --time
  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8
  -u                         with -lt: sort by, and show, access time
  -U                         do not sort; list entries in directory order
  -v                         natural sort of (version) numbers within text
  -w, --width=COLS           set output width to COLS.  0 means no limit
  -x                         list entries by lines instead of by columns
  -X                         sort alphabetically by entry extension
  -Z, --context              print any security context of each file
      --zero                 end each output line with NUL, not newline
  -1                         list one file per line
      --help                 display this help and exit
      --version              output version information and exit

Exit status:
 0  if OK,
 1  if minor problems (e.g., cannot access subdirectory),
 2  if serious trouble (e.g., cannot access command-line argument).
`, l.c.Name())
}
