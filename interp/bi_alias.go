package interp

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases. bash expands them while reading: an alias defined by a
// command takes effect from the next line read, never in the line (or
// compound command) that defines it. The engine expands at run time, so
// it remembers where each alias was defined and skips uses that bash
// would have read before the definition ran.

// aliasPos is where an alias was defined: the source and the last line
// of the top-level command that defined it.
type aliasPos struct {
	src  string
	line uint
}

// aliasUsable says whether name's alias was in effect when bash would
// have read the current command.
func (f *frame) aliasUsable(name string) bool {
	at, ok := f.aliasFrom[name]
	return !ok || at.src != f.src || f.lineno > int(at.line)
}

// plainWord is a word's text when it is an unquoted literal, the only
// kind alias expansion looks at.
func plainWord(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return l.Value, true
}

// expandAlias replaces a leading alias name in words: again for the
// first word of the result (an alias of an alias, but never one being
// expanded), and for the next word when a value ends in a blank.
func (f *frame) expandAlias(words []*syntax.Word) ([]*syntax.Word, bool) {
	changed := false
	seen := map[string]bool{}
	pos, after, trailing := 0, 0, false
	for n := 0; n < 64 && pos < len(words); n++ {
		name, ok := plainWord(words[pos])
		val, found := f.aliases[name]
		if !ok || !found || seen[name] || !f.aliasUsable(name) {
			if trailing && after > pos && after < len(words) {
				pos, trailing, seen = after, false, map[string]bool{}
				continue
			}
			break
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(val), "")
		if err != nil || len(file.Stmts) > 1 {
			break
		}
		var repl []*syntax.Word
		if len(file.Stmts) == 1 {
			call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
			if !ok || len(call.Assigns) > 0 || len(file.Stmts[0].Redirs) > 0 {
				break
			}
			repl = call.Args
		}
		words = append(append(append([]*syntax.Word(nil), words[:pos]...), repl...), words[pos+1:]...)
		changed = true
		seen[name] = true
		after = pos + len(repl)
		trailing = strings.HasSuffix(val, " ") || strings.HasSuffix(val, "\t")
		if len(repl) == 0 && !trailing {
			break
		}
	}
	return words, changed
}

// badAliasChars may not appear in an alias name.
const badAliasChars = " \t\n&();<>|\"'`$/="

func (f *frame) biAlias(args []string) int {
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if args[0] != "-p" {
			f.errorf("alias: %s: invalid option", args[0][:2])
			f.fds.writeString(2, "alias: usage: alias [-p] [name[=value] ... ]\n")
			return 2
		}
		args = args[1:]
	}
	if len(args) == 0 {
		names := make([]string, 0, len(f.aliases))
		for n := range f.aliases {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, n := range names {
			b.WriteString("alias " + n + "=" + singleQuote(f.aliases[n]) + "\n")
		}
		f.fds.writeString(1, b.String())
		return 0
	}
	status := 0
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			v, found := f.aliases[name]
			if !found {
				f.errorf("alias: %s: not found", name)
				status = 1
				continue
			}
			f.fds.writeString(1, "alias "+name+"="+singleQuote(v)+"\n")
			continue
		}
		if name == "" || strings.ContainsAny(name, badAliasChars) {
			f.errorf("alias: `%s': invalid alias name", name)
			status = 1
			continue
		}
		f.setAlias(name, val, false)
		from := make(map[string]aliasPos, len(f.aliasFrom)+1)
		for k, v := range f.aliasFrom {
			from[k] = v
		}
		from[name] = aliasPos{f.src, f.unitEnd}
		f.aliasFrom = from
	}
	return status
}

func (f *frame) biUnalias(args []string) int {
	args = args[1:]
	if len(args) == 0 {
		f.fds.writeString(2, "unalias: usage: unalias [-a] name [name ...]\n")
		return 2
	}
	status := 0
	for _, a := range args {
		if a == "-a" {
			f.aliases = map[string]string{}
			f.aliasShared = false
			continue
		}
		if _, ok := f.aliases[a]; !ok {
			f.errorf("unalias: %s: not found", a)
			status = 1
			continue
		}
		f.setAlias(a, "", true)
	}
	return status
}
