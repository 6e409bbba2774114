// Package rg implements ripgrep 13's command line over the sandbox
// filesystem: recursive by default, .gitignore/.ignore/.rgignore and
// hidden-file rules (package ignorewalk), -t/-T file types, -g globs,
// Rust-style regular expressions (Go's RE2 syntax is ripgrep's; -P uses
// regexp2), -F -i -S -s -w -x -v -U, -l -c -o -r -q -m, -A/-B/-C context,
// --files and --json. Output is ripgrep's for a standard output that is
// not a terminal (the sandbox's never is): no line numbers unless -n, one
// "path:line" per match, no headings unless --heading. Files are searched
// in name order; ripgrep's own order varies from run to run.
package rg

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/ignorewalk"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `ripgrep 13.0.0 (bashbox)

ripgrep (rg) recursively searches the current directory for a regex pattern.
By default, ripgrep will respect gitignore rules and automatically skip hidden
files/directories and binary files.

USAGE:
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN

OPTIONS:
    -A, -B, -C NUM          after, before, around context lines
    -c, --count             count matching lines per file
        --count-matches     count matches per file
    -e, --regexp PATTERN    a pattern (repeatable)
    -f, --file PATTERNFILE  patterns from a file, one per line
    -F, --fixed-strings     patterns are literal strings
    -g, --glob GLOB         include or (!GLOB) exclude files and directories
        --iglob GLOB        as -g, case-insensitive
    -H, --with-filename     print file names
    -I, --no-filename       do not print file names
    -i, --ignore-case       case-insensitive search
    -s, --case-sensitive    case-sensitive search
    -S, --smart-case        case-insensitive if the pattern is all lower case
    -l, --files-with-matches  print the paths with at least one match
        --files-without-match print the paths without a match
    -L, --follow            follow symbolic links
    -m, --max-count NUM     at most NUM matching lines per file
    -d, --max-depth NUM     descend at most NUM directories
    -n, --line-number       show line numbers
    -N, --no-line-number    hide line numbers
    -o, --only-matching     print only the matched parts
    -P, --pcre2             Perl-compatible regular expressions
    -q, --quiet             print nothing, exit 0 at the first match
    -r, --replace TEXT      replace matches ($1, ${name} for groups)
    -t, --type TYPE         search only files of TYPE (see --type-list)
    -T, --type-not TYPE     do not search files of TYPE
    -u, --unrestricted      -u: --no-ignore, -uu: also --hidden, -uuu: also --text
    -U, --multiline         let matches span lines
    -v, --invert-match      print lines that do not match
    -w, --word-regexp       match whole words
    -x, --line-regexp       match whole lines
    -a, --text              search binary files as text
    -., --hidden            search hidden files and directories
        --no-ignore         ignore no ignore file
        --no-ignore-vcs     ignore .gitignore only
        --files             list the files that would be searched
        --json              JSON Lines output
        --heading           file names above their matches
    -0, --null              NUL after file names
    -h, --help              this help
    -V, --version           version
`

var options = builtins.Options{List: []builtins.Option{
	{Short: 'A', Long: "after-context", Arg: builtins.RequiredArg},
	{Short: 'B', Long: "before-context", Arg: builtins.RequiredArg},
	{Short: 'C', Long: "context", Arg: builtins.RequiredArg},
	{Short: 'c', Long: "count"},
	{Long: "count-matches"},
	{Short: 'e', Long: "regexp", Arg: builtins.RequiredArg},
	{Short: 'f', Long: "file", Arg: builtins.RequiredArg},
	{Short: 'F', Long: "fixed-strings"},
	{Short: 'g', Long: "glob", Arg: builtins.RequiredArg},
	{Long: "iglob", Arg: builtins.RequiredArg},
	{Short: 'H', Long: "with-filename"},
	{Short: 'I', Long: "no-filename"},
	{Short: 'h', Long: "help"},
	{Short: 'V', Long: "version"},
	{Short: 'i', Long: "ignore-case"},
	{Short: 's', Long: "case-sensitive"},
	{Short: 'S', Long: "smart-case"},
	{Short: 'l', Long: "files-with-matches"},
	{Long: "files-without-match"},
	{Short: 'L', Long: "follow"},
	{Short: 'm', Long: "max-count", Arg: builtins.RequiredArg},
	{Long: "max-depth", Arg: builtins.RequiredArg},
	{Short: 'd', Arg: builtins.RequiredArg},
	{Short: 'n', Long: "line-number"},
	{Short: 'N', Long: "no-line-number"},
	{Short: 'o', Long: "only-matching"},
	{Short: 'P', Long: "pcre2"},
	{Short: 'q', Long: "quiet"},
	{Short: 'r', Long: "replace", Arg: builtins.RequiredArg},
	{Short: 't', Long: "type", Arg: builtins.RequiredArg},
	{Short: 'T', Long: "type-not", Arg: builtins.RequiredArg},
	{Long: "type-list"},
	{Short: 'u', Long: "unrestricted"},
	{Short: 'U', Long: "multiline"},
	{Short: 'v', Long: "invert-match"},
	{Short: 'w', Long: "word-regexp"},
	{Short: 'x', Long: "line-regexp"},
	{Short: 'a', Long: "text"},
	{Short: '.', Long: "hidden"},
	{Long: "no-hidden"},
	{Long: "no-ignore"},
	{Long: "no-ignore-vcs"},
	{Long: "no-require-git"},
	{Long: "files"},
	{Long: "json"},
	{Long: "heading"},
	{Long: "no-heading"},
	{Long: "column"},
	{Long: "vimgrep"},
	{Short: '0', Long: "null"},
	{Long: "color", Arg: builtins.RequiredArg},
	{Long: "colors", Arg: builtins.RequiredArg},
	{Long: "sort", Arg: builtins.RequiredArg},
	{Long: "sort-files"},
	{Short: 'j', Long: "threads", Arg: builtins.RequiredArg},
	{Long: "no-messages"},
	{Long: "trim"},
	{Short: 'p', Long: "pretty"},
	{Long: "stats"},
}}

// matcher finds matches in one line (no line terminator).
type matcher interface {
	// find returns the matches in line, at most max (-1: all).
	find(line []byte, max int) [][]int
	// any reports whether buf may hold a match, to skip files quickly.
	any(buf []byte) bool
	expand(dst []byte, repl string, line []byte, m []int) []byte
}

type goMatcher struct {
	re, multi *regexp.Regexp
	lit       []byte // the whole pattern, when it is a literal
}

func (g goMatcher) find(line []byte, max int) [][]int { return g.re.FindAllSubmatchIndex(line, max) }
func (g goMatcher) any(buf []byte) bool               { return g.multi.Match(buf) }
func (g goMatcher) expand(dst []byte, repl string, line []byte, m []int) []byte {
	return g.re.Expand(dst, []byte(repl), line, m)
}

type pcreMatcher struct{ re *regexp2.Regexp }

func (p pcreMatcher) find(line []byte, max int) [][]int {
	s := string(line)
	var out [][]int
	m, _ := p.re.FindStringMatch(s)
	for m != nil && (max < 0 || len(out) < max) {
		// regexp2 indexes runes; convert to byte offsets.
		start := len(string([]rune(s)[:m.Index]))
		end := start + len(m.String())
		out = append(out, []int{start, end})
		m, _ = p.re.FindNextMatch(m)
	}
	return out
}
func (p pcreMatcher) any([]byte) bool { return true }
func (p pcreMatcher) expand(dst []byte, repl string, line []byte, m []int) []byte {
	return append(dst, repl...)
}

type search struct {
	ctx      context.Context
	c        *builtins.Call
	out      *bufio.Writer
	m        matcher
	invert   bool
	showPath bool
	lineNums bool
	count    bool
	countAll bool // --count-matches
	list     int  // 1: -l, -1: --files-without-match
	only     bool
	quiet    bool
	replace  *string
	maxCount int64
	before   int
	after    int
	heading  bool
	json     bool
	binaryOK bool
	nulSep   bool
	matched  bool
	errored  bool
	// printed: this file printed lines (files are separated by "--"
	// with context, by an empty line with --heading).
	printed   bool
	multiline bool
	searched  int       // files searched or listed
	errw      io.Writer // standard error, or a worker's recording
	jsonStats stats
}

type stats struct {
	searches, withMatch, bytesSearched, bytesPrinted, matchedLines, matches int64
	start                                                                   time.Time
}

// Run is the rg command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, err := options.Parse(c.Args[1:])
	if err != nil {
		fmt.Fprintf(c.Stderr, "error: %s\n", strings.TrimPrefix(err.Error(), ""))
		return 2
	}
	s := &search{ctx: ctx, c: c, maxCount: -1, errw: c.Stderr}
	s.jsonStats.start = time.Now()
	var (
		patterns                         []string
		fixed, ignoreCase, smart, pcre   bool
		word, lineRe, multiline          bool
		filesOnly                        bool
		walk                             ignorewalk.Options
		types, notTypes                  []string
		withName, noName                 bool
		unrestricted                     int
		lineNumSet, lineNum, headingFlag bool
		haveE                            bool
	)
	walk.ToolFile = ".rgignore"
	for _, o := range opts {
		switch o.Key {
		case "help":
			io.WriteString(c.Stdout, help)
			return 0
		case "version":
			io.WriteString(c.Stdout, "ripgrep 13.0.0 (bashbox "+builtins.ReleaseVersion+")\n")
			return 0
		case "type-list":
			for _, t := range typeNames() {
				fmt.Fprintf(c.Stdout, "%s: %s\n", t, strings.Join(fileTypes()[t], ", "))
			}
			return 0
		case "after-context", "before-context", "context":
			n, ok := number(o.Value)
			if !ok {
				return s.usage(fmt.Sprintf("error: Invalid value for '--%s <NUM>': invalid digit found in string", o.Key))
			}
			switch o.Key {
			case "after-context":
				s.after = int(n)
			case "before-context":
				s.before = int(n)
			default:
				s.after, s.before = int(n), int(n)
			}
		case "count":
			s.count = true
		case "count-matches":
			s.count, s.countAll = true, true
		case "regexp":
			patterns, haveE = append(patterns, o.Value), true
		case "file":
			data, err := readFile(c, o.Value)
			if err != nil {
				fmt.Fprintf(c.Stderr, "%s: %s\n", o.Value, osError(err))
				return 2
			}
			for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				patterns = append(patterns, l)
			}
			haveE = true
		case "fixed-strings":
			fixed = true
		case "glob":
			walk.Overrides = append(walk.Overrides, o.Value)
		case "iglob":
			walk.Overrides = append(walk.Overrides, o.Value)
			walk.CaseInsensitiveOverrides = true
		case "with-filename":
			withName, noName = true, false
		case "no-filename":
			noName, withName = true, false
		case "ignore-case":
			ignoreCase, smart = true, false
		case "case-sensitive":
			ignoreCase, smart = false, false
		case "smart-case":
			smart, ignoreCase = true, false
		case "files-with-matches":
			s.list = 1
		case "files-without-match":
			s.list = -1
		case "follow":
			walk.Follow = true
		case "max-count":
			n, ok := number(o.Value)
			if !ok {
				return s.usage("error: Invalid value for '--max-count <NUM>': invalid digit found in string")
			}
			s.maxCount = n
		case "max-depth", "d":
			n, ok := number(o.Value)
			if !ok {
				return s.usage("error: Invalid value for '--max-depth <NUM>': invalid digit found in string")
			}
			walk.MaxDepth = int(n)
			if n == 0 {
				walk.MaxDepth = -1
			}
		case "line-number":
			lineNumSet, lineNum = true, true
		case "no-line-number":
			lineNumSet, lineNum = true, false
		case "only-matching":
			s.only = true
		case "pcre2":
			pcre = true
		case "quiet":
			s.quiet = true
		case "replace":
			v := o.Value
			s.replace = &v
		case "type":
			if _, ok := fileTypes()[o.Value]; !ok && o.Value != "all" {
				fmt.Fprintf(c.Stderr, "unrecognized file type: %s\n", o.Value)
				return 2
			}
			types = append(types, o.Value)
		case "type-not":
			if _, ok := fileTypes()[o.Value]; !ok {
				fmt.Fprintf(c.Stderr, "unrecognized file type: %s\n", o.Value)
				return 2
			}
			notTypes = append(notTypes, o.Value)
		case "unrestricted":
			unrestricted++
		case "multiline":
			multiline = true
		case "invert-match":
			s.invert = true
		case "word-regexp":
			word = true
		case "line-regexp":
			lineRe = true
		case "text":
			s.binaryOK = true
		case "hidden":
			walk.Hidden = true
		case "no-hidden":
			walk.Hidden = false
		case "no-ignore":
			walk.NoIgnore = true
		case "no-ignore-vcs":
			walk.NoVCS = true
		case "no-require-git":
			walk.NoRequireGit = true
		case "files":
			filesOnly = true
		case "json":
			s.json = true
		case "heading", "pretty":
			headingFlag = true
		case "no-heading":
			headingFlag = false
		case "null":
			s.nulSep = true
		}
	}
	if unrestricted >= 1 {
		walk.NoIgnore = true
	}
	if unrestricted >= 2 {
		walk.Hidden = true
	}
	if unrestricted >= 3 {
		s.binaryOK = true
	}
	if !haveE && !filesOnly {
		if len(operands) == 0 {
			return s.usage("error: The following required arguments were not provided:\n    <PATTERN>\n\nUSAGE:\n    \n    rg [OPTIONS] PATTERN [PATH ...]\n    rg [OPTIONS] -e PATTERN ... [PATH ...]\n    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]\n    rg [OPTIONS] --files [PATH ...]\n    rg [OPTIONS] --type-list\n    command | rg [OPTIONS] PATTERN\n\nFor more information try --help")
		}
		patterns, operands = append(patterns, operands[0]), operands[1:]
	}
	s.lineNums = lineNumSet && lineNum
	s.heading = headingFlag
	s.multiline = multiline

	if !filesOnly {
		m, err := compile(patterns, fixed, ignoreCase || smart && !hasUpper(patterns), word, lineRe, multiline, pcre)
		if err == errNewline {
			io.WriteString(c.Stderr, newlineMessage)
			return 2
		}
		if err != nil {
			fmt.Fprintf(c.Stderr, "regex parse error:\n    %s\nerror: %s\n", strings.Join(patterns, "|"), err)
			return 2
		}
		s.m = m
	}
	s.out = textio.NewWriter(c.Stdout)
	defer s.out.Flush()

	want, avoid := typeGlobs(types), typeGlobs(notTypes)
	if len(operands) == 0 && !filesOnly && stdinIsData(c.Stdin) {
		s.showPath = withName
		s.searchReader(c.Stdin, "<stdin>", true)
		return s.finish()
	}
	roots := operands
	implicit := len(roots) == 0
	if implicit {
		roots = []string{"."}
	}
	// One file named: no file names, as grep -h.
	s.showPath = !noName && (withName || implicit || len(roots) > 1 || isDir(c, roots[0]))
	s.heading = s.heading && s.showPath
	var jobs []job
	for _, root := range roots {
		if ctx.Err() != nil {
			return 130
		}
		fi, err := c.Stat(root)
		if err != nil {
			jobs = append(jobs, job{path: root, err: err})
			continue
		}
		if !fi.IsDir() {
			if filesOnly {
				s.printPath(root)
				continue
			}
			jobs = append(jobs, job{path: root, explicit: true})
			continue
		}
		shown := root
		if root == "." && !implicit {
			shown = "./" // ripgrep keeps the "./" of an explicit "."
		}
		err = ignorewalk.Walk(ctx, c, shown, walk, func(e ignorewalk.Entry) error {
			if e.Info.IsDir() || !e.Info.Mode().IsRegular() && e.Info.Mode()&fs.ModeSymlink == 0 {
				return nil
			}
			if e.Info.Mode()&fs.ModeSymlink != 0 {
				return nil // not followed without -L
			}
			if !typeOK(pathBase(e.Path), want, avoid) {
				return nil
			}
			if filesOnly {
				s.printPath(e.Path)
				return nil
			}
			jobs = append(jobs, job{path: e.Path})
			return nil
		}, func(p string, err error) { jobs = append(jobs, job{path: p, err: err}) })
		if err != nil {
			return 130
		}
	}
	s.runJobs(jobs)
	if ctx.Err() != nil {
		return 130
	}
	if s.searched == 0 && !s.errored && !s.quiet {
		s.out.Flush()
		io.WriteString(c.Stderr, "No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.\n")
		return 2
	}
	if filesOnly {
		s.out.Flush()
		if s.errored {
			return 2
		}
		if !s.matched {
			return 1
		}
		return 0
	}
	return s.finish()
}

var errStop = errors.New("stop")

var errNewline = errors.New("newline")

const newlineMessage = `the literal '"\n"' is not allowed in a regex

Consider enabling multiline mode with the --multiline flag (or -U for short).
When multiline mode is enabled, new line characters can be matched.
`

func (s *search) usage(msg string) int {
	fmt.Fprintln(s.c.Stderr, msg)
	return 2
}

func (s *search) finish() int {
	if s.json {
		s.jsonSummary()
	}
	if err := s.out.Flush(); err != nil && !builtins.IsBrokenPipe(err) {
		fmt.Fprintf(s.c.Stderr, "%s\n", builtins.ErrText(err))
		return 2
	}
	switch {
	case s.quiet && s.matched:
		return 0
	case s.errored:
		return 2
	case s.matched:
		return 0
	}
	return 1
}

func (s *search) printPath(p string) {
	s.matched = true
	s.searched++
	s.out.WriteString(p)
	if s.nulSep {
		s.out.WriteByte(0)
	} else {
		s.out.WriteByte('\n')
	}
}

// osError is ripgrep's rendering of an I/O error: "No such file or
// directory (os error 2)".
func osError(err error) string {
	var errno syscall.Errno
	switch {
	case errors.As(err, &errno):
	case errors.Is(err, fs.ErrNotExist):
		errno = syscall.ENOENT
	case errors.Is(err, fs.ErrPermission):
		errno = syscall.EACCES
	default:
		return builtins.ErrText(err)
	}
	return fmt.Sprintf("%s (os error %d)", builtins.ErrText(errno), int(errno))
}

func (s *search) fileErr(p string, err error) {
	s.errored = true
	s.out.Flush()
	fmt.Fprintf(s.errw, "%s: %s\n", p, osError(err))
}

func isDir(c *builtins.Call, p string) bool {
	fi, err := c.Stat(p)
	return err == nil && fi.IsDir()
}

func readFile(c *builtins.Call, name string) ([]byte, error) {
	f, err := c.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// stdinIsData reports whether standard input is a pipe or file to search
// (ripgrep searches it then, and the working directory otherwise).
func stdinIsData(r io.Reader) bool {
	switch x := r.(type) {
	case nil:
		return false
	case *strings.Reader:
		return x.Len() > 0
	case *bytes.Reader:
		return x.Len() > 0
	case interface{ Stat() (fs.FileInfo, error) }:
		fi, err := x.Stat()
		return err == nil && (fi.Mode()&fs.ModeNamedPipe != 0 || fi.Mode().IsRegular())
	}
	return true
}

// number reads a count argument: decimal digits only, at most
// 40 bits, which keeps later arithmetic on it far from overflow.
func number(s string) (int64, bool) {
	n, err := strconv.ParseUint(s, 10, 40)
	return int64(n), err == nil
}

func hasUpper(patterns []string) bool {
	for _, p := range patterns {
		// Escapes such as \W and \S are not literal upper case.
		for i := 0; i < len(p); i++ {
			if p[i] == '\\' {
				i++
				continue
			}
			if p[i] >= 'A' && p[i] <= 'Z' {
				return true
			}
		}
	}
	return false
}

func compile(patterns []string, fixed, fold, word, line, multi, pcre bool) (matcher, error) {
	parts := make([]string, len(patterns))
	for i, p := range patterns {
		if fixed {
			p = regexp.QuoteMeta(p)
		}
		parts[i] = p
	}
	expr := strings.Join(parts, "|")
	if len(parts) > 1 {
		expr = "(?:" + expr + ")"
	}
	switch {
	case line:
		expr = "^(?:" + expr + ")$"
	case word:
		expr = `\b(?:` + expr + `)\b`
	}
	if pcre {
		opts := regexp2.None
		if fold {
			opts |= regexp2.IgnoreCase
		}
		re, err := regexp2.Compile(expr, opts)
		if err != nil {
			return nil, err
		}
		return pcreMatcher{re}, nil
	}
	flags := ""
	if fold {
		flags = "i"
	}
	prefix := ""
	if flags != "" {
		prefix = "(?" + flags + ")"
	}
	re, err := regexp.Compile(prefix + expr)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if !multi && strings.Contains(expr, `\n`) {
		return nil, errNewline
	}
	mre := regexp.MustCompile("(?m" + flags + ")" + expr)
	g := goMatcher{re: re, multi: mre}
	if lit, complete := re.LiteralPrefix(); complete && lit != "" && re.String() == regexp.QuoteMeta(lit) {
		g.lit = []byte(lit)
	}
	return g, nil
}

// typeGlobs lists the globs of the named types ("all": every type).
func typeGlobs(types []string) []string {
	var out []string
	for _, t := range types {
		if t == "all" {
			for _, name := range typeNames() {
				out = append(out, fileTypes()[name]...)
			}
			continue
		}
		out = append(out, fileTypes()[t]...)
	}
	return out
}

// typeOK applies -t and -T to a file name found by walking (types do not
// override ignore rules, unlike -g).
func typeOK(name string, want, avoid []string) bool {
	match := func(globs []string) bool {
		for _, g := range globs {
			if ok, _ := path.Match(g, name); ok {
				return true
			}
		}
		return false
	}
	if match(avoid) {
		return false
	}
	return len(want) == 0 || match(want)
}

func (s *search) searchFile(p string, explicit bool) {
	f, err := s.c.Open(p)
	if err != nil {
		s.fileErr(p, err)
		return
	}
	defer f.Close()
	s.searchReader(f, p, explicit)
}

func pathBase(p string) string { return path.Base(p) }
