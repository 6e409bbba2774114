// Package dircolors implements dircolors (GNU coreutils 9.1): turn a
// color database (coreutils' own by default, or a FILE) into the shell
// code that sets LS_COLORS for the terminal named by $TERM/$COLORTERM.
package dircolors

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/bashbox/bashbox/builtins"
	"github.com/bashbox/bashbox/coreutils/internal/fileops"
	"github.com/bashbox/bashbox/coreutils/internal/files/glob"
	"github.com/bashbox/bashbox/coreutils/internal/quote"
	"github.com/bashbox/bashbox/internal/lazy"
)

// defaultDB is the database dircolors -p prints and uses without FILE:
// GNU coreutils 9.1's, which the output must reproduce byte for byte.
//
//go:embed default.db
var defaultDB string

const help = `Usage: PROG [OPTION]... [FILE]
Output commands to set the LS_COLORS environment variable.

Determine format of output:
  -b, --sh, --bourne-shell    output Bourne shell code to set LS_COLORS
  -c, --csh, --c-shell        output C shell code to set LS_COLORS
  -p, --print-database        output defaults
      --print-ls-colors       output fully escaped colors for display
      --help        display this help and exit
      --version     output version information and exit

If FILE is specified, read it to determine which colors to use for which
file types and extensions.  Otherwise, a precompiled database is used.
For details on the format of these files, run 'PROG --print-database'.
`

var spec = builtins.Options{List: []builtins.Option{
	{Short: 'b', Long: "sh"}, {Long: "bourne-shell"},
	{Short: 'c', Long: "csh"}, {Long: "c-shell"},
	{Short: 'p', Long: "print-database"},
	{Long: "print-ls-colors"},
}}

// keywords maps the database's file type keywords (any case) to
// LS_COLORS's two-letter codes.
var keywords = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"NORMAL": "no", "NORM": "no", "FILE": "fi", "RESET": "rs", "DIR": "di",
		"LNK": "ln", "LINK": "ln", "SYMLINK": "ln", "ORPHAN": "or", "MISSING": "mi",
		"FIFO": "pi", "PIPE": "pi", "SOCK": "so", "BLK": "bd", "BLOCK": "bd",
		"CHR": "cd", "CHAR": "cd", "DOOR": "do", "EXEC": "ex", "LEFT": "lc",
		"LEFTCODE": "lc", "RIGHT": "rc", "RIGHTCODE": "rc", "END": "ec",
		"ENDCODE": "ec", "SUID": "su", "SETUID": "su", "SGID": "sg", "SETGID": "sg",
		"STICKY": "st", "OTHER_WRITABLE": "ow", "OWR": "ow",
		"STICKY_OTHER_WRITABLE": "tw", "OWT": "tw", "CAPABILITY": "ca",
		"MULTIHARDLINK": "mh", "CLRTOEOL": "cl",
	}
}}

type syntax int

const (
	unset syntax = iota
	bourne
	cshell
	lsColors // --print-ls-colors
)

// Run is the dircolors command.
func Run(ctx context.Context, c *builtins.Call) int {
	opts, operands, status, done := fileops.Parse(c, spec, help)
	if done {
		return status
	}
	q := quote.New(c)
	shell, printDB, printLS := unset, false, false
	for _, o := range opts {
		switch o.Key {
		case "sh", "bourne-shell":
			shell = bourne
		case "csh", "c-shell":
			shell = cshell
		case "print-database":
			printDB = true
		case "print-ls-colors":
			printLS = true
		}
	}
	if (printDB || printLS) && shell != unset {
		return fileops.UsageErr(c, "the options to output non shell syntax,\nand to select a shell syntax are mutually exclusive")
	}
	if printDB && printLS {
		return fileops.UsageErr(c, "options --print-database and --print-ls-colors are mutually exclusive")
	}
	if printLS {
		shell = lsColors
	}
	if printDB && len(operands) > 0 {
		c.Errorf("extra operand %s", q.Q(operands[0]))
		fmt.Fprintln(c.Stderr, "file operands cannot be combined with --print-database (-p)")
		c.TryHelp(0)
		return 1
	}
	if len(operands) > 1 {
		return fileops.UsageErr(c, "extra operand %s", q.Q(operands[1]))
	}
	out := fileops.NewOutput(c)
	if printDB {
		out.WriteString(defaultDB)
		return out.Finish(0)
	}
	if shell == unset {
		sh := c.Getenv("SHELL")
		if sh == "" {
			c.Errorf("no SHELL environment variable, and no shell type option given")
			return 1
		}
		shell = bourne
		if strings.HasSuffix(path.Base(sh), "csh") {
			shell = cshell
		}
	}
	var src io.Reader = strings.NewReader(defaultDB)
	name := ""
	if len(operands) == 1 {
		name = operands[0]
		if name == "-" {
			src = c.Stdin
		} else {
			f, err := c.Open(name)
			if err != nil {
				c.Errorf("%s: %s", q.F(name), builtins.ErrText(err))
				return 1
			}
			defer f.Close()
			src = f
			if fi, err := f.Stat(); err == nil && fi.IsDir() {
				// GNU reads a directory as an empty database.
				src = strings.NewReader("")
			}
		}
	}
	entries, ok := parse(c, src, name)
	if !ok {
		return 1
	}
	switch shell {
	case lsColors:
		for _, e := range entries {
			fmt.Fprintf(out, "\x1b[%sm%s\t%s\x1b[0m\n", e[1], e[0], e[1])
		}
	case bourne:
		out.WriteString("LS_COLORS='" + join(entries) + "';\nexport LS_COLORS\n")
	case cshell:
		out.WriteString("setenv LS_COLORS '" + join(entries) + "'\n")
	}
	return out.Finish(0)
}

// parse reads a database and returns the entries (key, value) that apply
// to the terminal: those before any TERM/COLORTERM line, and those after
// a run of such lines one of which matches. Errors are reported with
// name:line (name is "" for the built-in database).
func parse(c *builtins.Call, r io.Reader, name string) ([][2]string, bool) {
	term := c.Getenv("TERM")
	if term == "" {
		term = "none"
	}
	colorterm := c.Getenv("COLORTERM")
	const (
		global = iota
		termNo
		termSure // a TERM line of the current run matched
		termYes  // entries after a matching run
	)
	state := global
	var entries [][2]string
	ok := true
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		keyword, arg, valid := splitLine(sc.Text())
		if keyword == "" {
			continue
		}
		if !valid {
			c.Errorf("%s:%d: invalid line;  missing second token", name, n)
			ok = false
			continue
		}
		switch {
		case strings.EqualFold(keyword, "TERM"), strings.EqualFold(keyword, "COLORTERM"):
			if state != termSure {
				subject := term
				if strings.EqualFold(keyword, "COLORTERM") {
					subject = colorterm
				}
				state = termNo
				if glob.Match(arg, subject, 0) {
					state = termSure
				}
			}
			continue
		}
		if state == termSure {
			state = termYes
		}
		if state == termNo {
			continue
		}
		switch {
		case keyword[0] == '.':
			entries = append(entries, [2]string{"*" + keyword, arg})
		case keyword[0] == '*':
			entries = append(entries, [2]string{keyword, arg})
		case strings.EqualFold(keyword, "OPTIONS"), strings.EqualFold(keyword, "COLOR"), strings.EqualFold(keyword, "EIGHTBIT"):
			// Slackware's keywords: recognised, ignored.
		default:
			code, known := keywords.Get()[strings.ToUpper(keyword)]
			switch {
			case known:
				entries = append(entries, [2]string{code, arg})
			case state != global:
				c.Errorf("%s:%d: unrecognized keyword %s", name, n, keyword)
				ok = false
			}
		}
	}
	if err := sc.Err(); err != nil {
		c.Errorf("%s: %s", name, builtins.ErrText(err))
		ok = false
	}
	return entries, ok
}

// splitLine cuts a database line into its keyword and argument; comments
// start at '#'. valid is false for a keyword without an argument.
func splitLine(line string) (keyword, arg string, valid bool) {
	line = strings.TrimLeft(line, " \t\r\n\v\f")
	if line == "" || line[0] == '#' {
		return "", "", true
	}
	end := strings.IndexAny(line, " \t\r\n\v\f")
	if end < 0 {
		return line, "", false
	}
	keyword, rest := line[:end], strings.TrimLeft(line[end:], " \t\r\n\v\f")
	if rest == "" || rest[0] == '#' {
		return keyword, "", false
	}
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	return keyword, strings.TrimRight(rest, " \t\r\n\v\f"), true
}

// join renders entries as LS_COLORS's value inside single quotes: a quote
// becomes '\”, and = and : in keys and values are backslash-escaped
// unless a backslash or caret already escapes them.
func join(entries [][2]string) string {
	var b strings.Builder
	for _, e := range entries {
		appendQuoted(&b, e[0])
		b.WriteByte('=')
		appendQuoted(&b, e[1])
		b.WriteByte(':')
	}
	return b.String()
}

func appendQuoted(b *strings.Builder, s string) {
	escaped := false // the previous character was an unpaired \ or ^
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch ch {
		case '\'':
			b.WriteString(`'\'`)
			escaped = false
		case '\\', '^':
			escaped = !escaped
		case ':', '=':
			if !escaped {
				b.WriteByte('\\')
			}
			escaped = false
		default:
			escaped = false
		}
		b.WriteByte(ch)
	}
}
