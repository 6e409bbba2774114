// Package fd implements fd 8.6 (Debian's fd-find) over the sandbox
// filesystem: a regular expression (or -g glob, -F string) matched
// against each entry's name (-p: its path), smart case, hidden and ignore
// rules as ripgrep's (package ignorewalk, with .fdignore), -e -t -d
// --min-depth -E -H -I -u -a -0 --max-results, and -x/-X running commands
// through the sandbox's dispatcher. Directories print with a trailing
// slash; results come in name order (fd's own order varies).
package fd

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/ignorewalk"
	"github.com/bashbox/bashbox/coreutils/internal/textio"
)

const help = `A program to find entries in your filesystem

Usage: fd [OPTIONS] [pattern] [path]...

Arguments:
  [pattern]  the search pattern (a regular expression, unless '--glob' is used; optional)
  [path]...  the root directories for the filesystem search (optional)

Options:
  -H, --hidden                     Search hidden files and directories
  -I, --no-ignore                  Do not respect .(git|fd)ignore files
  -u, --unrestricted               Search hidden and ignored entries (--hidden --no-ignore)
  -s, --case-sensitive             Case-sensitive search (default: smart case)
  -i, --ignore-case                Case-insensitive search (default: smart case)
  -g, --glob                       Glob-based search (default: regular expression)
  -F, --fixed-strings              Treat pattern as literal string instead of regex
  -a, --absolute-path              Show absolute instead of relative paths
  -L, --follow                     Follow symbolic links
  -p, --full-path                  Search full abs. path (default: filename only)
  -0, --print0                     Separate search results by the null character
  -d, --max-depth <depth>          Set maximum search depth (default: none)
      --min-depth <depth>          Only show search results starting at the given depth.
      --exact-depth <depth>        Only show search results at the exact given depth
  -E, --exclude <pattern>          Exclude entries that match the given glob pattern
  -t, --type <filetype>            Filter by type: file (f), directory (d), symlink (l),
                                   executable (x), empty (e), socket (s), pipe (p)
  -e, --extension <ext>            Filter by file extension
  -x, --exec <cmd>...              Execute a command for each search result
  -X, --exec-batch <cmd>...        Execute a command with all search results at once
  -1                               Limit the search to a single result
      --max-results <count>        Limit the number of search results
  -c, --color <when>               When to use colors [default: auto]
  -h, --help                       Print help information
  -V, --version                    Print version information
`

type finder struct {
	ctx        context.Context
	c          *builtins.Call
	re         *regexp.Regexp
	fullPath   bool
	exts       []string
	types      string
	minDepth   int
	absolute   bool
	print0     bool
	maxResults int
	found      int
	exec       []string
	batch      bool
	results    []string
	status     int
}

// Run is the fd command.
func Run(ctx context.Context, c *builtins.Call) int {
	f := &finder{ctx: ctx, c: c}
	var (
		walk                   ignorewalk.Options
		pattern                *string
		roots                  []string
		glob, fixed            bool
		caseSet, ignoreCase    bool
		unrestricted           int
		exactDepth             = -1
		furtherArgs, execUntil bool
	)
	walk.ToolFile = ".fdignore"
	args := c.Args[1:]
	fail := func(format string, a ...any) int {
		fmt.Fprintf(c.Stderr, "[fd error]: "+format+"\n", a...)
		return 1
	}
	value := func(i *int, name string) (string, bool) {
		a := args[*i]
		if k := strings.IndexByte(a, '='); strings.HasPrefix(a, "--") && k > 0 {
			return a[k+1:], true
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			return a[2:], true
		}
		if *i+1 >= len(args) {
			return "", false
		}
		*i++
		return args[*i], true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if execUntil {
			if a == ";" {
				execUntil = false
				continue
			}
			f.exec = append(f.exec, a)
			continue
		}
		if furtherArgs || a == "-" || !strings.HasPrefix(a, "-") {
			if pattern == nil {
				p := a
				pattern = &p
			} else {
				roots = append(roots, a)
			}
			continue
		}
		name := a
		if k := strings.IndexByte(a, '='); strings.HasPrefix(a, "--") && k > 0 {
			name = a[:k]
		} else if len(a) > 2 && a[1] != '-' {
			name = a[:2]
		}
		switch name {
		case "--":
			furtherArgs = true
		case "-h", "--help":
			io.WriteString(c.Stdout, help)
			return 0
		case "-V", "--version":
			io.WriteString(c.Stdout, "fd 8.6.0 (bashbox "+builtins.ReleaseVersion+")\n")
			return 0
		case "-H", "--hidden":
			walk.Hidden = true
		case "-I", "--no-ignore":
			walk.NoIgnore = true
		case "--no-ignore-vcs":
			walk.NoVCS = true
		case "-u", "--unrestricted":
			unrestricted += max(1, strings.Count(a, "u"))
		case "-s", "--case-sensitive":
			caseSet, ignoreCase = true, false
		case "-i", "--ignore-case":
			caseSet, ignoreCase = true, true
		case "-g", "--glob":
			glob = true
		case "--regex":
			glob = false
		case "-F", "--fixed-strings":
			fixed = true
		case "-a", "--absolute-path":
			f.absolute = true
		case "-L", "--follow":
			walk.Follow = true
		case "-p", "--full-path":
			f.fullPath = true
		case "-0", "--print0":
			f.print0 = true
		case "-1":
			f.maxResults = 1
		case "-c", "--color", "-d", "--max-depth", "--min-depth", "--exact-depth", "-E", "--exclude",
			"-t", "--type", "-e", "--extension", "--max-results", "-j", "--threads":
			v, ok := value(&i, name)
			if !ok {
				return fail("a value is required for '%s' but none was supplied", name)
			}
			switch name {
			case "-d", "--max-depth", "--min-depth", "--exact-depth", "--max-results", "-j", "--threads":
				n, ok := number(v)
				if !ok {
					return fail("invalid value '%s' for '%s': invalid digit found in string", v, name)
				}
				switch name {
				case "-d", "--max-depth":
					walk.MaxDepth = max(n, 1)
				case "--min-depth":
					f.minDepth = n
				case "--exact-depth":
					exactDepth = n
				case "--max-results":
					f.maxResults = n
				}
			case "-E", "--exclude":
				walk.Overrides = append(walk.Overrides, "!"+v)
			case "-t", "--type":
				t := map[string]string{"f": "f", "file": "f", "d": "d", "directory": "d", "l": "l", "symlink": "l",
					"x": "x", "executable": "x", "e": "e", "empty": "e", "s": "s", "socket": "s", "p": "p", "pipe": "p"}[v]
				if t == "" {
					return fail("invalid value '%s' for '--type <filetype>'", v)
				}
				f.types += t
			case "-e", "--extension":
				f.exts = append(f.exts, strings.ToLower(strings.TrimPrefix(v, ".")))
			}
		case "-x", "--exec", "-X", "--exec-batch":
			f.batch = name == "-X" || name == "--exec-batch"
			execUntil = true
			if len(a) > 2 && a[1] != '-' {
				f.exec = append(f.exec, a[2:])
			}
		default:
			fmt.Fprintf(c.Stderr, "error: unexpected argument '%s' found\n\nUsage: fd [OPTIONS] [pattern] [path]...\n\nFor more information, try '--help'.\n", a)
			return 2
		}
	}
	if exactDepth >= 0 {
		f.minDepth, walk.MaxDepth = exactDepth, max(exactDepth, 1)
	}
	if unrestricted >= 1 {
		// fd 8.6 takes one -u as both (its help still says otherwise).
		walk.NoIgnore, walk.Hidden = true, true
	}
	if (f.exec != nil || execUntil) && len(f.exec) == 0 {
		return fail("a value is required for '--exec <cmd>...' but none was supplied")
	}
	p := ""
	if pattern != nil {
		p = *pattern
	}
	if !caseSet {
		ignoreCase = p == strings.ToLower(p)
	}
	expr := p
	switch {
	case glob:
		expr = globRegexp(p)
	case fixed:
		expr = regexp.QuoteMeta(p)
	}
	if ignoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return fail("regex parse error:\n    %s\nerror: %s\n\nNote: You can use the '--fixed-strings' option to search for a literal string instead of a regular expression. Alternatively, you can also use the '--glob' option to match on a glob pattern.",
			p, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	f.re = re

	out := textio.NewWriter(c.Stdout)
	defer out.Flush()
	explicit := len(roots) > 0
	if !explicit {
		roots = []string{"."}
	}
	valid := 0
	for _, root := range roots {
		fi, err := c.Stat(root)
		if err != nil || !fi.IsDir() {
			fmt.Fprintf(c.Stderr, "[fd error]: Search path '%s' is not a directory.\n", root)
			continue
		}
		valid++
		shown := root
		if !explicit && (f.exec != nil || f.print0) {
			shown = "./" // fd prefixes "./" for commands and -0
		}
		err = ignorewalk.Walk(ctx, c, shown, walk, func(e ignorewalk.Entry) error {
			if !f.wanted(e) {
				return nil
			}
			f.found++
			name := e.Path
			if f.absolute {
				name = path.Clean(c.Abs(name))
			}
			if f.exec != nil {
				if f.batch {
					f.results = append(f.results, name)
				} else {
					out.Flush()
					f.run(f.expand(name))
				}
			} else {
				out.WriteString(name)
				if e.Info.IsDir() && !f.print0 {
					out.WriteByte('/')
				}
				if f.print0 {
					out.WriteByte(0)
				} else {
					out.WriteByte('\n')
				}
			}
			if f.maxResults > 0 && f.found >= f.maxResults {
				return errDone
			}
			return nil
		}, func(p string, err error) {
			fmt.Fprintf(c.Stderr, "[fd error]: %s: %s\n", p, builtins.ErrText(err))
		})
		if err == errDone {
			break
		}
		if err != nil {
			return 130
		}
	}
	if valid == 0 {
		return fail("No valid search paths given.")
	}
	if f.batch && len(f.results) > 0 {
		out.Flush()
		f.runBatch()
	}
	return f.status
}

type doneError struct{}

func (doneError) Error() string { return "done" }

var errDone error = doneError{}

// number reads a count argument: decimal digits only, at most
// 32 bits, which keeps later arithmetic on it far from overflow.
func number(s string) (int, bool) {
	n, err := strconv.ParseUint(s, 10, 32)
	return int(n), err == nil
}

// globRegexp turns a glob into an anchored regular expression over a
// name: * and ? stay within one path component, ** crosses them.
func globRegexp(g string) string {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		switch ch := g[i]; ch {
		case '*':
			if i+1 < len(g) && g[i+1] == '*' {
				b.WriteString(".*")
				i++
			} else {
				b.WriteString("[^/]*")
			}
		case '?':
			b.WriteString("[^/]")
		case '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		case '{':
			j := strings.IndexByte(g[i:], '}')
			if j < 0 {
				b.WriteString(`\{`)
				continue
			}
			alts := strings.Split(g[i+1:i+j], ",")
			for k := range alts {
				alts[k] = regexp.QuoteMeta(alts[k])
			}
			b.WriteString("(?:" + strings.Join(alts, "|") + ")")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	b.WriteString("$")
	return b.String()
}

// wanted applies the pattern and the filters to one entry.
func (f *finder) wanted(e ignorewalk.Entry) bool {
	if e.Depth < f.minDepth {
		return false
	}
	subject := path.Base(e.Path)
	if f.fullPath {
		subject = path.Clean(f.c.Abs(e.Path))
	}
	if !f.re.MatchString(subject) {
		return false
	}
	if len(f.exts) > 0 {
		name := strings.ToLower(path.Base(e.Path))
		ok := false
		for _, x := range f.exts {
			if strings.HasSuffix(name, "."+x) && len(name) > len(x)+1 {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	if f.types == "" {
		return true
	}
	m := e.Info.Mode()
	for _, t := range f.types {
		switch t {
		case 'f':
			if m.IsRegular() {
				return true
			}
		case 'd':
			if m.IsDir() {
				return true
			}
		case 'l':
			if m&fs.ModeSymlink != 0 {
				return true
			}
		case 'x':
			if m.IsRegular() && m.Perm()&0o111 != 0 {
				return true
			}
		case 'e':
			if m.IsRegular() && e.Info.Size() == 0 {
				return true
			}
			if m.IsDir() {
				if entries, err := f.c.ReadDir(e.Path); err == nil && len(entries) == 0 {
					return true
				}
			}
		case 's':
			if m&fs.ModeSocket != 0 {
				return true
			}
		case 'p':
			if m&fs.ModeNamedPipe != 0 {
				return true
			}
		}
	}
	return false
}

// expand fills -x's placeholders for one result: {} the path, {/} its
// name, {//} its directory, {.} and {/.} the same without the extension.
// Without a placeholder the path is the last argument.
func (f *finder) expand(p string) []string {
	noExt := func(s string) string {
		base := path.Base(s)
		if i := strings.LastIndexByte(base, '.'); i > 0 {
			return s[:len(s)-(len(base)-i)]
		}
		return s
	}
	parent := "."
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		parent = p[:i] // as written: "./src", not path.Dir's "src"
	}
	r := strings.NewReplacer("{}", p, "{/}", path.Base(p), "{//}", parent,
		"{.}", strings.TrimPrefix(noExt(p), "./"), "{/.}", noExt(path.Base(p)))
	var argv []string
	placed := false
	for _, a := range f.exec {
		if strings.Contains(a, "{") {
			n := r.Replace(a)
			placed = placed || n != a
			a = n
		}
		argv = append(argv, a)
	}
	if !placed {
		argv = append(argv, p)
	}
	return argv
}

func (f *finder) run(argv []string) {
	if f.c.Exec == nil {
		f.status = 1
		return
	}
	if code := f.c.Exec(f.ctx, f.c.Sub(argv)); code != 0 {
		f.status = 1
	}
}

// runBatch is -X: one command with every result ({} placeholders take
// them all).
func (f *finder) runBatch() {
	var argv []string
	placed := false
	for _, a := range f.exec {
		if a == "{}" {
			argv = append(argv, f.results...)
			placed = true
			continue
		}
		argv = append(argv, a)
	}
	if !placed {
		argv = append(argv, f.results...)
	}
	f.run(argv)
}
