package interp

import (
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/bashbox/bashbox/coreutils/timefmt"
	"mvdan.cc/sh/v3/syntax"
)

// prompt expands a prompt string as ${x@P} does: first bash's backslash
// escapes, from the sandbox's own identity (its user, host name and
// clock, never the host's), then, with promptvars, parameter expansion,
// command substitution and arithmetic as in a here-document.
func (f *frame) prompt(s string) (string, bool) {
	decoded := f.promptEscapes(s)
	if !f.opts.has(optPromptvars) || !strings.ContainsAny(decoded, "$`\\") {
		return decoded, true
	}
	e := expander{f: f, mode: modeLiteral}
	if !e.document(decoded) {
		return "", false
	}
	return e.joined(), true
}

// document expands text as the body of a here-document (or a double-
// quoted string whose quotes are plain characters): parameters, command
// substitutions and arithmetic, all quoted. Text that does not parse is
// taken as it is.
func (e *expander) document(text string) bool {
	if text == "" {
		return true
	}
	w, err := syntax.NewParser().Document(strings.NewReader(text))
	if err != nil || w == nil {
		e.add(text, true)
		return true
	}
	// expansions find their source text by offset in f.src
	f := e.f
	saved := f.src
	f.src = text
	defer func() { f.src = saved }()
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			e.docLit(l.Value)
			continue
		}
		e.part(p, true)
		if e.err {
			return false
		}
	}
	return true
}

// docLit adds here-document text: a backslash quotes $ ` \ and newline.
func (e *expander) docLit(s string) {
	start := 0
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' || !strings.ContainsRune("$`\\\n", rune(s[i+1])) {
			continue
		}
		e.add(s[start:i], true)
		if s[i+1] != '\n' {
			e.add(s[i+1:i+2], true)
		}
		i++
		start = i + 1
	}
	e.add(s[start:], true)
}

// promptEscapes decodes the backslash escapes of a prompt string. Values
// put in (a directory, a user name) are quoted against the expansion
// that follows.
func (f *frame) promptEscapes(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	now := time.Now()
	if tz, ok := f.getVar("TZ"); ok {
		if loc, err := time.LoadLocation(tz); err == nil {
			now = now.In(loc)
		}
	} else {
		now = now.UTC()
	}
	quote := func(v string) {
		if f.opts.has(optPromptvars) {
			for i := 0; i < len(v); i++ {
				if c := v[i]; c == '\\' || c == '$' || c == '`' {
					b.WriteByte('\\')
				}
				b.WriteByte(v[i])
			}
			return
		}
		b.WriteString(v)
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'e':
			b.WriteByte(0x1b)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteString(`\`)
		case '[', ']':
			// around non-printing characters: nothing
		case 'd':
			b.WriteString(now.Format("Mon Jan 02"))
		case 't':
			b.WriteString(now.Format("15:04:05"))
		case 'T':
			b.WriteString(now.Format("03:04:05"))
		case '@':
			b.WriteString(now.Format("03:04 PM"))
		case 'A':
			b.WriteString(now.Format("15:04"))
		case 'D':
			end := -1
			if i+1 < len(s) && s[i+1] == '{' {
				end = strings.IndexByte(s[i+1:], '}')
			}
			if end < 0 {
				b.WriteString(`\D`)
				continue
			}
			format := s[i+2 : i+1+end]
			if format == "" {
				format = "%X"
			}
			quote(timefmt.Strftime(now, format))
			i += 1 + end
		case 'h', 'H':
			host := nativeShellVars["HOSTNAME"]
			if c == 'h' {
				host, _, _ = strings.Cut(host, ".")
			}
			quote(host)
		case 'u':
			quote(f.userName())
		case 'j':
			b.WriteString(itoa(len(f.jobs.snapshot())))
		case 'l':
			b.WriteString("tty")
		case 's':
			quote(path.Base(f.arg0))
		case 'v', 'V':
			ver, _, _ := strings.Cut(nativeShellVars["BASH_VERSION"], "(")
			if c == 'v' {
				parts := strings.SplitN(ver, ".", 3)
				if len(parts) >= 2 {
					ver = parts[0] + "." + parts[1]
				}
			}
			b.WriteString(ver)
		case 'w', 'W':
			quote(f.promptDir(c == 'W'))
		case '!':
			b.WriteString("1")
		case '#':
			b.WriteString("0")
		case '$':
			if nativeShellVars["EUID"] == "0" {
				b.WriteByte('#')
			} else if f.opts.has(optPromptvars) {
				b.WriteString(`\$`)
			} else {
				b.WriteByte('$')
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, k := digits(s[i:], 8, 3)
			b.WriteByte(byte(n))
			i += k - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// promptDir is \w ($PWD with $HOME shown as ~) or \W (its last element).
func (f *frame) promptDir(base bool) string {
	dir, _ := f.getVar("PWD")
	if dir == "" {
		dir = f.dir
	}
	home, _ := f.getVar("HOME")
	if home != "" && home != "/" && (dir == home || strings.HasPrefix(dir, home+"/")) {
		if base && dir == home {
			return "~"
		}
		if !base {
			return f.trimDir("~" + dir[len(home):])
		}
	}
	if base && dir != "/" {
		return path.Base(dir)
	}
	if !base {
		return f.trimDir(dir)
	}
	return dir
}

// trimDir applies PROMPT_DIRTRIM to \w: past a ~/ prefix, all but the
// last N components become "...", when that shortens by more than three
// characters (bash's rule).
func (f *frame) trimDir(name string) string {
	v, _ := f.getVar("PROMPT_DIRTRIM")
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 || name == "" {
		return name
	}
	beg := 0
	if name[0] == '~' {
		beg = len(name)
		if i := strings.IndexByte(name, '/'); i >= 0 {
			beg = i + 1
		}
	}
	if beg >= len(name) || strings.Count(name[beg:], "/") < n {
		return name
	}
	tail := len(name) - 1
	if name[tail] == '/' {
		tail = len(name)
	}
	for ; tail > beg; tail-- {
		if tail < len(name) && name[tail] == '/' {
			n--
		}
		if n == 0 {
			break
		}
	}
	if tail == beg || tail-beg <= 3 {
		return name
	}
	return name[:beg] + "..." + name[tail:]
}

// userName is the sandbox's user: $USER, as its user table has it.
func (f *frame) userName() string {
	if u, ok := f.getVar("USER"); ok && u != "" {
		return u
	}
	return "user"
}
