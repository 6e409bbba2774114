package git

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
)

// prettyFmt is a --pretty choice.
type prettyFmt struct {
	kind       string // oneline, short, medium, full, fuller, raw, reference, format
	format     string // for kind "format"
	terminator bool   // tformat (and oneline): newline after each entry
}

func parsePretty(g *cmd, s string, isFormatOpt bool) prettyFmt {
	if isFormatOpt {
		return prettyFmt{kind: "format", format: s, terminator: true}
	}
	switch {
	case strings.HasPrefix(s, "format:"):
		return prettyFmt{kind: "format", format: s[7:]}
	case strings.HasPrefix(s, "tformat:"):
		return prettyFmt{kind: "format", format: s[8:], terminator: true}
	case s == "" || s == "medium":
		return prettyFmt{kind: "medium"}
	case s == "oneline" || s == "short" || s == "full" || s == "fuller" || s == "raw" || s == "reference":
		return prettyFmt{kind: s, terminator: s == "oneline" || s == "reference"}
	case strings.Contains(s, "%"):
		return prettyFmt{kind: "format", format: s, terminator: true}
	}
	g.fatal("invalid --pretty format: %s", s)
	return prettyFmt{}
}

// logCtx carries what formatting needs.
type logCtx struct {
	r           *repo
	dateMode    int
	abbrev      bool // abbreviate commit names in headers
	abbrevLen   int
	decorate    int // 0 none, 1 short, 2 full
	decorations map[plumbing.Hash][]decoration
	expandTabs  int
}

type decoration struct {
	name string
	kind int // 0 HEAD, 1 branch, 2 remote, 3 tag, 4 other
}

// loadDecorations maps commits to the refs naming them.
func (lc *logCtx) loadDecorations(full bool) {
	r := lc.r
	lc.decorations = map[plumbing.Hash][]decoration{}
	hd := r.head()
	type item struct {
		h plumbing.Hash
		d decoration
	}
	var items []item
	for _, ref := range r.listRefs("refs/") {
		if ref.name == "refs/stash" {
			continue
		}
		h := ref.hash
		if c, ok := r.commitOf(h); ok {
			h = c
		}
		name := ref.name
		kind := 4
		switch {
		case strings.HasPrefix(name, "refs/heads/"):
			kind = 1
			if !full {
				name = name[len("refs/heads/"):]
			}
		case strings.HasPrefix(name, "refs/remotes/"):
			kind = 2
			if !full {
				name = name[len("refs/remotes/"):]
			}
		case strings.HasPrefix(name, "refs/tags/"):
			kind = 3
			if !full {
				name = "tag: " + name[len("refs/tags/"):]
			} else {
				name = "tag: " + name
			}
		}
		items = append(items, item{h, decoration{name, kind}})
	}
	for _, it := range items {
		lc.decorations[it.h] = append(lc.decorations[it.h], it.d)
	}
	if !hd.unborn() {
		lc.decorations[hd.hash] = append(lc.decorations[hd.hash], decoration{"HEAD", 0})
	}
	_ = hd
}

// decorationString renders " (HEAD -> main, tag: v1)" contents: git
// lists names in the reverse of ref order, HEAD first, with the branch
// HEAD points to right after it.
func (lc *logCtx) decorationString(h plumbing.Hash) string {
	if lc.decorations == nil {
		lc.loadDecorations(lc.decorate == 2)
	}
	decs := lc.decorations[h]
	if len(decs) == 0 {
		return ""
	}
	hd := lc.r.head()
	headBranch := ""
	if hd.symbolic {
		headBranch = hd.branch()
		if lc.decorate == 2 {
			headBranch = hd.target
		}
	}
	var parts []string
	hasHead := false
	var rest []decoration
	for i := len(decs) - 1; i >= 0; i-- {
		if decs[i].kind == 0 {
			hasHead = true
			continue
		}
		rest = append(rest, decs[i])
	}
	if hasHead {
		label := "HEAD"
		for i, d := range rest {
			if d.kind == 1 && d.name == headBranch {
				label = "HEAD -> " + d.name
				rest = append(rest[:i], rest[i+1:]...)
				break
			}
		}
		parts = append(parts, label)
	}
	for _, d := range rest {
		parts = append(parts, d.name)
	}
	return strings.Join(parts, ", ")
}

// shortHash abbreviates h for headers.
func (lc *logCtx) shortHash(h plumbing.Hash) string {
	return lc.r.abbrevN(h, lc.abbrevLen)
}

// expandTabs expands tabs to tab stops of width n.
func expandTabs(s string, n int) string {
	if n <= 0 || !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			sp := n - col%n
			b.WriteString(strings.Repeat(" ", sp))
			col += sp
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

// messageBodyLines returns the message for indented formats: leading blank
// lines skipped, trailing whitespace of each line stripped, trailing blank
// lines dropped.
func indentedMessage(msg string, indent string, short bool, tabs int) string {
	var b strings.Builder
	first := true
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimRight(line, " \t\r\n\v\f")
		if line == "" {
			if first {
				continue
			}
			if short {
				break
			}
		}
		first = false
		b.WriteString(indent)
		b.WriteString(expandTabs(line, tabs))
		b.WriteByte('\n')
	}
	out := strings.TrimRight(b.String(), " \t\n")
	if out == "" {
		return ""
	}
	return out + "\n"
}

// formatCommit renders a commit header and message in a built-in format.
func (lc *logCtx) formatBuiltin(c *commit, pf prettyFmt) string {
	var b strings.Builder
	g := lc.r.g
	hash := c.hash.String()
	if lc.abbrev {
		hash = lc.shortHash(c.hash)
	}
	deco := ""
	if lc.decorate > 0 {
		if d := lc.decorationString(c.hash); d != "" {
			deco = " (" + d + ")"
		}
	}
	switch pf.kind {
	case "oneline":
		fmt.Fprintf(&b, "%s%s %s\n", hash, deco, c.subject())
		return b.String()
	case "reference":
		fmt.Fprintf(&b, "%s (%s, %s)\n", lc.shortHash(c.hash), c.subject(), g.formatDate(c.author, dateShort))
		return b.String()
	case "raw":
		fmt.Fprintf(&b, "commit %s%s\n", c.hash, deco)
		fmt.Fprintf(&b, "tree %s\n", c.tree)
		for _, p := range c.parents {
			fmt.Fprintf(&b, "parent %s\n", p)
		}
		fmt.Fprintf(&b, "author %s\ncommitter %s\n", c.author, c.committer)
		for _, e := range c.extra {
			b.WriteString(e + "\n")
		}
		b.WriteString("\n")
		b.WriteString(indentedMessage(c.message, "    ", false, 0))
		return b.String()
	}
	fmt.Fprintf(&b, "commit %s%s\n", hash, deco)
	if len(c.parents) > 1 {
		b.WriteString("Merge:")
		for _, p := range c.parents {
			b.WriteString(" " + lc.r.abbrev(p))
		}
		b.WriteString("\n")
	}
	switch pf.kind {
	case "short":
		fmt.Fprintf(&b, "Author: %s <%s>\n", c.author.name, c.author.email)
		b.WriteString("\n")
		b.WriteString(indentedMessage(c.message, "    ", true, 0))
	case "full":
		fmt.Fprintf(&b, "Author: %s <%s>\nCommit: %s <%s>\n", c.author.name, c.author.email, c.committer.name, c.committer.email)
		b.WriteString("\n")
		b.WriteString(indentedMessage(c.message, "    ", false, lc.expandTabs))
	case "fuller":
		fmt.Fprintf(&b, "Author:     %s <%s>\nAuthorDate: %s\nCommit:     %s <%s>\nCommitDate: %s\n",
			c.author.name, c.author.email, g.formatDate(c.author, lc.dateMode),
			c.committer.name, c.committer.email, g.formatDate(c.committer, lc.dateMode))
		b.WriteString("\n")
		b.WriteString(indentedMessage(c.message, "    ", false, lc.expandTabs))
	default: // medium
		fmt.Fprintf(&b, "Author: %s <%s>\nDate:   %s\n", c.author.name, c.author.email, g.formatDate(c.author, lc.dateMode))
		b.WriteString("\n")
		b.WriteString(indentedMessage(c.message, "    ", false, lc.expandTabs))
	}
	return b.String()
}

// formatUser expands a --format string for a commit.
func (lc *logCtx) formatUser(c *commit, f string) string {
	var b strings.Builder
	g := lc.r.g
	padNext := 0
	padKind := byte(0)
	trunc := ""
	emit := func(s string) {
		if padNext > 0 {
			w := utf8.RuneCountInString(s)
			if w > padNext && trunc != "" {
				rs := []rune(s)
				switch trunc {
				case "trunc":
					s = string(rs[:padNext-2]) + ".."
				case "ltrunc":
					s = ".." + string(rs[len(rs)-padNext+2:])
				case "mtrunc":
					l := (padNext - 2) / 2
					s = string(rs[:l]) + ".." + string(rs[len(rs)-(padNext-2-l):])
				}
				w = padNext
			}
			if w < padNext {
				sp := strings.Repeat(" ", padNext-w)
				switch padKind {
				case '<':
					s += sp
				case '>':
					s = sp + s
				case '^':
					l := (padNext - w) / 2
					s = strings.Repeat(" ", l) + s + strings.Repeat(" ", padNext-w-l)
				}
			}
			padNext = 0
			trunc = ""
		}
		b.WriteString(s)
	}
	for i := 0; i < len(f); i++ {
		ch := f[i]
		if ch != '%' || i+1 >= len(f) {
			b.WriteByte(ch)
			continue
		}
		i++
		rest := f[i:]
		two := func(k byte) string {
			if len(rest) >= 2 && rest[1] == k {
				return ""
			}
			return ""
		}
		_ = two
		switch rest[0] {
		case '%':
			b.WriteByte('%')
		case 'n':
			b.WriteByte('\n')
		case 'H':
			emit(c.hash.String())
		case 'h':
			emit(lc.r.abbrev(c.hash))
		case 'T':
			emit(c.tree.String())
		case 't':
			emit(lc.r.abbrev(c.tree))
		case 'P':
			var ps []string
			for _, p := range c.parents {
				ps = append(ps, p.String())
			}
			emit(strings.Join(ps, " "))
		case 'p':
			var ps []string
			for _, p := range c.parents {
				ps = append(ps, lc.r.abbrev(p))
			}
			emit(strings.Join(ps, " "))
		case 'a', 'c':
			if len(rest) < 2 {
				b.WriteString("%" + rest)
				i = len(f)
				continue
			}
			id := c.author
			if rest[0] == 'c' {
				id = c.committer
			}
			i++
			switch rest[1] {
			case 'n', 'N':
				emit(id.name)
			case 'e', 'E':
				emit(id.email)
			case 'l', 'L':
				l, _, _ := strings.Cut(id.email, "@")
				emit(l)
			case 'd', 'D':
				emit(g.formatDate(id, lc.dateMode))
			case 'r':
				emit(g.formatDate(id, dateRelative))
			case 't':
				emit(strconv.FormatInt(id.when, 10))
			case 'i':
				emit(g.formatDate(id, dateISO))
			case 'I':
				emit(g.formatDate(id, dateISOStrict))
			case 's':
				emit(g.formatDate(id, dateShort))
			case 'h':
				emit(g.formatDate(id, dateDefault))
			default:
				b.WriteByte('%')
				b.WriteString(rest[:2])
			}
		case 's':
			emit(c.subject())
		case 'f':
			emit(sanitizeSubject(c.subject()))
		case 'b':
			emit(c.body())
		case 'B':
			emit(strings.TrimLeft(c.message, "\n"))
		case 'e':
			emit(c.encoding)
		case 'd':
			if d := lc.decorationString(c.hash); d != "" {
				emit(" (" + d + ")")
			} else {
				emit("")
			}
		case 'D':
			emit(lc.decorationString(c.hash))
		case 'x':
			if len(rest) >= 3 && isHexPair(rest[1:3]) {
				b.WriteByte(unhex(rest[1])<<4 | unhex(rest[2]))
				i += 2
			} else {
				b.WriteString("%x")
			}
		case 'C':
			// Colors: nothing is printed when output is not a terminal.
			if strings.HasPrefix(rest, "C(") {
				if end := strings.IndexByte(rest, ')'); end >= 0 {
					i += end
					continue
				}
			}
			for _, name := range []string{"reset", "red", "green", "blue"} {
				if strings.HasPrefix(rest[1:], name) {
					i += len(name)
					break
				}
			}
		case '<', '>':
			if len(rest) >= 2 && rest[1] == '(' {
				end := strings.IndexByte(rest, ')')
				if end > 0 {
					args := strings.Split(rest[2:end], ",")
					n, _ := strconv.Atoi(strings.TrimSpace(args[0]))
					padNext = n
					padKind = rest[0]
					if len(args) > 1 {
						trunc = strings.TrimSpace(args[1])
					}
					i += end
					continue
				}
			}
			if len(rest) >= 3 && rest[1] == '|' && rest[2] == '(' {
				end := strings.IndexByte(rest, ')')
				if end > 0 {
					n, _ := strconv.Atoi(strings.TrimSpace(strings.Split(rest[3:end], ",")[0]))
					padNext = n
					padKind = rest[0]
					i += end
					continue
				}
			}
			b.WriteByte('%')
			b.WriteByte(rest[0])
		case 'm':
			emit(">")
		case 'G':
			if len(rest) >= 2 {
				i++
				if rest[1] == '?' {
					emit("N")
				}
			}
		case 'N':
			emit("")
		default:
			b.WriteByte('%')
			b.WriteByte(rest[0])
		}
	}
	return b.String()
}

func isHexPair(s string) bool {
	for i := 0; i < 2; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// sanitizeSubject is %f: a file-name-friendly subject.
func sanitizeSubject(s string) string {
	var b strings.Builder
	space := 2
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAlnum(c) || c == '.' || c == '_' {
			if space == 1 {
				b.WriteByte('-')
			}
			space = 0
			b.WriteByte(c)
			if c == '.' {
				for i+1 < len(s) && s[i+1] == '.' {
					i++
				}
			}
		} else {
			space |= 1
		}
	}
	return strings.TrimRight(b.String(), ".-")
}
