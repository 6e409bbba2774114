// Package grep implements grep, egrep and fgrep (GNU grep 3.8): search
// files for lines matching patterns.
package grep

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/posixre"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const usageLine = "[OPTION]... PATTERNS [FILE]..."

const help = `Usage: grep [OPTION]... PATTERNS [FILE]...
Search for PATTERNS in each FILE.
Example: grep -i 'hello world' menu.h main.c
PATTERNS can contain multiple patterns separated by newlines.

Pattern selection and interpretation:
  -E, --extended-regexp     PATTERNS are extended regular expressions
  -F, --fixed-strings       PATTERNS are strings
  -G, --basic-regexp        PATTERNS are basic regular expressions
  -P, --perl-regexp         PATTERNS are Perl regular expressions
  -e, --regexp=PATTERNS     use PATTERNS for matching
  -f, --file=FILE           take PATTERNS from FILE
  -i, --ignore-case         ignore case distinctions in patterns and data
      --no-ignore-case      do not ignore case distinctions (default)
  -w, --word-regexp         match only whole words
  -x, --line-regexp         match only whole lines
  -z, --null-data           a data line ends in 0 byte, not newline

Miscellaneous:
  -s, --no-messages         suppress error messages
  -v, --invert-match        select non-matching lines
  -V, --version             display version information and exit
      --help                display this help text and exit

Output control:
  -m, --max-count=NUM       stop after NUM selected lines
  -b, --byte-offset         print the byte offset with output lines
  -n, --line-number         print line number with output lines
      --line-buffered       flush output on every line
  -H, --with-filename       print file name with output lines
  -h, --no-filename         suppress the file name prefix on output
      --label=LABEL         use LABEL as the standard input file name prefix
  -o, --only-matching       show only nonempty parts of lines that match
  -q, --quiet, --silent     suppress all normal output
      --binary-files=TYPE   assume that binary files are TYPE;
                            TYPE is 'binary', 'text', or 'without-match'
  -a, --text                equivalent to --binary-files=text
  -I                        equivalent to --binary-files=without-match
  -d, --directories=ACTION  how to handle directories;
                            ACTION is 'read', 'recurse', or 'skip'
  -D, --devices=ACTION      how to handle devices, FIFOs and sockets;
                            ACTION is 'read' or 'skip'
  -r, --recursive           like --directories=recurse
  -R, --dereference-recursive  likewise, but follow all symlinks
      --include=GLOB        search only files that match GLOB (a file pattern)
      --exclude=GLOB        skip files that match GLOB
      --exclude-from=FILE   skip files that match any file pattern from FILE
      --exclude-dir=GLOB    skip directories that match GLOB
  -L, --files-without-match  print only names of FILEs with no selected lines
  -l, --files-with-matches  print only names of FILEs with selected lines
  -c, --count               print only a count of selected lines per FILE
  -T, --initial-tab         make tabs line up (if needed)
  -Z, --null                print 0 byte after FILE name

Context control:
  -B, --before-context=NUM  print NUM lines of leading context
  -A, --after-context=NUM   print NUM lines of trailing context
  -C, --context=NUM         print NUM lines of output context
  -NUM                      same as --context=NUM
      --group-separator=SEP  print SEP on line between matches with context
      --no-group-separator  do not print separator for matches with context
      --color[=WHEN],
      --colour[=WHEN]       use markers to highlight the matching strings;
                            WHEN is 'always', 'never', or 'auto'
  -U, --binary              do not strip CR characters at EOL (MSDOS/Windows)

When FILE is '-', read standard input.  With no FILE, read '.' if
recursive, '-' otherwise.  With fewer than two FILEs, assume -h.
Exit status is 0 if any line is selected, 1 otherwise;
if any error occurs and -q is not given, the exit status is 2.

Report bugs to: bug-grep@gnu.org
GNU grep home page: <https://www.gnu.org/software/grep/>
General help using GNU software: <https://www.gnu.org/gethelp/>
`

// options follows GNU grep's long_options order, which ambiguity
// messages show. Aliases (--fixed-regexp, --colour, --silent) are folded
// into their primary name before parsing.
var options = []builtins.Option{
	{Short: 'G', Long: "basic-regexp"},
	{Short: 'E', Long: "extended-regexp"},
	{Short: 'F', Long: "fixed-strings"},
	{Short: 'P', Long: "perl-regexp"},
	{Short: 'A', Long: "after-context", Arg: builtins.RequiredArg},
	{Short: 'B', Long: "before-context", Arg: builtins.RequiredArg},
	{Long: "binary-files", Arg: builtins.RequiredArg},
	{Short: 'b', Long: "byte-offset"},
	{Short: 'C', Long: "context", Arg: builtins.RequiredArg},
	{Long: "color", Arg: builtins.OptionalArg},
	{Short: 'c', Long: "count"},
	{Short: 'D', Long: "devices", Arg: builtins.RequiredArg},
	{Short: 'd', Long: "directories", Arg: builtins.RequiredArg},
	{Short: 'R', Long: "dereference-recursive"},
	{Long: "exclude", Arg: builtins.RequiredArg},
	{Long: "exclude-from", Arg: builtins.RequiredArg},
	{Long: "exclude-dir", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "file", Arg: builtins.RequiredArg},
	{Short: 'l', Long: "files-with-matches"},
	{Short: 'L', Long: "files-without-match"},
	{Long: "group-separator", Arg: builtins.RequiredArg},
	{Long: "help"},
	{Long: "include", Arg: builtins.RequiredArg},
	{Short: 'i', Long: "ignore-case"},
	{Long: "no-ignore-case"},
	{Short: 'T', Long: "initial-tab"},
	{Long: "label", Arg: builtins.RequiredArg},
	{Long: "line-buffered"},
	{Short: 'n', Long: "line-number"},
	{Short: 'x', Long: "line-regexp"},
	{Short: 'm', Long: "max-count", Arg: builtins.RequiredArg},
	{Short: 'h', Long: "no-filename"},
	{Long: "no-group-separator"},
	{Short: 's', Long: "no-messages"},
	{Short: 'Z', Long: "null"},
	{Short: 'z', Long: "null-data"},
	{Short: 'o', Long: "only-matching"},
	{Short: 'q', Long: "quiet"},
	{Short: 'r', Long: "recursive"},
	{Short: 'e', Long: "regexp", Arg: builtins.RequiredArg},
	{Short: 'v', Long: "invert-match"},
	{Short: 'a', Long: "text"},
	{Short: 'U', Long: "binary"},
	{Short: 'u', Long: "unix-byte-offsets"},
	{Short: 'V', Long: "version"},
	{Short: 'H', Long: "with-filename"},
	{Short: 'w', Long: "word-regexp"},
	{Short: 'y'},
	{Short: 'I'},
}

// aliases are long options that getopt treats as the same option as
// another (same value), so that a prefix of both is not ambiguous.
var aliases = map[string]string{"fixed-regexp": "fixed-strings", "colour": "color", "silent": "quiet"}

const (
	binBinary = iota
	binText
	binWithoutMatch
)

const (
	dirRead = iota
	dirSkip
	dirRecurse
)

type config struct {
	syntax     posixre.Syntax
	matcherSet byte
	patterns   []string
	havePat    bool
	ignoreCase bool
	word, line bool
	nullData   bool
	noMessages bool
	invert     bool
	maxCount   int64
	byteOffset bool
	lineNumber bool
	lineBuf    bool
	withName   int // -1 unset, 0 -h, 1 -H
	label      string
	only       bool
	quiet      bool
	binary     int
	dirs       int
	devSkip    bool
	deref      bool
	filters    []filter // --include / --exclude in order
	excludeDir []string
	list       byte // 'l', 'L' or 0
	count      bool
	initialTab bool
	nullName   bool
	before     int64 // -1 when unset
	after      int64
	context    int64
	groupSep   string
	noGroupSep bool
	color      bool
	utf8       bool
	eol        byte
}

type filter struct {
	glob    string
	include bool
}

// Run is the grep command (also egrep and fgrep).
func Run(ctx context.Context, c *builtins.Call) int {
	switch c.Name() {
	case "egrep", "fgrep":
		// Debian's egrep and fgrep are scripts running grep -E / grep -F:
		// messages name grep.
		flag := "-E"
		if c.Name() == "fgrep" {
			flag = "-F"
		}
		return Run(ctx, c.Sub(append([]string{"grep", flag}, c.Args[1:]...)))
	}
	cfg := &config{maxCount: -1, withName: -1, before: -1, after: -1, context: -1, groupSep: "--", eol: '\n'}
	args, err := prescan(c.Args[1:])
	if err != nil {
		return c.UsageFail(err, usageLine, 2)
	}
	opts, operands, err := (&builtins.Options{List: options}).Parse(args)
	if err != nil {
		return c.UsageFail(err, usageLine, 2)
	}
	showHelp := false
	for _, o := range opts {
		if code, done := cfg.apply(c, o, &showHelp); done {
			return code
		}
	}
	if showHelp {
		io.WriteString(c.Stdout, help)
		return 0
	}
	for _, o := range opts {
		if o.Key == "version" {
			return c.Version()
		}
	}
	if !cfg.havePat {
		if len(operands) == 0 {
			fmt.Fprintf(c.Stderr, "Usage: %s %s\n", c.Name(), usageLine)
			c.TryHelp(0)
			return 2
		}
		cfg.patterns = splitPatterns(operands[0])
		operands = operands[1:]
	}
	cfg.utf8 = textio.IsUTF8(c)
	if cfg.nullData {
		cfg.eol = 0
	}
	if cfg.after < 0 {
		cfg.after = cfg.context
	}
	if cfg.before < 0 {
		cfg.before = cfg.context
	}
	if cfg.maxCount == 0 {
		return 1
	}
	if cfg.syntax == posixre.PCRE && len(cfg.patterns) > 1 {
		c.Errorf("the -P option only supports a single pattern")
		return 2
	}
	m, err := newMatcher(cfg)
	if err != nil {
		c.Errorf("%s", err.Error())
		return 2
	}
	for _, w := range m.warnings {
		c.Errorf("warning: %s", w)
	}
	limit := newMatchLimit(ctx)
	defer limit.stop()
	limit.bind(m)
	g := &grepper{ctx: limit.ctx, c: c, cfg: cfg, m: m, out: textio.NewWriter(c.Stdout), limit: limit}
	code := g.run(operands)
	if limit.hit.Load() {
		c.Errorf("exceeded PCRE's backtracking limit")
		return 2
	}
	return code
}

// splitPatterns splits a PATTERNS argument at newlines.
func splitPatterns(s string) []string {
	return strings.Split(s, "\n")
}

// prescan folds getopt aliases, and turns -NUM digits into --context=NUM.
func prescan(args []string) ([]string, error) {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, arg := canonLong(name)
			if full != "" {
				a = "--" + full
				if hasVal {
					a += "=" + val
				}
			}
			out = append(out, a)
			if arg == builtins.RequiredArg && !hasVal && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		// a group of short options
		var kept []byte
		digits := ""
		lastDigit := false
		takesNext := false
		for j := 1; j < len(a); j++ {
			ch := a[j]
			if ch >= '0' && ch <= '9' {
				if !lastDigit {
					digits = ""
				}
				digits += string(ch)
				lastDigit = true
				continue
			}
			lastDigit = false
			kept = append(kept, ch)
			if o := findShort(ch); o != nil && o.Arg == builtins.RequiredArg {
				kept = append(kept, a[j+1:]...)
				takesNext = j+1 == len(a)
				break
			}
		}
		if digits != "" {
			out = append(out, "--context="+digits)
		}
		if len(kept) > 0 {
			out = append(out, "-"+string(kept))
		}
		if takesNext && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
	}
	return out, nil
}

func findShort(ch byte) *builtins.Option {
	for i := range options {
		if options[i].Short == ch {
			return &options[i]
		}
	}
	return nil
}

// canonLong resolves a long option name or unambiguous prefix, folding
// aliases; it returns "" when the name is unknown or ambiguous (the parser
// then reports it).
func canonLong(name string) (string, builtins.ArgMode) {
	if name == "" {
		return "", builtins.NoArg
	}
	all := make([]string, 0, len(options)+len(aliases))
	for _, o := range options {
		if o.Long != "" {
			all = append(all, o.Long)
		}
	}
	for a := range aliases {
		all = append(all, a)
	}
	found := ""
	for _, n := range all {
		if n == name {
			found = n
			break
		}
		if strings.HasPrefix(n, name) {
			p := n
			if t, ok := aliases[n]; ok {
				p = t
			}
			if found != "" && found != p {
				return "", builtins.NoArg
			}
			found = p
		}
	}
	if t, ok := aliases[found]; ok {
		found = t
	}
	for _, o := range options {
		if o.Long == found && found != "" {
			return found, o.Arg
		}
	}
	return "", builtins.NoArg
}

// apply sets one option; done reports that grep must exit with code.
func (cfg *config) apply(c *builtins.Call, o builtins.Opt, showHelp *bool) (int, bool) {
	setMatcher := func(ch byte, syn posixre.Syntax) (int, bool) {
		if cfg.matcherSet != 0 && cfg.matcherSet != ch {
			c.Errorf("conflicting matchers specified")
			return 2, true
		}
		cfg.matcherSet, cfg.syntax = ch, syn
		return 0, false
	}
	switch o.Key {
	case "basic-regexp":
		return setMatcher('G', posixre.BRE)
	case "extended-regexp":
		return setMatcher('E', posixre.ERE)
	case "fixed-strings":
		return setMatcher('F', posixre.Fixed)
	case "perl-regexp":
		return setMatcher('P', posixre.PCRE)
	case "after-context", "before-context", "context":
		n, ok := parseContext(o.Value)
		if !ok {
			c.Errorf("%s: invalid context length argument", o.Value)
			return 2, true
		}
		switch o.Key {
		case "after-context":
			cfg.after = n
		case "before-context":
			cfg.before = n
		default:
			cfg.context = n
		}
	case "binary-files":
		switch o.Value {
		case "binary":
			cfg.binary = binBinary
		case "text":
			cfg.binary = binText
		case "without-match":
			cfg.binary = binWithoutMatch
		default:
			c.Errorf("unknown binary-files type")
			return 2, true
		}
	case "byte-offset":
		cfg.byteOffset = true
	case "color":
		if !o.Has {
			cfg.color = false // auto: standard output is never a terminal here
			break
		}
		switch strings.ToLower(o.Value) {
		case "always", "yes", "force":
			cfg.color = true
		case "never", "no", "none", "auto", "tty", "if-tty":
			cfg.color = false
		default:
			*showHelp = true
		}
	case "count":
		cfg.count = true
	case "devices":
		switch o.Value {
		case "read":
			cfg.devSkip = false
		case "skip":
			cfg.devSkip = true
		default:
			c.Errorf("unknown devices method")
			return 2, true
		}
	case "directories":
		v, ok := matchWord(o.Value, []string{"read", "recurse", "skip"})
		if !ok {
			q := func(s string) string { return quote.New(c).Q(s) }
			c.Errorf("invalid argument %s for %s", q(o.Value), q("--directories"))
			fmt.Fprintf(c.Stderr, "Valid arguments are:\n  - %s\n  - %s\n  - %s\n", q("read"), q("recurse"), q("skip"))
			fmt.Fprintf(c.Stderr, "Usage: %s %s\n", c.Name(), usageLine)
			c.TryHelp(0)
			return 1, true
		}
		switch v {
		case "read":
			cfg.dirs = dirRead
		case "recurse":
			cfg.dirs = dirRecurse
		case "skip":
			cfg.dirs = dirSkip
		}
	case "dereference-recursive":
		cfg.dirs, cfg.deref = dirRecurse, true
	case "recursive":
		cfg.dirs, cfg.deref = dirRecurse, false
	case "exclude":
		cfg.filters = append(cfg.filters, filter{glob: o.Value})
	case "include":
		cfg.filters = append(cfg.filters, filter{glob: o.Value, include: true})
	case "exclude-from":
		data, err := readAll(c, o.Value)
		if err != nil {
			c.FileError(o.Value, err, 2)
			return 2, true
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" {
				cfg.filters = append(cfg.filters, filter{glob: l})
			}
		}
	case "exclude-dir":
		g := o.Value
		for len(g) > 1 && strings.HasSuffix(g, "/") {
			g = g[:len(g)-1]
		}
		cfg.excludeDir = append(cfg.excludeDir, g)
	case "file":
		data, err := readAll(c, o.Value)
		if err != nil {
			c.FileError(o.Value, err, 2)
			return 2, true
		}
		s := string(data)
		if s != "" {
			s = strings.TrimSuffix(s, "\n")
			cfg.patterns = append(cfg.patterns, splitPatterns(s)...)
		}
		cfg.havePat = true
	case "regexp":
		cfg.patterns = append(cfg.patterns, splitPatterns(o.Value)...)
		cfg.havePat = true
	case "files-with-matches":
		cfg.list = 'l'
	case "files-without-match":
		cfg.list = 'L'
	case "group-separator":
		cfg.groupSep, cfg.noGroupSep = o.Value, false
	case "no-group-separator":
		cfg.noGroupSep = true
	case "help":
		*showHelp = true
	case "ignore-case", "y":
		cfg.ignoreCase = true
	case "no-ignore-case":
		cfg.ignoreCase = false
	case "initial-tab":
		cfg.initialTab = true
	case "label":
		cfg.label = o.Value
	case "line-buffered":
		cfg.lineBuf = true
	case "line-number":
		cfg.lineNumber = true
	case "line-regexp":
		cfg.line = true
	case "max-count":
		n, ok := parseCount(o.Value)
		if !ok {
			c.Errorf("invalid max count")
			return 2, true
		}
		cfg.maxCount = n
	case "no-filename":
		cfg.withName = 0
	case "with-filename":
		cfg.withName = 1
	case "no-messages":
		cfg.noMessages = true
	case "null":
		cfg.nullName = true
	case "null-data":
		cfg.nullData = true
	case "only-matching":
		cfg.only = true
	case "quiet":
		cfg.quiet = true
	case "invert-match":
		cfg.invert = true
	case "text":
		cfg.binary = binText
	case "I":
		cfg.binary = binWithoutMatch
	case "binary":
		// -U: no effect on POSIX systems
	case "unix-byte-offsets":
		c.Errorf("warning: --unix-byte-offsets (-u) is obsolete")
	case "word-regexp":
		cfg.word = true
	}
	return 0, false
}

// matchWord resolves an argmatch-style word or unambiguous prefix.
func matchWord(arg string, words []string) (string, bool) {
	found := ""
	for _, w := range words {
		if w == arg {
			return w, true
		}
		if arg != "" && strings.HasPrefix(w, arg) {
			if found != "" {
				return "", false
			}
			found = w
		}
	}
	return found, found != ""
}

// parseContext parses a context length: a non-negative decimal number;
// overlarge values saturate.
func parseContext(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64, true
	}
	return n, true
}

// parseCount parses -m: a decimal number, negative meaning no limit.
func parseCount(s string) (int64, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if strings.HasPrefix(t, "-") {
		neg = true
		t = t[1:]
	} else if strings.HasPrefix(t, "+") {
		t = t[1:]
	}
	if t == "" {
		return 0, false
	}
	for _, ch := range t {
		if ch < '0' || ch > '9' {
			return 0, false
		}
	}
	if neg {
		return -1, true
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return math.MaxInt64, true
	}
	return n, true
}

func readAll(c *builtins.Call, name string) ([]byte, error) {
	r, err := textio.Open(c, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
